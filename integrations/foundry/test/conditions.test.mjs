// sawbones' conditions become the system's status effects, flagged as sawbones', and leave when sawbones ends
// them (a cure cast on the dashboard); a status the GM set by hand stays the GM's.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { ACTOR, table } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

const mapping = (await import("../data/mapping.json", { with: { type: "json" } })).default;

for (const [system, sawbonesSystem, save, spell] of [["pf1", "pf1e", "fort", "remove_disease"],
                                                     ["dnd5e", "dnd5e", "con", "heal"]]) {
  test(`${system}: a disease's stage puts its conditions on the actor; the cure takes them off`, async () => {
    const t = await table(server, { system, sawbonesSystem, seed: 11, name: `${system} conditions` });
    await t.gmClient.run("linkActors");
    const character = (await t.gm.character(`foundry:Actor.${ACTOR}`)).id;
    // a status the GM put on by hand, which sawbones also imposes below (pf1: fatigued)
    const byHand = system === "pf1" ? "fatigued" : null;
    if (byHand) await t.gmClient.run("toggleStatus", ACTOR, byHand, true);
    await t.gm.call("POST", "/expose", { character, affliction: "filth_fever", save: 1 });
    await t.gmClient.run("advanceTime", 24 * 3600);
    await t.gmClient.run("idle");
    await t.player.run("rollSave", ACTOR, save, 1);
    await t.gmClient.run("idle");
    const conditions = (await t.gm.status(character)).conditions.map(c => c.id);
    assert.ok(conditions.length, "the failed save moves the disease to a stage with conditions");
    const expected = conditions.map(c => mapping[system].conditions[c]).filter(Boolean).sort();
    let [actor] = (await t.player.run("state")).actors;
    assert.deepEqual(actor.statuses.filter(s => expected.includes(s)).sort(), expected);
    assert.deepEqual(actor.sawbones.sort(), expected.filter(s => s !== byHand), "flagged as sawbones', but not the GM's");

    const html = await t.player.run("openWindow", ACTOR);
    assert.match(html, /Filth Fever.*Weakened/s, "the window: the disease and its stage, as the player's page says");
    const [affliction] = (await t.gm.call("GET", `/characters/${character}`)).afflictions ?? [];
    const cured = await t.gm.call("POST", "/cure", { character, affliction: affliction?.id ?? "filth_fever", spell, cl_check: 40 });
    await t.gmClient.run("caughtUp", cured.version);
    await t.player.run("idle");
    [actor] = (await t.player.run("state")).actors;
    assert.deepEqual((await t.gm.status(character)).conditions, []);
    assert.deepEqual(actor.sawbones, [], "sawbones ended them: its status effects are gone");
    if (byHand) assert.ok(actor.statuses.includes(byHand), "the GM's own status stays");
    await t.close();
  });
}
