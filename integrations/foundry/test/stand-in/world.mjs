// The Foundry server of the stand-in: the world's documents, and each change broadcast to the clients (workers)
// allowed to see it, in order, before the client that asked gets its answer.

import { Worker } from "node:worker_threads";

export const ORIGIN = "http://localhost:30000";  // where the Foundry pages come from (serve --cors-origin)

export class World {
  constructor({ system, systemVersion, actors, users, worldSettings = {}, origin = ORIGIN }) {
    this.system = system;
    this.systemVersion = systemVersion;
    this.origin = origin;
    this.actors = new Map(actors.map(a => [a._id, structuredClone(a)]));
    this.messages = new Map();
    this.users = users;
    this.worldTime = 0;
    this.worldSettings = worldSettings;
    this.storage = new Map();  // each user's browser storage (client settings), kept across reloads
    this.clients = new Map();
    this.calls = 0;
    this.clock = 1;
  }

  async connect(userId, { lang = "en", clientSettings = {} } = {}) {
    const stored = { ...(this.storage.get(userId) ?? {}), ...clientSettings };
    this.storage.set(userId, stored);
    const worker = new Worker(new URL("./client.mjs", import.meta.url), { workerData: {
      userId, system: this.system, systemVersion: this.systemVersion,
      users: this.users.map(u => ({ ...u, active: u.id === userId || this.clients.has(u.id) })), lang, origin: this.origin, worldTime: this.worldTime,
      actors: [...this.actors.values()], messages: this.visibleMessages(userId), worldSettings: this.worldSettings,
      clientSettings: stored } });
    worker.unref();  // a failed test never keeps node waiting for its clients
    const client = { userId, worker, pending: new Map() };
    this.clients.set(userId, client);
    await new Promise((resolve, reject) => {
      worker.once("error", reject);
      worker.on("message", message => {
        if (message.op === "loaded") resolve();
        else this.handle(client, message);
      });
    });
    // Foundry's userActivity: every other client learns who is connected (User#active, game.users.activeGM)
    this.broadcast({ op: "userActivity", userId, active: true }, id => id !== userId);
    return {
      run: (name, ...args) => this.command(client, name, args),
      close: async () => {
        await this.command(client, "stop", []).catch(() => null);
        this.clients.delete(userId);
        await worker.terminate();
        this.broadcast({ op: "userActivity", userId, active: false });
      },
    };
  }

  visibleMessages(userId) {
    return [...this.messages.values()].filter(m => this.sees(userId, m));
  }

  sees(userId, message) {
    return !message.whisper?.length || message.whisper.includes(userId) || message.author === userId;
  }

  command(client, name, args) {
    const id = ++this.calls;
    client.worker.postMessage({ op: "command", id, name, args });
    return new Promise((resolve, reject) => client.pending.set(id, { resolve, reject }));
  }

  broadcast(message, filter = () => true) {
    for (const client of this.clients.values()) if (filter(client.userId)) client.worker.postMessage(message);
  }

  handle(client, message) {
    if (message.op === "result") {
      const waiter = client.pending.get(message.id);
      client.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`${client.userId}: ${message.error}`));
      else waiter?.resolve(message.value);
      return;
    }
    if (message.op === "clientSetting") {
      this.storage.set(client.userId, { ...(this.storage.get(client.userId) ?? {}), [message.id]: message.value });
      return;
    }
    const userId = client.userId;
    const out = { ...message, userId };
    delete out.requestId;
    if (message.op === "update" && message.collection === "actors") {
      out.time = ++this.clock;
      merge(this.actors.get(message.id), message.changed);
      this.broadcast(out);
    } else if (message.op === "update" && message.collection === "messages") {
      const chat = this.messages.get(message.id);
      merge(chat, message.changed);
      this.broadcast(out, id => this.sees(id, chat));
    } else if (message.op === "create" && message.collection === "messages") {
      this.messages.set(message.data._id, structuredClone(message.data));
      this.broadcast(out, id => this.sees(id, message.data));
    } else if (message.op === "embedded") {
      const actor = this.actors.get(message.actorId);
      if (message.action === "create") actor.effects.push(structuredClone(message.data));
      else if (message.action === "delete") actor.effects = actor.effects.filter(e => !message.ids.includes(e._id));
      else merge(actor.effects.find(e => e._id === message.id), message.changed);
      this.broadcast(out);
    } else if (message.op === "time") {
      this.worldTime += message.delta;
      out.worldTime = this.worldTime;
      this.broadcast(out);
    } else if (message.op === "setting") {
      this.worldSettings[message.id] = message.value;
      this.broadcast(out);
    }
    client.worker.postMessage({ op: "ack", requestId: message.requestId });
  }

  actor(id) {
    return this.actors.get(id);
  }
}

function merge(target, changed) {
  for (const [key, value] of Object.entries(changed)) {
    if (value && typeof value === "object" && !Array.isArray(value) && target[key] && typeof target[key] === "object") {
      merge(target[key], value);
    } else target[key] = structuredClone(value);
  }
}
