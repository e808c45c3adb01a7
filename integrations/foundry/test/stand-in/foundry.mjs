// A stand-in for the Foundry VTT v13 globals the sawbones module uses, written from Foundry's documented API
// (Hooks, game, CONFIG, ChatMessage, Actor, ActiveEffect, foundry.utils, foundry.applications.api,
// ui.notifications). One stand-in runs per client (a worker thread); documents are replicas that change only
// when the world (the server, world.mjs) broadcasts a change, as Foundry's socket does: the client that makes
// an update fires pre-hooks, every client that receives it fires the post-hooks.

import { readFile } from "node:fs/promises";

// ------------------------------------------------------------------ foundry.utils

function getProperty(object, key) {
  return key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), object);
}

function setProperty(object, key, value) {
  const parts = key.split(".");
  let target = object;
  for (const part of parts.slice(0, -1)) {
    if (typeof target[part] !== "object" || target[part] === null) target[part] = {};
    target = target[part];
  }
  target[parts.at(-1)] = value;
  return true;
}

function expandObject(object) {
  const out = {};
  for (const [key, value] of Object.entries(object)) {
    setProperty(out, key, value && typeof value === "object" && !Array.isArray(value) ? expandObject(value) : value);
  }
  return out;
}

function mergeObject(original, other) {
  for (const [key, value] of Object.entries(expandObject(other))) {
    if (value && typeof value === "object" && !Array.isArray(value) && original[key] && typeof original[key] === "object"
        && !Array.isArray(original[key])) mergeObject(original[key], value);
    else original[key] = structuredClone(value);
  }
  return original;
}

function randomID(length = 16) {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length }, () => chars[Math.floor(Math.random() * chars.length)]).join("");
}

const deepClone = value => structuredClone(value);

// ------------------------------------------------------------------ Hooks

class HooksStandIn {
  constructor() {
    this.events = new Map();
    this.fired = [];  // every hook called, in order (for the tests)
  }

  on(name, fn, { once = false } = {}) {
    const list = this.events.get(name) ?? [];
    const id = list.length + 1 + Math.random();
    list.push({ fn, once, id });
    this.events.set(name, list);
    return id;
  }

  once(name, fn) {
    return this.on(name, fn, { once: true });
  }

  off(name, fn) {
    this.events.set(name, (this.events.get(name) ?? []).filter(h => h.fn !== fn && h.id !== fn));
  }

  /** Hooks.callAll: every function, whatever they return. */
  callAll(name, ...args) {
    this.fired.push(name);
    for (const hook of [...(this.events.get(name) ?? [])]) {
      if (hook.once) this.off(name, hook.fn);
      hook.fn(...args);
    }
    return true;
  }

  /** Hooks.call: stops at the first function that returns false, and returns false then. */
  call(name, ...args) {
    this.fired.push(name);
    for (const hook of [...(this.events.get(name) ?? [])]) {
      if (hook.once) this.off(name, hook.fn);
      if (hook.fn(...args) === false) return false;
    }
    return true;
  }
}

// ------------------------------------------------------------------ collections and documents

class Collection extends Map {
  get contents() {
    return [...this.values()];
  }

  filter(fn) {
    return this.contents.filter(fn);
  }

  find(fn) {
    return this.contents.find(fn);
  }

  map(fn) {
    return this.contents.map(fn);
  }

  some(fn) {
    return this.contents.some(fn);
  }

  [Symbol.iterator]() {
    return this.values();
  }
}

class FlagsMixin {
  getFlag(scope, key) {
    return this.flags?.[scope]?.[key];
  }
}

class ActiveEffect extends FlagsMixin {
  constructor(data, parent) {
    super();
    Object.assign(this, structuredClone(data));
    this.id = data._id;
    this.statuses = new Set(data.statuses ?? []);
    this.parent = parent;
  }

  async setFlag(scope, key, value) {
    await this.update({ [`flags.${scope}.${key}`]: value });
    return this;
  }

  async update(changed) {
    await world.request({ op: "embedded", action: "update", actorId: this.parent.id, id: this.id,
                          changed: expandObject(changed) });
    return this;
  }

  async delete() {
    await world.request({ op: "embedded", action: "delete", actorId: this.parent.id, ids: [this.id] });
    return this;
  }
}

// Foundry core v13's update pipeline, as ClientDatabaseBackend#preUpdateDocumentArray and
// #handleUpdateDocuments (client/data/client-backend.mjs) run it: the change is expanded (expandObject), the
// document's own _preUpdate runs (the system's: pf1 rewrites HP there), then the preUpdateActor hook, then the
// change is diffed against the document's source (options.diff, true by default) — keys that change nothing
// are dropped, and an update left empty is never sent: no write, no updateActor anywhere. Each client that
// receives the change updates the source, prepares the derived data again (ClientDocumentMixin#_initialize),
// runs the document's _onUpdate, then the updateActor hook. Core is not a public repository: the order was read
// from a copy of client-backend.mjs through the code search, not at a tag, and is not line-checked.

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** What of `changed` differs from `source` (DataModel#updateSource with dryRun: the diff core keeps). */
export function diffAgainst(source, changed) {
  const out = {};
  for (const [key, value] of Object.entries(changed)) {
    const before = source?.[key];
    if (isObject(value) && isObject(before)) {
      const inner = diffAgainst(before, value);
      if (Object.keys(inner).length) out[key] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(value)) out[key] = structuredClone(value);
  }
  return out;
}

class Actor extends FlagsMixin {
  constructor(data) {
    super();
    this._source = structuredClone(data);
    this._initialize();
  }

  /** The source's fields, then the system's derived data (the system's prepareActor: pf1's HP from offset). */
  _initialize() {
    const { effects = [], ...rest } = this._source;
    Object.assign(this, structuredClone(rest));
    this.id = this._source._id;
    this.effects = new Collection(effects.map(e => [e._id, new ActiveEffect(e, this)]));
    game.system.prepareActor?.(this);
  }

  get uuid() {
    return `Actor.${this.id}`;
  }

  get statuses() {
    return new Set(this.effects.contents.flatMap(e => [...e.statuses]));
  }

  get hasPlayerOwner() {
    return Object.entries(this.ownership ?? {}).some(([id, level]) => level >= 3 && !game.users.get(id)?.isGM);
  }

  testUserPermission(user, level) {
    return user.isGM || (this.ownership?.[user.id] ?? this.ownership?.default ?? 0) >= (level === "OWNER" ? 3 : 1);
  }

  get isOwner() {
    return this.testUserPermission(game.user, "OWNER");
  }

  /** Document#toObject: the source data (never the derived data), as "Export Data" gives it. */
  toObject() {
    const out = structuredClone(this._source);
    out.effects = this.effects.contents.map(e => ({ _id: e.id, name: e.name, statuses: [...e.statuses], flags: e.flags }));
    return out;
  }

  async setFlag(scope, key, value) {
    return this.update({ [`flags.${scope}.${key}`]: value });
  }

  /** Document#update through core's pipeline (above). */
  async update(data, options = {}) {
    const changed = expandObject(data);
    options = { diff: true, recursive: true, ...options };
    if ((await game.system.preUpdateActor?.(this, changed, options, game.user)) === false) return undefined;
    if (Hooks.call("preUpdateActor", this, changed, options, game.user.id) === false) return undefined;
    const diff = options.diff ? diffAgainst(this._source, changed) : changed;
    writes.push({ actor: this.id, changed: diff, empty: !Object.keys(diff).length });
    if (!Object.keys(diff).length) return this;
    await world.request({ op: "update", collection: "actors", id: this.id, changed: diff, options });
    return this;
  }

  /** Actor#toggleStatusEffect (core v13): the status effect's ActiveEffect created (returned), or deleted (false).
   * A system may replace it (game.system.toggleStatusEffect: pf1). */
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    if (game.system.toggleStatusEffect) return game.system.toggleStatusEffect(this, statusId, { active, overlay });
    return this._toggleStatusEffect(statusId, { active });
  }

  async _toggleStatusEffect(statusId, { active, flags = {} } = {}) {
    const status = CONFIG.statusEffects.find(e => e.id === statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
    const existing = this.effects.filter(e => e.statuses.has(statusId));
    const state = active ?? !existing.length;
    if (!state && existing.length) {
      await world.request({ op: "embedded", action: "delete", actorId: this.id, ids: existing.map(e => e.id) });
      return false;
    }
    if (state && !existing.length) {
      const id = status._id ?? randomID();
      await world.request({ op: "embedded", action: "create", actorId: this.id,
                            data: { _id: id, name: status.name, img: status.img, statuses: [statusId], flags } });
      return this.effects.get(id);
    }
    return state ? true : undefined;
  }
}

class ChatMessage extends FlagsMixin {
  constructor(data) {
    super();
    Object.assign(this, structuredClone(data));
    this.id = data._id;
  }

  get isRoll() {
    return (this.rolls ?? []).length > 0;
  }

  static async create(data) {
    const id = randomID();
    await world.request({ op: "create", collection: "messages",
                          data: { ...structuredClone(data), _id: id, author: game.user.id, whisper: data.whisper ?? [] } });
    return game.messages.get(id) ?? null;
  }

  static getSpeaker({ actor } = {}) {
    return { actor: actor?.id ?? null, alias: actor?.name ?? game.user.name };
  }

  static getWhisperRecipients(name) {
    return name === "GM" ? game.users.filter(u => u.isGM) : game.users.filter(u => u.name === name);
  }

  async update(data) {
    await world.request({ op: "update", collection: "messages", id: this.id, changed: expandObject(data), options: {} });
    return this;
  }
}

class User {
  constructor(data) {
    Object.assign(this, data);
  }
}

// ------------------------------------------------------------------ applications

class ApplicationV2 {
  static DEFAULT_OPTIONS = {};

  constructor(options = {}) {
    this.options = options;
    this.id = options.id;
    this.element = null;
    this.rendered = false;
  }

  get title() {
    return "";
  }

  async render() {
    const result = await this._renderHTML({}, {});
    this.element ??= { innerHTML: "" };
    this._replaceHTML(result, this.element, {});
    this.rendered = true;
    applications.push(this);
    return this;
  }

  async _renderHTML() {
    return "";
  }

  _replaceHTML() {}

  async close() {
    this.rendered = false;
  }
}

/** DialogV2.wait: the test's answer (globalThis.dialogAnswer(config) → a button action and the form's values). */
class DialogV2 extends ApplicationV2 {
  static async wait(config) {
    dialogs.push(config);
    const chosen = await (globalThis.dialogAnswer?.(config) ?? null);
    if (!chosen) return null;
    const button = config.buttons.find(b => b.action === chosen.action);
    if (!button?.callback) return chosen.action;
    const elements = Object.fromEntries(Object.entries(chosen.form ?? {}).map(([k, v]) => [k, { value: v }]));
    return button.callback(new Event("submit"), { form: { elements } }, null);
  }
}

// ------------------------------------------------------------------ settings, i18n, notifications

class ClientSettings {
  constructor(worldValues, clientValues) {
    this.settings = new Map();
    this.menus = new Map();
    this.world = worldValues;
    this.client = clientValues;
  }

  register(namespace, key, config) {
    this.settings.set(`${namespace}.${key}`, { namespace, key, ...config });
  }

  registerMenu(namespace, key, config) {
    this.menus.set(`${namespace}.${key}`, config);
  }

  get(namespace, key) {
    const id = `${namespace}.${key}`;
    const config = this.settings.get(id);
    if (!config) throw new Error(`"${id}" is not a registered game setting`);
    const store = config.scope === "world" ? this.world : this.client;
    return id in store ? structuredClone(store[id]) : structuredClone(config.default);
  }

  async set(namespace, key, value) {
    const id = `${namespace}.${key}`;
    const config = this.settings.get(id);
    if (!config) throw new Error(`"${id}" is not a registered game setting`);
    if (config.scope === "world") {
      if (!game.user.isGM) throw new Error("only a GM changes a world setting");
      await world.request({ op: "setting", id, value });
    } else {
      this.client[id] = structuredClone(value);
      world.post({ op: "clientSetting", id, value });  // the browser's storage outlives a reload
      config.onChange?.(value);
    }
    return value;
  }
}

const notices = [];
const writes = [];  // every Actor#update that reached the diff: what it would write (empty: nothing)
const dialogs = [];
const applications = [];

function notifier(type) {
  return (message) => {
    notices.push({ type, message });
    return { type, message };
  };
}

// ------------------------------------------------------------------ the browser: fetch with CORS

const SAFE_HEADERS = new Set(["accept", "accept-language", "content-language"]);
export const requests = [];

/** fetch as a browser page of `origin` does it: file: URLs read (the module's own files), and for http(s),
 * the Origin header, a preflight for non-simple requests, and the answer refused without CORS headers. */
function browserFetch(origin, realFetch) {
  return async function fetch(resource, init = {}) {
    const url = new URL(String(resource));
    if (url.protocol === "file:") return new Response(await readFile(url));
    const method = (init.method ?? "GET").toUpperCase();
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    requests.push({ method, url: url.href });
    const crossOrigin = url.origin !== origin;
    if (crossOrigin) {
      const unsafe = Object.keys(headers).filter(h => !SAFE_HEADERS.has(h)
        && !(h === "content-type" && /^(text\/plain|multipart\/form-data|application\/x-www-form-urlencoded)/.test(headers[h])));
      if (!["GET", "HEAD", "POST"].includes(method) || unsafe.length) {
        const preflight = await realFetch(url, { method: "OPTIONS", headers: {
          Origin: origin, "Access-Control-Request-Method": method,
          ...(unsafe.length ? { "Access-Control-Request-Headers": unsafe.join(",") } : {}) } });
        const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
        const methods = (preflight.headers.get("access-control-allow-methods") ?? "").toUpperCase().split(/\s*,\s*/);
        if (!preflight.ok || preflight.headers.get("access-control-allow-origin") !== origin
            || unsafe.some(h => !allowed.includes(h)) || (!["GET", "HEAD", "POST"].includes(method) && !methods.includes(method))) {
          throw new TypeError(`Failed to fetch (CORS preflight refused for ${origin})`);
        }
      }
    }
    const answer = await realFetch(url, { ...init, headers: { ...headers, ...(crossOrigin ? { Origin: origin } : {}) } });
    if (crossOrigin && answer.headers.get("access-control-allow-origin") !== origin) {
      throw new TypeError(`Failed to fetch (no Access-Control-Allow-Origin for ${origin})`);
    }
    return answer;
  };
}

// ------------------------------------------------------------------ installing the globals

let world = null;

/** Install the globals of one client: `link` carries requests to the world; `state` is what it starts with. */
export async function install(link, state) {
  world = link;
  const users = new Collection(state.users.map(u => [u.id, new User({ active: true, ...u })]));
  const lang = JSON.parse(await readFile(new URL(`../../lang/${state.lang ?? "en"}.json`, import.meta.url), "utf-8"));
  globalThis.Hooks = new HooksStandIn();
  globalThis.CONFIG = { statusEffects: state.statusEffects };
  globalThis.ChatMessage = ChatMessage;
  globalThis.Actor = Actor;
  globalThis.foundry = {
    utils: { getProperty, setProperty, expandObject, mergeObject, randomID, deepClone },
    applications: { api: { ApplicationV2, DialogV2 } },
  };
  globalThis.ui = { notifications: { info: notifier("info"), warn: notifier("warn"), error: notifier("error") } };
  globalThis.fetch = browserFetch(state.origin, globalThis.fetch);
  const user = users.get(state.userId);
  globalThis.game = {
    user, userId: user.id, users,
    system: { id: state.system, ...(state.systemHooks ?? {}) },
    modules: new Map([["sawbones", { id: "sawbones", active: true }]]),
    messages: new Collection(state.messages.map(m => [m._id, new ChatMessage(m)])),
    settings: new ClientSettings(state.worldSettings, state.clientSettings),
    time: { worldTime: state.worldTime, advance: delta => world.request({ op: "time", delta }) },
    i18n: {
      lang: state.lang ?? "en",
      localize: key => getProperty(lang, key) ?? key,
      format: (key, data = {}) => String(getProperty(lang, key) ?? key).replace(/\{(\w+)\}/g, (m, k) => data[k] ?? m),
    },
  };
  game.actors = new Collection(state.actors.map(a => [a._id, new Actor(a)]));  // prepared with the system's hooks
  Object.defineProperty(game.users, "activeGM", {
    get: () => game.users.filter(u => u.isGM && u.active).sort((a, b) => a.id.localeCompare(b.id))[0] ?? null });
  return { notices, dialogs, applications, requests, writes };
}

/** A change the world broadcast: the replica changes, then the post-hooks fire (as on every Foundry client). */
export function receive(message) {
  if (message.op === "update" && message.collection === "actors") {
    const actor = game.actors.get(message.id);
    mergeObject(actor._source, message.changed);
    actor._source._stats = { ...(actor._source._stats ?? {}), modifiedTime: message.time };
    actor._initialize();  // the derived data are prepared before any hook sees the update
    game.system.onUpdateActor?.(actor, message.changed, message.options, message.userId);
    Hooks.callAll("updateActor", actor, message.changed, message.options, message.userId);
  } else if (message.op === "update" && message.collection === "messages") {
    const chat = game.messages.get(message.id);
    if (!chat) return;
    mergeObject(chat, message.changed);
    Hooks.callAll("updateChatMessage", chat, message.changed, message.options, message.userId);
  } else if (message.op === "create" && message.collection === "messages") {
    const chat = new ChatMessage(message.data);
    game.messages.set(chat.id, chat);
    Hooks.callAll("createChatMessage", chat, {}, message.userId);
  } else if (message.op === "embedded") {
    const actor = game.actors.get(message.actorId);
    if (message.action === "create") {
      const effect = new ActiveEffect(message.data, actor);
      actor._source.effects = [...(actor._source.effects ?? []), structuredClone(message.data)];
      actor.effects.set(effect.id, effect);
      Hooks.callAll("createActiveEffect", effect, {}, message.userId);
      game.system.onCreateEffect?.(actor, effect, message.userId);
    } else if (message.action === "delete") {
      actor._source.effects = (actor._source.effects ?? []).filter(e => !message.ids.includes(e._id));
      for (const id of message.ids) {
        const effect = actor.effects.get(id);
        actor.effects.delete(id);
        if (effect) Hooks.callAll("deleteActiveEffect", effect, {}, message.userId);
        if (effect) game.system.onDeleteEffect?.(actor, effect, message.userId);
      }
    } else {
      const effect = actor.effects.get(message.id);
      const source = (actor._source.effects ?? []).find(e => e._id === message.id);
      if (source) mergeObject(source, message.changed);
      mergeObject(effect, message.changed);
      Hooks.callAll("updateActiveEffect", effect, message.changed, {}, message.userId);
    }
  } else if (message.op === "time") {
    game.time.worldTime = message.worldTime;
    Hooks.callAll("updateWorldTime", message.worldTime, message.delta, {}, message.userId);
  } else if (message.op === "userActivity") {
    const user = game.users.get(message.userId);
    if (user) user.active = message.active;
  } else if (message.op === "setting") {
    game.settings.world[message.id] = message.value;
    game.settings.settings.get(message.id)?.onChange?.(message.value);
  }
}
