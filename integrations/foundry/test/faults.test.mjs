// Faults: sawbones unreachable (one notification, the changes queued in the GM's browser, sent when it answers
// again, never twice — even after a reload), a 409 that makes the module read again, and the events stream
// resumed with Last-Event-ID.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { ACTOR, damages, table } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test("unreachable: one notification, the hits queued and sent once when sawbones answers again", async () => {
  const t = await table(server, { system: "dnd5e", sawbonesSystem: "dnd5e", seed: 3, name: "faults", hp: 30 });
  await t.gmClient.run("linkActors");
  const character = (await t.gm.character(`foundry:Actor.${ACTOR}`)).id;
  await t.gmClient.run("stopStream");
  await t.gmClient.run("setSetting", "serverUrl", "http://127.0.0.1:9");  // nothing listens there
  await t.gmClient.run("applyDamage", ACTOR, [{ value: 4, type: "fire" }]);
  await t.gmClient.run("applyDamage", ACTOR, [{ value: 3, type: "cold" }]);
  await t.gmClient.run("idle");
  let state = await t.gmClient.run("state");
  const queued = state.queue;
  assert.equal(queued.length, 2, "both hits wait in the GM's browser");
  assert.equal(state.notices.filter(n => n.type === "warn").length, 1, "one notification for the outage");
  assert.equal(damages(await t.gm.log()).length, 0);

  // the GM reloads Foundry: the queue outlives it; sawbones answers again
  await t.gmClient.close();
  t.world.worldSettings["sawbones.serverUrl"] = server.base;
  const again = await t.world.connect("gm", {});
  await again.run("start");
  state = await again.run("state");
  assert.equal(state.queue.length, 0, "sent");
  const log = damages(await t.gm.log());
  assert.deepEqual(log.map(e => e.data.parts), [[[4, "fire"]], [[3, "cold"]]], "each hit once, in order");
  assert.equal((await t.gm.status(character)).hp, 23);

  // the same changes sent again (an answer lost on the way): the Idempotency-Key keeps them from applying twice
  await again.close();
  t.world.storage.get("gm")["sawbones.queue"] = queued;
  const third = await t.world.connect("gm", {});
  await third.run("start");
  assert.equal((await third.run("state")).queue.length, 0);
  assert.equal(damages(await t.gm.log()).length, 2, "still two damages");
  assert.equal((await t.gm.status(character)).hp, 23);
  await third.close();
  await t.player.close();
});

test("a 409 reads again; the events stream resumes with Last-Event-ID", async () => {
  const t = await table(server, { system: "pf1", sawbonesSystem: "pf1e", seed: 5, name: "conflicts", hp: 20 });
  await t.gmClient.run("linkActors");
  const character = (await t.gm.character(`foundry:Actor.${ACTOR}`)).id;
  await t.gm.call("POST", "/expose", { character, affliction: "filth_fever", save: 1 });
  await t.gmClient.run("advanceTime", 24 * 3600);
  await t.gmClient.run("idle");
  const [pending] = (await t.gm.call("GET", "/pending")).pending;
  assert.ok(pending);

  // the stream is down while the GM answers on the dashboard
  await t.gmClient.run("stopStream");
  const answered = await t.gm.call("POST", "/answer", { pending: pending.id, total: 3 });
  // the player rolls anyway: sawbones says 409 (no longer pending); the module reads again, no error shown
  await t.player.run("rollSave", ACTOR, "fort", 17);
  await t.gmClient.run("idle");
  let state = await t.gmClient.run("state");
  assert.equal(state.notices.filter(n => n.type === "error").length, 0, "a 409 is not an error for the GM");
  let card = state.messages.find(m => m.flags?.sawbones?.pending === pending.id);
  assert.equal(card.flags.sawbones.closed, true, "re-read: the card is closed");
  assert.equal((await t.gm.log()).filter(e => e.type === "affliction_saved").length, 1, "the dashboard's answer only");

  // the stream comes back from where it stopped: the undo made meanwhile is not missed
  const undone = await t.gm.call("POST", "/undo");
  assert.ok(undone.version > answered.version);
  await t.gmClient.run("startStream");
  await t.gmClient.run("caughtUp", undone.version);
  state = await t.gmClient.run("state");
  assert.equal((await t.gm.call("GET", "/pending")).pending.length, 1, "the undo brought the save back");
  card = state.messages.filter(m => m.flags?.sawbones?.pending === pending.id);
  assert.equal(card.length, 1);
  assert.equal(card[0].flags.sawbones.closed, false, "its card is open again");
  await t.close();
});

test("the very first events stream keeps where it starts: an action made while it is lost is still told", async () => {
  // A GM's browser with the module for the first time (no Last-Event-ID kept): its stream starts "now". It is lost
  // (a network blip) before any action came; the GM acts on the dashboard meanwhile; the stream comes back.
  const t = await table(server, { system: "dnd5e", sawbonesSystem: "dnd5e", seed: 6, name: "first stream", hp: 30 });
  const opened = await t.gm.version();
  assert.equal(Number((await t.gmClient.run("getSetting", "lastEventId")) || -1), opened,
               "the stream's first message is where it starts: kept before any action came");
  await t.gmClient.run("stopStream");
  const { version } = await t.gm.call("POST", "/characters", { name: "Ilse", max_hp: 12 });  // an action
  assert.ok(version > opened);
  await t.gmClient.run("startStream");
  await t.gmClient.run("caughtUp", version);  // before: the stream came back at "now", past the action: never told
  await t.close();
});

test("a Foundry whose origin the server does not allow (no --cors-origin for it) cannot call it", async () => {
  const t = await table(server, { system: "dnd5e", sawbonesSystem: "dnd5e", seed: 2, name: "elsewhere",
                                  origin: "https://foundry.elsewhere.example" });
  const state = await t.gmClient.run("state");
  assert.ok(state.requests > 0, "the GM's client tried");
  assert.equal(state.notices.filter(n => n.type === "warn").length, 1, "the browser refused: sawbones unreachable");
  assert.deepEqual((await t.gm.call("GET", "/characters")).characters, []);
  await t.close();
});

test("the GM fills the settings in a running world: the module starts talking to sawbones then", async () => {
  const { Gm } = await import("./server.mjs");
  const { World } = await import("./stand-in/world.mjs");
  const { SYSTEMS } = await import("./stand-in/systems.mjs");
  const { USERS } = await import("./story.mjs");
  const gm = await Gm.create(server.base, "late settings", "pf1e", 8);
  const world = new World({ system: "pf1", users: USERS, actors: [SYSTEMS.pf1.actor(ACTOR, "Brena", 20, "pl")] });
  const client = await world.connect("gm", {});
  await client.run("start");
  assert.equal((await client.run("state")).requests, 0, "not configured: nothing sent");
  await client.run("setSetting", "serverUrl", server.base);
  await client.run("setSetting", "campaign", "late settings");
  await client.run("setSetting", "apiSecret", gm.secret);
  await client.run("idle");
  await client.run("linkActors");
  await client.run("applyDamage", ACTOR, [{ value: 5, type: "slashing" }]);
  await client.run("idle");
  assert.equal(damages(await gm.log()).length, 1);
  await client.close();
});
