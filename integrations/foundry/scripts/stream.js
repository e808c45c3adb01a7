// The campaign's events stream (Server-Sent Events), read with fetch so that the API secret goes as a Bearer.
// A reconnection sends Last-Event-ID (kept in the GM's browser): every action after it comes, once, in order.
// The very first stream (no id kept yet) starts with an id and no data, the point it starts at: kept at once,
// so that an action made while the stream is lost before any action came is not missed.

import { setSetting, setting } from "./settings.js";

const WAIT_MS = [500, 1000, 2000, 5000, 10000, 30000];

/** The messages of an SSE text: [{id, data}] and the unfinished rest. */
export function parseEvents(buffer) {
  const out = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop();
  for (const block of blocks) {
    let id = null;
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      const [field, ...value] = line.split(":");
      const text = value.join(":").replace(/^ /, "");
      if (field === "id") id = text;
      else if (field === "data") data.push(text);
    }
    if (data.length) out.push({ id, data: data.join("\n") });
    else if (id !== null) out.push({ id, data: null });  // where the stream starts: no action, its id kept
  }
  return { events: out, rest };
}

export class EventStream {
  constructor(client, onEvent) {
    this.client = client;
    this.onEvent = onEvent;
    this.controller = null;
    this.running = false;
    this.failures = 0;
    this.open = false;  // the server answered and the stream is being read (from where lastEventId says)
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop();
  }

  stop() {
    this.running = false;
    this.open = false;
    this.controller?.abort();
  }

  async loop() {
    while (this.running) {
      try {
        await this.readOnce();
        this.failures = 0;
      } catch (error) {
        this.open = false;
        if (!this.running) break;
        if (error?.status === 401 || error?.status === 403 || error?.status === 404) this.client.unreachable(error);
        else if (error?.name !== "AbortError") this.client.unreachable(error);
        this.failures += 1;
      }
      if (!this.running) break;
      await new Promise(resolve => setTimeout(resolve, WAIT_MS[Math.min(this.failures, WAIT_MS.length - 1)]));
    }
  }

  async readOnce() {
    this.controller = new AbortController();
    const last = setting("lastEventId");
    const headers = this.client.headers({ Accept: "text/event-stream", ...(last ? { "Last-Event-ID": last } : {}) });
    const answer = await fetch(this.client.base + this.client.campaignPath("/events"),
                               { headers, signal: this.controller.signal });
    if (!answer.ok) {
      const error = new Error(`events: HTTP ${answer.status}`);
      error.status = answer.status;
      throw error;
    }
    this.client.reachable();
    this.open = true;
    const reader = answer.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    while (this.running) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const { events, rest } = parseEvents(buffer);
      buffer = rest;
      for (const event of events) {
        if (event.data !== null) await this.onEvent(JSON.parse(event.data));
        if (event.id) await setSetting("lastEventId", event.id);
      }
    }
  }
}
