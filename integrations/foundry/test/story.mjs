// One table's story, played through the hooks of a system (dnd5e or pf1) against a real sawbones server:
// a hit to 0 gives the injury in sawbones and its conditions on the actor; an undo takes them back; an hour
// of world time runs a disease's save; the player's roll in Foundry answers it; a secret affliction's card
// shows no name and no DC. A GM client and a player client; the player's sends nothing.

import assert from "node:assert/strict";

import { Gm } from "./server.mjs";
import { SYSTEMS } from "./stand-in/systems.mjs";
import { World } from "./stand-in/world.mjs";

export const USERS = [{ id: "gm", name: "Gamemaster", isGM: true }, { id: "pl", name: "Player", isGM: false }];
export const ACTOR = "Xb3kQ9fLmN2pR7sT";

/** A world of `system` with one player character, a sawbones campaign, and the GM's and the player's clients. */
export async function table(server, { system, sawbonesSystem, seed, name, hp = 20, lang = "en", origin, systemVersion,
                                     actors, start = true }) {
  const gm = await Gm.create(server.base, name, sawbonesSystem, seed);
  await gm.option("who_rolls", "players");
  const world = new World({ system, systemVersion, users: USERS,
                            actors: actors ?? [SYSTEMS[system].actor(ACTOR, "Brena", hp, "pl")],
                            worldSettings: { "sawbones.serverUrl": server.base, "sawbones.campaign": name },
                            ...(origin ? { origin } : {}) });
  const gmClient = await world.connect("gm", { lang, clientSettings: { "sawbones.apiSecret": gm.secret } });
  const player = await world.connect("pl", { lang });
  if (start) {
    await gmClient.run("start");
    await player.run("start");
  }
  return { gm, world, gmClient, player, async close() { await gmClient.close(); await player.close(); } };
}

export function damages(log) {
  return log.filter(e => e.type === "damage_taken" && !e.undone);
}

export async function story(server, { system, sawbonesSystem, type, amount, save, button, secretButton }) {
  // 1. a hit to 0: the seeds are tried in order until the injury rolled imposes a condition
  let t = null;
  let character = null;
  let conditions = [];
  for (let seed = 1; seed <= 40; seed++) {
    t = await table(server, { system, sawbonesSystem, seed, name: `${system} story ${seed}` });
    await t.gmClient.run("linkActors");
    character = await t.gm.character(`foundry:Actor.${ACTOR}`);
    assert.ok(character, "Link actors imports the player character with its external reference");
    assert.equal(character.hp, 20);
    await t.gmClient.run("applyDamage", ACTOR, [{ value: amount, type }]);
    await t.gmClient.run("idle");
    const hits = damages(await t.gm.log());
    assert.equal(hits.length, 1, "one application of damage is one sawbones damage");
    assert.deepEqual(hits[0].data.parts, [[20, "fire"]]);
    const after = await t.gm.status(character.id);
    assert.equal(after.hp, 0);
    assert.equal(after.injuries.length, 1, "the drop to 0 gives a lingering injury");
    conditions = after.conditions.map(c => c.id);
    if (process.env.STORY_DEBUG) console.log("seed", seed, conditions, after.injuries[0].name);
    if (conditions.length) break;
    await t.close();
    t = null;
  }
  assert.ok(t, "some seed's injury imposes a condition");
  const mapping = (await import("../data/mapping.json", { with: { type: "json" } })).default[system].conditions;
  const expected = conditions.map(c => mapping[c]).sort();
  for (const client of [t.gmClient, t.player]) {
    const [actor] = (await client.run("state")).actors;
    assert.equal(actor.hp, 0);
    assert.deepEqual([...actor.sawbones].sort(), expected, "sawbones' conditions are the actor's status effects");
    assert.deepEqual(actor.statuses.filter(s => expected.includes(s)).sort(), expected);
  }
  const view = (await t.player.run("state")).actors[0].view;
  assert.equal(view.en.injuries.length, 1, "the injury is kept on the actor for its window");
  assert.ok(view.fr.injuries[0].name, "in French too");
  const html = await t.player.run("openWindow", ACTOR);
  assert.ok(html.includes(view.en.injuries[0].name), "the window shows the player's page's words");

  // 2. an undo takes the effects back (the dashboard's undo; the events stream brings it)
  const undone = await t.gm.call("POST", "/undo");
  await t.gmClient.run("caughtUp", undone.version);
  await t.player.run("idle");
  for (const client of [t.gmClient, t.player]) {
    const [actor] = (await client.run("state")).actors;
    assert.deepEqual(actor.sawbones, [], "the undo removes sawbones' status effects");
    assert.equal(actor.hp, 20, "and Foundry's HP follow sawbones' back");
  }
  assert.equal((await t.gm.status(character.id)).hp, 20);

  // 3. a disease: an hour of world time runs its save; the card goes to the actor's owner
  await t.gm.call("POST", "/expose", { character: character.id, affliction: "filth_fever", save: 1 });
  await t.gmClient.run("advanceTime", 23 * 3600);
  await t.gmClient.run("idle");
  let campaign = await t.gm.call("GET", "");
  assert.equal(campaign.clock, 23 * 3600, "the campaign's clock moves with the world's");
  assert.deepEqual((await t.gm.call("GET", "/pending")).pending, []);
  await t.gmClient.run("advanceTime", 3600);
  await t.gmClient.run("idle");
  const [pending] = (await t.gm.call("GET", "/pending")).pending;
  assert.ok(pending, "the disease's save falls due after one more hour");
  const cards = (await t.player.run("state")).messages.filter(m => m.flags?.sawbones?.pending === pending.id);
  assert.equal(cards.length, 1, "the player gets one card");
  assert.ok(cards[0].whisper.includes("pl"), "whispered to the actor's owner");
  assert.ok(cards[0].content.includes(button), `the card has the system's save button ${button}`);
  assert.ok(cards[0].content.includes("Filth Fever"));

  // the world's time moves on while the save waits: sawbones holds it back until the die is in
  await t.gmClient.run("advanceTime", 3600);
  await t.gmClient.run("idle");
  assert.equal((await t.gm.call("GET", "")).clock, 24 * 3600, "sawbones does not advance past a waiting save");

  // 4. the player rolls in Foundry; the GM's client sends the total as the answer
  await t.player.run("rollSave", ACTOR, save, 19);
  await t.gmClient.run("idle");
  assert.equal((await t.gm.call("GET", "")).clock, 25 * 3600, "then the hour held back is told");
  const saved = (await t.gm.log()).filter(e => e.type === "affliction_saved" && !e.undone);
  assert.equal(saved.length, 1, "the roll answered the prompt");
  assert.equal(saved[0].data.total, 19);
  assert.deepEqual((await t.gm.call("GET", "/pending")).pending, []);
  const version = await t.gm.version();
  await t.gmClient.run("caughtUp", version);
  const closed = (await t.gmClient.run("state")).messages.find(m => m.flags?.sawbones?.pending === pending.id);
  assert.equal(closed.flags.sawbones.closed, true, "the card says it is answered");

  // 5. a secret affliction: the card names nothing and shows no DC
  await t.gm.option("afflictions_known", false);
  await t.gm.call("POST", "/expose", { character: character.id, affliction: "mindfire", save: 1 });
  await t.gmClient.run("advanceTime", 24 * 3600);
  await t.gmClient.run("idle");
  // Filth Fever's next save comes first (day 3, 00:00): the player rolls it, then the hour held back runs
  const [again] = (await t.gm.call("GET", "/pending")).pending;
  assert.equal(again.affliction, pending.affliction);
  await t.player.run("rollSave", ACTOR, save, 20);
  await t.gmClient.run("idle");
  const secret = (await t.gm.call("GET", "/pending")).pending.find(p => p.affliction !== pending.affliction);
  assert.ok(secret, "the secret disease's save falls due");
  const card = (await t.player.run("state")).messages.find(m => m.flags?.sawbones?.pending === secret.id);
  assert.ok(card, "its card reaches the player");
  assert.ok(!card.content.includes("Mindfire"), "no name");
  assert.ok(!/dc=|DC/.test(card.content), "no DC");
  assert.ok(card.content.includes(secretButton), "the save button without a DC");

  // the player's client never called sawbones
  assert.equal((await t.player.run("state")).requests, 0);
  campaign = await t.gm.call("GET", "");
  assert.equal(campaign.clock, 49 * 3600, "sawbones' clock is the world's");
  await t.close();
}
