import { after, before, test } from "node:test";

import { startServer } from "./server.mjs";
import { story } from "./story.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test("pf1: hit to 0, conditions, undo, an hour of world time, the player's roll, a secret card", async () => {
  await story(server, { system: "pf1", sawbonesSystem: "pf1e", type: "fire", amount: 20, save: "fort",
                        button: "@Save[fort;dc=12;as=speaker]", secretButton: "@Save[fort;as=speaker]" });
});
