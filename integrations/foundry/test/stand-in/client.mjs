// One Foundry client (a browser) in a worker thread: the stand-in's globals, the sawbones module loaded as
// Foundry loads it (init, then ready), and the commands a test gives this user (apply damage, roll a save, ...).

import { parentPort, workerData } from "node:worker_threads";

if (!parentPort) process.exit(0);  // only ever run as a worker of world.mjs (node --test on the folder loads it too)

import { install, receive } from "./foundry.mjs";
import { systemOf } from "./systems.mjs";

let next = 0;
const waiting = new Map();

const link = {
  request(message) {
    const id = ++next;
    parentPort.postMessage({ ...message, requestId: id });
    return new Promise(resolve => waiting.set(id, resolve));
  },
  post(message) {
    parentPort.postMessage(message);
  },
};

const system = systemOf(workerData.system, workerData.systemVersion);
const seen = await install(link, { ...workerData, statusEffects: system.statusEffects, systemHooks: system.hooks });
// The GM's answers to dialogs, in order; {hold: true} leaves the dialog open until `answerDialog`.
let held = null;
globalThis.dialogAnswer = () => {
  const next = globalThis.nextDialog.shift() ?? null;
  if (!next?.hold) return next;
  return new Promise(resolve => { held = resolve; });
};
globalThis.nextDialog = [];
await import("../../scripts/main.js");
const api = () => game.modules.get("sawbones").api;

/** Wait (at most 5 s) until the GM's events stream is open, as a GM's browser is before the table plays: an action
 * sent before the first stream of a client with no Last-Event-ID is not told to it (the stream starts "now"). */
async function streamOpen() {
  for (let i = 0; i < 200 && api().stream && !api().stream.open; i++) {
    await new Promise(resolve => setTimeout(resolve, 25));
  }
}

const commands = {
  async start() {
    Hooks.callAll("init");
    Hooks.callAll("setup");
    Hooks.callAll("ready");
    await api().starting;
    await streamOpen();
    await api().idle();
  },
  async idle() {
    await api().idle();
  },
  /** Wait until the GM's client has read the events stream up to `version`, and acted on it. */
  async caughtUp(version) {
    for (let i = 0; i < 400; i++) {
      await api().idle();
      if (Number(game.settings.get("sawbones", "lastEventId") || 0) >= version) {
        await api().idle();
        return true;
      }
      await new Promise(resolve => setTimeout(resolve, 25));
    }
    throw new Error(`the events stream did not reach version ${version}`);
  },
  linkActors: () => api().linkActors(),
  async applyDamage(actorId, parts) {
    const actor = game.actors.get(actorId);
    if (workerData.system === "pf1") await system.applyDamage(actor, parts);
    else await system.applyDamage(actor, parts.map(p => ({ value: p.value, type: p.type })), {});
  },
  heal: (actorId, amount) => system.heal(game.actors.get(actorId), amount),
  tokenBar: (actorId, value, isDelta) => system.tokenBar(game.actors.get(actorId), value, isDelta),
  editHp: (actorId, value) => game.actors.get(actorId).update({ "system.attributes.hp.value": value }),
  rollSave: (actorId, save, total) => ChatMessage.create(system.saveMessage(game.actors.get(actorId), save, total)),
  advanceTime: seconds => game.time.advance(seconds),
  toggleStatus: (actorId, id, active) => game.actors.get(actorId).toggleStatusEffect(id, { active }).then(() => null),
  dialog(answers) {
    globalThis.nextDialog.push(...answers);
  },
  /** The module's own step that turns sawbones' conditions into the actor's status effects. */
  async syncConditions(actorId, conditions) {
    const { syncConditions } = await import("../../scripts/actors.js");
    await api().serial(() => syncConditions(game.actors.get(actorId), conditions));
  },
  /** Another module's listener that vetoes the next `name` hook (returns false), once. */
  veto(name) {
    Hooks.once(name, () => false);
  },
  answerDialog(answer) {
    held?.(answer);
    held = null;
  },
  /** The player clicks the save button of a chat card (pf1: @Save[…]); each actor it rolls for gets its save. */
  async clickSave(messageId, total) {
    for (const { actor, save } of system.clickSave(game.messages.get(messageId))) {
      await ChatMessage.create(system.saveMessage(actor, save, total));
    }
  },
  /** Configure Settings → sawbones → Link actors (the settings menu's application). */
  linkMenu: () => new (game.settings.menus.get("sawbones.linkActors").type)().render().then(() => null),
  /** The header controls a sheet of this actor gets (getHeaderControlsActorSheetV2). */
  headerControls(actorId) {
    const controls = [];
    Hooks.callAll("getHeaderControlsActorSheetV2", { document: game.actors.get(actorId) }, controls);
    return controls.map(c => c.action);
  },
  async toggleStatusReturn(actorId, id, active) {
    const result = await game.actors.get(actorId).toggleStatusEffect(id, { active });
    return typeof result?.setFlag === "function" ? "effect" : result;
  },
  setSetting: (key, value) => game.settings.set("sawbones", key, value),
  getSetting: key => game.settings.get("sawbones", key),
  stopStream: () => api().stream?.stop(),
  async startStream() {
    api().stream.running = false;
    api().stream.start();
    await streamOpen();
  },
  flush: () => api().client.flush(),
  async openWindow(actorId) {
    const app = api().openWindow(game.actors.get(actorId));
    await new Promise(resolve => setTimeout(resolve, 10));
    return app.element?.innerHTML ?? "";
  },
  stop() {
    api().stop();
  },
  state() {
    return {
      actors: game.actors.map(a => ({ id: a.id, name: a.name, hp: a.system.attributes.hp.value,
                                      max: a.system.attributes.hp.max, source: a._source.system.attributes.hp,
                                      exhaustion: a.system.attributes.exhaustion ?? null,
                                      flags: a._source.flags ?? {},
                                      statuses: [...a.statuses],
                                      sawbones: a.effects.filter(e => e.getFlag("sawbones", "condition")).map(e => [...e.statuses][0]),
                                      view: a.getFlag("sawbones", "view") ?? null })),
      messages: game.messages.map(m => ({ id: m.id, content: m.content, whisper: m.whisper, flags: m.flags,
                                         rolls: m.rolls ?? [] })),
      notices: seen.notices, dialogs: seen.dialogs.length, requests: seen.requests.length,
      queue: game.settings.get("sawbones", "queue"), hooks: Hooks.fired, writes: seen.writes,
    };
  },
};

parentPort.on("message", async message => {
  if (message.op === "ack") {
    waiting.get(message.requestId)?.(message);
    waiting.delete(message.requestId);
    return;
  }
  if (message.op === "command") {
    try {
      const value = await commands[message.name](...(message.args ?? []));
      parentPort.postMessage({ op: "result", id: message.id, value: value === undefined ? null : JSON.parse(JSON.stringify(value ?? null)) });
    } catch (error) {
      parentPort.postMessage({ op: "result", id: message.id, error: String(error?.stack ?? error) });
    }
    return;
  }
  receive(message);
});
parentPort.postMessage({ op: "loaded" });
