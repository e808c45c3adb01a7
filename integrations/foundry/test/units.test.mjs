// The module's small pieces: world-time deltas as sawbones durations, the events stream's parser, a hit's
// parts scaled to the HP it took, the system's save buttons.

import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./stand-in/foundry.mjs";
import { statusEffects } from "./stand-in/systems.mjs";

await install({ request: async () => ({}), post() {} }, {
  userId: "gm", users: [{ id: "gm", name: "GM", isGM: true }], system: "dnd5e", actors: [], messages: [],
  worldSettings: {}, clientSettings: {}, worldTime: 0, origin: "http://localhost:30000", statusEffects: statusEffects("dnd5e") });
const { duration } = await import("../scripts/main.js");
const { parseEvents } = await import("../scripts/stream.js");
const { scaledParts } = await import("../scripts/hits.js");
const systems = await import("../scripts/systems.js");
await systems.loadMapping();

test("a world-time delta is a sawbones duration; what is below a round waits", () => {
  assert.deepEqual(duration(3600), { text: "1h", carry: 0 });
  assert.deepEqual(duration(90061), { text: "1d1h1min", carry: 1 });
  assert.deepEqual(duration(13), { text: "2r", carry: 1 });
  assert.deepEqual(duration(5), { text: "", carry: 5 });
});

test("the events stream: messages with ids, comments skipped, the unfinished rest kept", () => {
  const { events, rest } = parseEvents(': keep-alive\n\nid: 14\ndata: {"id": 14}\n\nid: 15\ndata: {"id"');
  assert.deepEqual(events, [{ id: "14", data: '{"id": 14}' }]);
  assert.equal(rest, 'id: 15\ndata: {"id"');
});

test("a hit's parts in sawbones' tables, scaled to the HP it took", () => {
  assert.deepEqual(scaledParts([{ type: "fire", value: 10 }, { type: "cold", value: 5 }], 15),
                   [{ type: "fire", amount: 10 }, { type: "cold", amount: 5 }]);
  assert.deepEqual(scaledParts([{ type: "fire", value: 10 }, { type: "cold", value: 5 }], 6),
                   [{ type: "fire", amount: 4 }, { type: "cold", amount: 2 }]);
  assert.deepEqual(scaledParts([{ type: "healing", value: 3 }], 3), [], "not a damage table: untyped");
});

test("the save buttons of dnd5e; a secret one has no DC", () => {
  assert.equal(systems.saveButton("fortitude", 14), "[[/save ability=con dc=14]]");
  assert.equal(systems.saveButton("con", null), "[[/save ability=con]]");
});

test("the sawbones window speaks the user's language: the player's page's words in it", async () => {
  const { viewHtml } = await import("../scripts/window.js");
  const injury = name => ({ id: "i1", name, severity_name: name === "Burns" ? "Minor" : "Mineure", effect: "…",
                            heals_by: [] });
  const side = (name, lang) => ({ name: "Brena", hp: 0, max_hp: 20, conditions: [], wounds: [], afflictions: [],
                                  injuries: [injury(name)], clock: lang === "fr" ? "jour 1" : "day 1" });
  const actor = { getFlag: (scope, key) => (scope === "sawbones" && key === "view"
    ? { en: side("Burns", "en"), fr: side("Brûlures", "fr") } : undefined) };
  game.i18n.lang = "fr";
  assert.match(viewHtml(actor), /Brûlures.*Mineure/s);
  game.i18n.lang = "en";
  assert.match(viewHtml(actor), /Burns.*Minor/s);
  assert.doesNotMatch(viewHtml(actor), /Brûlures/);
});

test("the settings: sawbones.serverUrl and sawbones.campaign for the world, sawbones.apiSecret for this browser only", () => {
  Hooks.callAll("init");
  const scope = key => game.settings.settings.get(`sawbones.${key}`)?.scope;
  assert.equal(scope("serverUrl"), "world");
  assert.equal(scope("campaign"), "world");
  assert.equal(scope("apiSecret"), "client");
  assert.equal(scope("queue"), "client");
  assert.ok(game.settings.menus.get("sawbones.linkActors").restricted, "Link actors: GM only");
});

test("Link actors sends the actors in requests under the server's body limit, without their descriptions", async () => {
  const { batches, slim } = await import("../scripts/main.js");
  const files = Array.from({ length: 45 }, (_, i) => ({ filename: `${i}.json`, content: "x".repeat(100_000) }));
  const sent = batches(files);
  assert.deepEqual(sent.map(b => b.length), [9, 9, 9, 9, 9]);
  assert.equal(batches(files.slice(0, 30).map(f => ({ ...f, content: "{}" }))).map(b => b.length).join(), "20,10");
  const actor = { toObject: () => ({ _id: "a", effects: [{}], prototypeToken: {},
                                     system: { details: { biography: "long", originalClass: "c" } },
                                     items: [{ type: "class", system: { description: { value: "<p>…</p>" }, levels: 3 } }] }) };
  assert.deepEqual(slim(actor), { _id: "a", system: { details: { originalClass: "c" } }, flags: { sawbones: {} },
                                  items: [{ type: "class", system: { levels: 3 } }] });
});
