import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { story } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test("dnd5e: hit to 0, conditions, undo, an hour of world time, the player's roll, a secret card", async () => {
  await story(server, { system: "dnd5e", sawbonesSystem: "dnd5e", type: "fire", amount: 25, save: "con",
                        button: "[[/save ability=con dc=12]]", secretButton: "[[/save ability=con]]" });
});
