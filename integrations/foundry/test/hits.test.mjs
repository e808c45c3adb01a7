// Hits and heals from every place Foundry makes them: each hit is one sawbones damage with its types, a heal is
// told too, and after any sequence Foundry's HP and sawbones' agree.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { ACTOR, damages, table } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

async function agree(t, character, what) {
  await t.gmClient.run("idle");
  await t.player.run("idle");
  const sawbones = (await t.gm.status(character)).hp;
  for (const client of [t.gmClient, t.player]) {
    assert.equal((await client.run("state")).actors[0].hp, sawbones, `${what}: Foundry's HP are sawbones' (${sawbones})`);
  }
  return sawbones;
}

for (const [system, sawbonesSystem] of [["dnd5e", "dnd5e"], ["pf1", "pf1e"]]) {
  test(`${system}: a sequence of hits and heals from chat cards, the sheet and the token bar`, async () => {
    const t = await table(server, { system, sawbonesSystem, seed: 7, name: `${system} hits`, hp: 30 });
    await t.gmClient.run("linkActors");
    const character = (await t.gm.character(`foundry:Actor.${ACTOR}`)).id;
    const steps = [
      ["gm typed hit", c => c.gmClient.run("applyDamage", ACTOR, [{ value: 5, type: "slashing" }]), 25, 1],
      ["player's typed hit of two types", c => c.player.run("applyDamage", ACTOR,
        [{ value: 4, type: system === "pf1" ? "electricity" : "lightning" }, { value: 2, type: "cold" }]), 19, 1],
      ["token bar, a delta", c => c.player.run("tokenBar", ACTOR, -3, true), 16, 1],
      ["heal from a card", c => c.player.run("heal", ACTOR, 4), 20, 0],
      ["the sheet's HP field, up", c => c.player.run("editHp", ACTOR, 24), 24, 0],
      ["the sheet's HP field, down", c => c.gmClient.run("editHp", ACTOR, 21), 21, 1],
    ];
    let hits = 0;
    for (const [what, step, hp, counted] of steps) {
      await step(t);
      hits += counted;
      assert.equal(await agree(t, character, what), hp, what);
      assert.equal(damages(await t.gm.log()).length, hits, `${what}: one sawbones damage per hit`);
    }
    const log = damages(await t.gm.log());
    assert.deepEqual(log[0].data.parts, [[5, "slashing"]]);
    assert.deepEqual(log[1].data.parts, [[4, "lightning"], [2, "cold"]], "each type told, in sawbones' words");
    assert.deepEqual(log[2].data.parts, [[3, "bludgeoning"]], "an untyped hit above 0 HP: the mapping's untyped table");

    // an untyped edit that drops the character to 0 asks the GM (only the GM) for the type
    await t.gmClient.run("dialog", [{ action: "ok", form: { type: "piercing" } }]);
    await t.player.run("tokenBar", ACTOR, 0, false);
    assert.equal(await agree(t, character, "token bar to 0"), 0);
    const last = damages(await t.gm.log()).at(-1);
    assert.deepEqual(last.data.parts, [[21, "piercing"]]);
    assert.equal((await t.gmClient.run("state")).dialogs, 1, "the GM was asked");
    assert.equal((await t.player.run("state")).dialogs, 0, "the player was not");
    assert.equal((await t.gm.status(character)).injuries.length, 1, "the drop to 0 gave its injury");
    if (system === "dnd5e") {
      const hooks = (await t.gmClient.run("state")).hooks;
      assert.ok(hooks.includes("dnd5e.damageActor") && hooks.includes("dnd5e.applyDamage"), "every hook fired");
    }
    assert.equal((await t.player.run("state")).requests, 0, "the player's client sent nothing");
    await t.close();
  });
}

test("two GMs' browsers open: only the active GM's tells sawbones", async () => {
  const { Gm } = await import("./server.mjs");
  const { World } = await import("./stand-in/world.mjs");
  const { SYSTEMS } = await import("./stand-in/systems.mjs");
  const gm = await Gm.create(server.base, "two gms", "dnd5e", 4);
  const users = [{ id: "gm", name: "GM", isGM: true }, { id: "gm2", name: "Assistant GM", isGM: true },
                 { id: "pl", name: "Player", isGM: false }];
  const world = new World({ system: "dnd5e", users, actors: [SYSTEMS.dnd5e.actor(ACTOR, "Brena", 20, "pl")],
                            worldSettings: { "sawbones.serverUrl": server.base, "sawbones.campaign": "two gms" } });
  const clients = [];
  for (const id of ["gm", "gm2", "pl"]) {
    clients.push(await world.connect(id, { clientSettings: id.startsWith("gm") ? { "sawbones.apiSecret": gm.secret } : {} }));
  }
  for (const c of clients) await c.run("start");
  await clients[0].run("linkActors");
  const before = (await clients[1].run("state")).requests;
  await clients[1].run("applyDamage", ACTOR, [{ value: 6, type: "acid" }]);
  for (const c of clients) await c.run("idle");
  assert.deepEqual(damages(await gm.log()).map(e => e.data.parts), [[[6, "acid"]]], "told once");
  assert.equal((await clients[1].run("state")).requests, before, "the other GM's browser sent nothing");
  assert.equal(before, 0);
  for (const c of clients) await c.close();
});
