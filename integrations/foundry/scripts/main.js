// sawbones for Foundry VTT (v13; dnd5e 5.x, pf1 11.8+). Only the active GM's browser talks to sawbones
// (game.users.activeGM): four open browsers never tell a hit four times. See docs/foundry.md.

import { followHp, keepView, syncConditions } from "./actors.js";
import { Client, SawbonesError } from "./client.js";
import { Hits, registerHitHooks } from "./hits.js";
import { cardFor, syncPrompts } from "./prompts.js";
import { MODULE, escape, isActiveGM, language, registerSettings, setSetting, setting, t } from "./settings.js";
import { EventStream } from "./stream.js";
import { hpOf, isSupported, loadMapping } from "./systems.js";
import { windowClass } from "./window.js";

const EXTERNAL = "foundry:Actor.";
const LINKED_TYPES = ["character"];  // the actor types "Link actors" sends to sawbones
const ROUND = 6;

/** A world-time delta in seconds as a sawbones duration ("1d2h3min4r") and the seconds left over. */
export function duration(seconds) {
  let rest = Math.max(0, Math.floor(seconds));
  const parts = [];
  for (const [unit, size] of [["d", 86400], ["h", 3600], ["min", 60], ["r", ROUND]]) {
    const count = Math.floor(rest / size);
    if (count) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return { text: parts.join(""), carry: rest };
}

/** An actor's export without what the sheet importer never reads (descriptions, biography, effects, token):
 * a request stays under the server's body limit (serve --max-body, 1 MB by default). Its HP as the system
 * derived them go with it (flags.sawbones.live.hp): the export holds only their source (pf1: an offset; dnd5e
 * 5.x: a null max), and the importer takes these rather than deriving them again. */
export function slim(actor) {
  const data = actor.toObject();
  delete data.effects;
  delete data.prototypeToken;
  const hp = hpOf(actor);
  data.flags = { ...(data.flags ?? {}), [MODULE]: hp ? { live: { hp } } : {} };
  if (data.system?.details) delete data.system.details.biography;
  for (const item of data.items ?? []) {
    delete item.effects;
    if (item.system) delete item.system.description;
  }
  return data;
}

/** Files in requests of at most 20 files and about 900 kB. */
export function batches(files, limit = 900_000) {
  const out = [];
  let current = [];
  let size = 0;
  for (const file of files) {
    if (current.length && (current.length === 20 || size + file.content.length > limit)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += file.content.length;
  }
  if (current.length) out.push(current);
  return out;
}

export class SawbonesModule {
  constructor() {
    this.client = new Client();
    this.client.onConflict = (change) => this.reread(change);
    this.hits = new Hits(this);
    this.links = new Map();    // actor id → sawbones character id
    this.tokens = new Map();   // character id → player token (the player view, the player's answers)
    this.chain = Promise.resolve();
    this.stream = null;
    this.windows = new Map();
  }

  /** Run `task` after every task before it (hooks, stream messages): one change at a time, in order. */
  serial(task) {
    const next = this.chain.then(task).catch(error => console.error("sawbones |", error));
    this.chain = next;
    return next;
  }

  /** Resolves once every task queued so far, and those they queued, are done. */
  async idle() {
    let seen;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  characterOf(actor) {
    return this.links.get(actor?.id) ?? null;
  }

  actorOf(character) {
    for (const [actorId, id] of this.links) if (id === character) return game.actors.get(actorId);
    return null;
  }

  async ready() {
    if (!isSupported()) return;
    await loadMapping();
    if (!isActiveGM()) return;
    if (!this.client.configured()) {
      ui.notifications?.info(t("Setup.Missing"));
      return;
    }
    await this.serial(async () => {
      await this.loadLinks();
      await this.hits.tellOffline();  // what changed while no GM's client ran, before sawbones' HP come back
      await this.client.flush();
      await this.sync([...this.links.values()]);
    });
    this.stream = new EventStream(this.client, doc => this.serial(() => this.onEvent(doc)));
    this.stream.start();
  }

  stop() {
    this.stream?.stop();
    this.client.stop();
  }

  /** A setting changed: talk to the (new) server or campaign from now on; another campaign's events are not
   * resumed. */
  async restart(key) {
    if (!isActiveGM()) return;
    this.stream?.stop();
    this.stream = null;
    this.tokens.clear();
    if (key === "campaign" || key === "serverUrl") await setSetting("lastEventId", "");
    this.starting = this.ready();
    await this.starting;
  }

  async loadLinks() {
    try {
      const doc = await this.client.get(this.client.campaignPath("/characters"));
      this.links.clear();
      for (const c of doc.characters) {
        for (const ref of c.external ?? []) {
          if (ref.startsWith(EXTERNAL)) this.links.set(ref.slice(EXTERNAL.length), c.id);
        }
      }
    } catch (error) {
      if (!(error instanceof SawbonesError)) this.client.unreachable(error);
      else ui.notifications?.error(t("Faults.Refused", { message: error.message }));
    }
  }

  /** "Link actors": the world's player characters imported or updated with sawbones' sheet importer. */
  async linkActors() {
    if (!isActiveGM()) {
      ui.notifications?.warn(t("Link.OnlyGM"));
      return null;
    }
    const actors = (game.actors?.contents ?? [...game.actors]).filter(a => LINKED_TYPES.includes(a.type));
    const lines = [];
    for (const files of batches(actors.map(a => ({ filename: `${a.id}.json`, content: JSON.stringify(slim(a)) })))) {
      const answer = await this.client.request("POST", this.client.campaignPath("/characters/import"), { files });
      lines.push(...answer.lines);
    }
    await this.loadLinks();
    await this.sync([...this.links.values()]);
    ui.notifications?.info(t("Link.Done", { count: actors.length }));
    return lines;
  }

  /** A change for sawbones (queued when it is unreachable); its answer brings the characters back. */
  async change({ method, path, body, key, actor, time }) {
    const answer = await this.client.send({ method, path, body, key, actor: actor ?? null, time: time ?? 0 });
    if (answer) {
      const touched = (answer.characters ?? []).map(c => c.id);
      if (answer.id && !touched.length) touched.push(answer.id);
      await this.sync(touched);
    }
    return answer;
  }

  /** A 409: what the module showed is old; read it again. */
  async reread(change) {
    if (change.time) {  // a save waits for a die: the time is told once it is answered
      await setSetting("timeCarry", Number(setting("timeCarry") || 0) + change.time);
      ui.notifications?.info(t("Time.Waiting"));
    }
    await this.loadLinks();
    await this.sync(change.actor ? [this.links.get(change.actor)].filter(Boolean) : [...this.links.values()]);
  }

  async onEvent(doc) {
    await this.sync(doc.characters ?? []);
    if (doc.type !== "clock_advanced" && Number(setting("timeCarry") || 0) >= ROUND) await this.tellTime();
  }

  async token(character) {
    if (!this.tokens.has(character)) {
      const link = await this.client.get(this.client.campaignPath(`/characters/${encodeURIComponent(character)}/player-link`));
      this.tokens.set(character, link.token);
    }
    return this.tokens.get(character);
  }

  /** Bring sawbones' word on these characters back to their actors. */
  async sync(characters) {
    for (const character of new Set(characters)) {
      const actor = this.actorOf(character);
      if (!actor) continue;
      let status, views, prompts;
      try {
        status = await this.client.get(this.client.campaignPath(`/status?character=${encodeURIComponent(character)}`));
        const token = await this.token(character);
        const path = `/api/player/${encodeURIComponent(token)}`;
        views = { en: await this.client.get(`${path}?lang=en`), fr: await this.client.get(`${path}?lang=fr`) };
        prompts = views[language()].prompts;
      } catch (error) {
        if (!(error instanceof SawbonesError)) this.client.unreachable(error);
        continue;
      }
      const me = status.characters[0];
      if (!this.client.pending() && !this.hits.untold.has(actor.id)) await followHp(actor, me.hp);
      await syncConditions(actor, me.conditions ?? []);
      await keepView(actor, views);
      await syncPrompts(actor, prompts);
      this.windows.get(actor.id)?.render?.();
    }
  }

  /** createChatMessage: a saving throw rolled for a prompt card goes back to sawbones as the player's answer. */
  async onChatMessage(message) {
    if (!isActiveGM() || message.getFlag?.(MODULE, "pending")) return;
    const found = cardFor(message);
    if (!found) return;
    const { card, roll } = found;
    const actor = game.actors.get(roll.actorId);
    const character = this.characterOf(actor);
    if (!character) return;
    await card.update({ [`flags.${MODULE}.answered`]: true });
    const token = await this.token(character);
    await this.change({ method: "POST", path: `/api/player/${encodeURIComponent(token)}/answer`,
                        body: { pending: card.getFlag(MODULE, "pending"), total: Math.round(roll.total) },
                        key: `foundry:ChatMessage.${message.id}:answer`, actor: actor.id });
    await this.sync([character]);
    if (Number(setting("timeCarry") || 0) >= ROUND) await this.tellTime();
  }

  /** updateWorldTime: the campaign's clock moves on by the same time. What is below a round, and what a save
   * waiting for a player's die holds back (sawbones refuses to advance past it), waits in sawbones.timeCarry and
   * is told with the next change of the world's time or after the next action. */
  async onWorldTime(worldTime, delta) {
    if (!isActiveGM() || !this.client.configured()) return;
    if (delta < 0) {
      ui.notifications?.warn(t("Time.Backwards"));
      return;
    }
    await setSetting("timeCarry", Number(setting("timeCarry") || 0) + delta);
    await this.tellTime(worldTime);
  }

  async tellTime(worldTime = game.time.worldTime) {
    const untold = Number(setting("timeCarry") || 0);
    const { text, carry } = duration(untold);
    if (!text) return;
    await setSetting("timeCarry", carry);
    await this.change({ method: "POST", path: this.client.campaignPath("/advance"), body: { duration: text },
                        key: `foundry:World.time:${worldTime - untold}->${worldTime - carry}`, time: untold - carry });
  }

  openWindow(actor) {
    const Window = windowClass();
    const app = this.windows.get(actor.id) ?? new Window(actor);
    this.windows.set(actor.id, app);
    app.render({ force: true });
    return app;
  }
}

export const sawbones = new SawbonesModule();

function linkMenu() {
  const Base = foundry.applications?.api?.ApplicationV2;
  if (!Base) return null;
  return class LinkActorsMenu extends Base {
    async render() {
      try {
        const lines = await sawbones.linkActors();
        if (lines?.length) ChatMessage.create({ content: lines.map(l => `<p>${escape(l)}</p>`).join(""),
                                               whisper: ChatMessage.getWhisperRecipients("GM").map(u => u.id) });
      } catch (error) {
        ui.notifications?.error(t("Faults.Refused", { message: error.message }));
      }
      return this;
    }
  };
}

Hooks.once("init", () => {
  registerSettings(linkMenu(), key => sawbones.restart(key));
  const module = game.modules?.get(MODULE);
  if (module) module.api = sawbones;
  registerHitHooks(sawbones);
  Hooks.on("updateWorldTime", (worldTime, delta) => sawbones.serial(() => sawbones.onWorldTime(worldTime, delta)));
  Hooks.on("createChatMessage", message => sawbones.serial(() => sawbones.onChatMessage(message)));
  // only on the sheets of the actors "Link actors" sends (characters): an NPC's, a vehicle's get nothing
  Hooks.on("getHeaderControlsActorSheetV2", (app, controls) => {
    if (LINKED_TYPES.includes(app.document?.type)) controls.push({
      icon: "fas fa-skull-crossbones", label: "SAWBONES.Window.Open", action: "sawbones",
      onClick: () => sawbones.openWindow(app.document) });
  });
  Hooks.on("getActorSheetHeaderButtons", (app, buttons) => {
    if (LINKED_TYPES.includes(app.actor?.type)) buttons.unshift({
      label: "SAWBONES.Window.Open", class: "sawbones", icon: "fas fa-skull-crossbones",
      onclick: () => sawbones.openWindow(app.actor) });
  });
});

Hooks.once("ready", () => {
  sawbones.starting = sawbones.ready();
});
