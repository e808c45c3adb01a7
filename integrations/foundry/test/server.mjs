// A real `sawbones serve` on 127.0.0.1 for the module's tests, with Foundry's origin allowed (--cors-origin),
// and the GM's own calls (what the dashboard would do) made directly.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { ORIGIN } from "./stand-in/world.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function python() {
  if (process.env.SAWBONES_PYTHON) return process.env.SAWBONES_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function freePort() {
  return new Promise(resolve => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "sawbones-foundry-"));
  const port = await freePort();
  const env = { ...process.env, SAWBONES_DATABASE_URL: `sqlite:///${join(dir, "sawbones.db")}`, SAWBONES_LANG: "en" };
  delete env.SAWBONES_CORS_ORIGINS;
  const child = spawn(python(), ["-m", "sawbones", "serve", "--host", "127.0.0.1", "--port", String(port),
                                 "--cors-origin", ORIGIN], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", d => { output += d; });
  child.stderr.on("data", d => { output += d; });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const answer = await fetch(`${base}/api/campaigns`);
      if (answer.ok) break;
    } catch { /* not yet */ }
    if (child.exitCode !== null || i > 300) throw new Error(`sawbones serve did not start:\n${output}`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return {
    base, port,
    async stop() {
      child.kill("SIGTERM");
      await new Promise(resolve => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The GM's own calls to the API (the dashboard's), with the campaign's secret. */
export class Gm {
  constructor(base, campaign, secret) {
    Object.assign(this, { base, campaign, secret });
  }

  static async create(base, name, system, seed) {
    const answer = await fetch(`${base}/api/campaigns`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                          body: JSON.stringify({ name, system, seed }) });
    const doc = await answer.json();
    if (!answer.ok) throw new Error(JSON.stringify(doc));
    return new Gm(base, name, doc.gm_secret);
  }

  async call(method, path, body) {
    const answer = await fetch(`${this.base}/api/campaigns/${encodeURIComponent(this.campaign)}${path}`, {
      method, headers: { Authorization: `Bearer ${this.secret}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body) });
    const doc = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${path}: ${JSON.stringify(doc)}`);
    return doc;
  }

  option(name, value) {
    return this.call("PUT", `/options/${name}`, { value });
  }

  async character(external) {
    const list = await this.call("GET", `/characters?external=${encodeURIComponent(external)}`);
    return list.characters[0] ?? null;
  }

  async status(id) {
    return (await this.call("GET", `/status?character=${encodeURIComponent(id)}`)).characters[0];
  }

  async log() {
    return (await this.call("GET", "/log?limit=1000")).events;
  }

  async version() {
    return (await this.call("GET", "")).version;
  }
}
