// What the systems really do, against the stand-ins that follow their sources (stand-in/systems.mjs cites them):
// pf1 keeps HP as an offset and derives the rest; pf1 11.x's save messages carry their subject in `system`; the HP
// an actor has when it is linked are the derived ones; a change made while no GM's client ran is told when one
// starts, once; and the smaller things: lines escaped, no-op writes, a vetoed application, the header control,
// a dialog that holds nothing up, pf1's toggleStatusEffect, dnd5e's exhaustion before 5.2.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { SYSTEMS, systemOf } from "./stand-in/systems.mjs";
import { ACTOR, damages, table } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

const PF1 = { system: "pf1", sawbonesSystem: "pf1e" };
const LIMIT = { timeout: 60_000 };  // a module that waits forever fails instead of holding the run up
const DND5E = { system: "dnd5e", sawbonesSystem: "dnd5e" };

async function linked(t) {
  await t.gmClient.run("linkActors");
  return (await t.gm.character(`foundry:Actor.${ACTOR}`)).id;
}

test("pf1: the HP live in hp.offset; a hit and a sheet edit are told, and sawbones' HP are the derived ones",
     LIMIT, async () => {
  // 5 damage taken before linking: the source holds offset −5 and neither value nor max
  const actor = SYSTEMS.pf1.actor(ACTOR, "Sorn", 30, "pl", { offset: -5 });
  const t = await table(server, { ...PF1, seed: 4, name: "pf1 offset", actors: [actor] });
  const character = await linked(t);
  let [seen] = (await t.gmClient.run("state")).actors;
  assert.deepEqual([seen.hp, seen.max], [25, 30], "derived: max from class, favoured class, Con, Toughness");
  const linkedAs = await t.gm.status(character);
  assert.deepEqual([linkedAs.hp, linkedAs.max_hp], [25, 30], "Link actors imports the live derived HP");

  await t.player.run("applyDamage", ACTOR, [{ value: 6, type: "fire" }]);
  await t.gmClient.run("idle");
  [seen] = (await t.gmClient.run("state")).actors;
  assert.equal(seen.source.offset, -11, "pf1's _preUpdate turned the value into an offset");
  assert.equal(seen.source.value, undefined, "and kept no value");
  assert.deepEqual(damages(await t.gm.log()).map(e => e.data.parts), [[[6, "fire"]]], "the hit is told");
  await t.gmClient.run("editHp", ACTOR, 22);
  await t.gmClient.run("idle");
  assert.equal((await t.gm.status(character)).hp, 22, "the sheet's edit (a heal) too");
  await t.gmClient.run("editHp", ACTOR, 20);
  await t.gmClient.run("idle");
  assert.deepEqual(damages(await t.gm.log()).map(e => e.data.parts), [[[6, "fire"]], [[2, "bludgeoning"]]]);
  await t.close();
});

test("pf1 11.x: the player clicks the card's save (as=speaker) and the roll, its subject in message.system, answers it",
     LIMIT,
     async () => {
  const t = await table(server, { ...PF1, seed: 6, name: "pf1 save" });
  const character = await linked(t);
  await t.gm.call("POST", "/expose", { character, affliction: "filth_fever", save: 1 });
  await t.gmClient.run("advanceTime", 24 * 3600);
  await t.gmClient.run("idle");
  const [pending] = (await t.gm.call("GET", "/pending")).pending;
  const card = (await t.player.run("state")).messages.find(m => m.flags?.sawbones?.pending === pending.id);
  assert.match(card.content, /@Save\[fort;dc=\d+;as=speaker\]/, "the button rolls for the card's actor");
  // the player has no assigned character and no token selected: only as=speaker finds the actor
  await t.player.run("clickSave", card.id, 18);
  await t.gmClient.run("idle");
  const saved = (await t.gm.log()).filter(e => e.type === "affliction_saved" && !e.undone);
  assert.equal(saved.length, 1, "the save answered the prompt");
  assert.equal(saved[0].data.total, 18);
  await t.close();
});

test("offline: a hit made while no GM's client runs is told when it starts, before sawbones' HP come back, once",
     LIMIT,
     async () => {
  const t = await table(server, { ...DND5E, seed: 9, name: "offline", hp: 30, start: false });
  await t.gmClient.run("start");
  await t.player.run("start");
  const character = await linked(t);
  await t.gmClient.close();  // the GM leaves (or reloads)
  await t.player.run("applyDamage", ACTOR, [{ value: 7, type: "cold" }]);
  await t.player.run("editHp", ACTOR, 20);
  await t.player.run("idle");
  assert.equal((await t.gm.status(character)).hp, 30, "nobody told sawbones yet");

  for (const round of [1, 2]) {  // the GM's client starts; then it reloads: nothing is told twice
    const gmClient = await t.world.connect("gm", {});
    await gmClient.run("start");
    await gmClient.run("idle");
    await t.player.run("idle");
    assert.deepEqual(damages(await t.gm.log()).map(e => e.data.parts), [[[7, "cold"]], [[3, "bludgeoning"]]],
                     `round ${round}: each change told once, in order, with its type`);
    assert.equal((await t.gm.status(character)).hp, 20);
    assert.equal((await t.player.run("state")).actors[0].hp, 20, "Foundry's HP were not put back to sawbones' old");
    await gmClient.close();
  }
  await t.player.close();
});

test("Link actors' lines go to chat escaped; a no-op HP write writes nothing", LIMIT, async () => {
  const name = "<img src=x onerror=alert(1)>";
  const t = await table(server, { ...DND5E, seed: 2, name: "escaped",
                                  actors: [SYSTEMS.dnd5e.actor(ACTOR, name, 20, "pl")] });
  await t.gmClient.run("linkMenu");
  await t.gmClient.run("idle");
  const posted = (await t.gmClient.run("state")).messages.find(m => !m.flags?.sawbones);
  assert.ok(posted, "the lines are posted");
  assert.ok(!posted.content.includes("<img"), "no markup from the server's lines");
  assert.ok(posted.content.includes("&lt;img"), "the name, as text");

  const before = (await t.player.run("state")).writes.length;
  await t.player.run("editHp", ACTOR, 20);
  const { writes } = await t.player.run("state");
  assert.equal(writes.length, before + 1);
  assert.equal(writes.at(-1).empty, true, "the same HP again: Foundry writes nothing");
  await t.close();
});

test("dnd5e: a vetoed application leaves no types behind for the next HP change", LIMIT, async () => {
  const t = await table(server, { ...DND5E, seed: 12, name: "vetoed", hp: 30 });
  await linked(t);
  await t.player.run("veto", "dnd5e.preApplyDamage");  // another module refuses this one
  await t.player.run("applyDamage", ACTOR, [{ value: 5, type: "necrotic" }]);
  await t.player.run("editHp", ACTOR, 26);  // then the sheet
  await t.gmClient.run("idle");
  assert.deepEqual(damages(await t.gm.log()).map(e => e.data.parts), [[[4, "bludgeoning"]]],
                   "the sheet's edit is untyped, not the vetoed necrotic");
  await t.close();
});

test("the sawbones header control is on characters' sheets only", LIMIT, async () => {
  const npc = { ...SYSTEMS.dnd5e.actor("Npc0000000000001", "Goblin", 7, "gm", { type: "npc" }) };
  const t = await table(server, { ...DND5E, seed: 2, name: "header",
                                  actors: [SYSTEMS.dnd5e.actor(ACTOR, "Brena", 20, "pl"), npc] });
  assert.deepEqual(await t.player.run("headerControls", ACTOR), ["sawbones"]);
  assert.deepEqual(await t.player.run("headerControls", npc._id), []);
  await t.close();
});

test("an untyped drop to 0 asks the GM without holding up what comes after", LIMIT, async () => {
  const t = await table(server, { ...DND5E, seed: 5, name: "dialog", hp: 20 });
  const character = await linked(t);
  await t.gmClient.run("dialog", [{ hold: true }]);
  await t.player.run("tokenBar", ACTOR, 0, false);
  await t.gmClient.run("advanceTime", 3600);  // while the dialog is open
  await t.gmClient.run("idle");
  assert.equal((await t.gm.call("GET", "")).clock, 3600, "the hour is told meanwhile");
  assert.equal(damages(await t.gm.log()).length, 0, "the drop waits for its type");
  assert.equal((await t.gmClient.run("state")).actors[0].hp, 0, "and sawbones' HP do not overwrite Foundry's");
  await t.gmClient.run("answerDialog", { action: "ok", form: { type: "slashing" } });
  await t.gmClient.run("idle");
  assert.deepEqual(damages(await t.gm.log()).map(e => e.data.parts), [[[20, "slashing"]]]);
  assert.equal((await t.gm.status(character)).hp, 0);
  await t.close();
});

test("pf1's toggleStatusEffect answers {id: state}, not the effect: sawbones' status is flagged all the same", LIMIT,
     async () => {
  const t = await table(server, { ...PF1, seed: 2, name: "pf1 toggle" });
  assert.deepEqual(await t.gmClient.run("toggleStatusReturn", ACTOR, "sickened", false), {}, "nothing to remove");
  await t.gmClient.run("syncConditions", ACTOR, [{ id: "sickened" }, { id: "staggered" }]);
  const [seen] = (await t.player.run("state")).actors;
  assert.deepEqual(seen.sawbones.sort(), ["sickened", "staggered"], "flagged as sawbones'");
  await t.gmClient.run("syncConditions", ACTOR, []);
  assert.deepEqual((await t.player.run("state")).actors[0].statuses, [], "so sawbones takes them off again");
  await t.close();
});

test("dnd5e 5.1: the exhaustion sawbones imposes sets the actor's level (the penalties read it)", LIMIT, async () => {
  const system = systemOf("dnd5e", "5.1");
  const t = await table(server, { ...DND5E, seed: 2, name: "exhaustion 5.1", systemVersion: "5.1",
                                  actors: [system.actor(ACTOR, "Brena", 20, "pl")] });
  const character = await linked(t);
  await t.gmClient.run("syncConditions", ACTOR, [{ id: "exhausted" }]);
  let [seen] = (await t.player.run("state")).actors;
  assert.equal(seen.exhaustion, 1, "system.attributes.exhaustion");
  assert.deepEqual(seen.sawbones, ["exhaustion"], "its status effect, sawbones'");
  await t.gmClient.run("syncConditions", ACTOR, []);
  [seen] = (await t.player.run("state")).actors;
  assert.deepEqual([seen.exhaustion, seen.statuses.includes("exhaustion")], [0, false], "and taken back");
  assert.ok(character);
  await t.close();
});
