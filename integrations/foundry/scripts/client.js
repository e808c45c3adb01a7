// Talking to sawbones: the API secret as a Bearer, the user's language, an Idempotency-Key on every change,
// and a queue kept in the GM's browser so that a change made while the server is unreachable is sent when it
// answers again — never twice (the server remembers each key). One notification per outage.

import { language, setSetting, setting, t } from "./settings.js";

const RETRY_MS = [1000, 2000, 5000, 10000, 30000];

export class SawbonesError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code;
    this.body = body;
  }
}

export class Client {
  constructor() {
    this.down = false;        // the server did not answer last time (one notification per outage)
    this.flushing = null;
    this.retry = 0;
    this.timer = null;
    this.onConflict = null;   // called with the queued change a 409 refused (the module re-reads)
  }

  get base() {
    return String(setting("serverUrl") || "").replace(/\/+$/, "");
  }

  get campaign() {
    return String(setting("campaign") || "");
  }

  configured() {
    return Boolean(this.base && this.campaign && setting("apiSecret"));
  }

  campaignPath(rest = "") {
    return `/api/campaigns/${encodeURIComponent(this.campaign)}${rest}`;
  }

  headers(extra = {}) {
    return { Authorization: `Bearer ${setting("apiSecret")}`, "Accept-Language": language(), Accept: "application/json",
             ...extra };
  }

  /** One request, now. Throws SawbonesError (the server refused) or TypeError (unreachable). */
  async request(method, path, body, { key, signal, headers } = {}) {
    const sent = this.headers({ ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
                                ...(key ? { "Idempotency-Key": key } : {}), ...(headers ?? {}) });
    const answer = await fetch(this.base + path, {
      method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body), signal });
    const text = await answer.text();
    const doc = text ? JSON.parse(text) : null;
    if (!answer.ok) throw new SawbonesError(answer.status, doc);
    this.reachable();
    return doc;
  }

  get(path) {
    return this.request("GET", path);
  }

  reachable() {
    if (this.down) {
      this.down = false;
      ui.notifications?.info(t("Faults.Back"));
    }
    this.retry = 0;
  }

  unreachable(error) {
    if (!this.down) {
      this.down = true;
      ui.notifications?.warn(t("Faults.Down", { url: this.base, reason: error?.message ?? "" }));
    }
  }

  queue() {
    return [...(setting("queue") ?? [])];
  }

  pending() {
    return this.queue().length > 0 || this.flushing !== null;
  }

  /** Queue a change (kept across reloads) and send what waits, in order. Resolves with the change's answer,
   * or null when it stays queued (unreachable) or was refused (then the GM was told). */
  async send(change) {
    const queued = this.queue();
    if (!queued.some(c => c.key === change.key)) await setSetting("queue", [...queued, change]);
    return this.flush(change.key);
  }

  async flush(wanted) {
    while (this.flushing) await this.flushing.catch(() => null);
    let result = null;
    const run = (async () => {
      for (const change of this.queue()) {
        let answer;
        try {
          answer = await this.request(change.method, change.path, change.body, { key: change.key });
        } catch (error) {
          if (!(error instanceof SawbonesError)) {  // unreachable: keep it, try again later
            this.unreachable(error);
            this.schedule();
            return;
          }
          answer = null;
          if (error.status === 409) await this.onConflict?.(change, error);
          else ui.notifications?.error(t("Faults.Refused", { message: error.message }));
        }
        await setSetting("queue", this.queue().filter(c => c.key !== change.key));
        if (change.key === wanted) result = answer;
        await this.afterSend?.(change, answer);
      }
    })();
    this.flushing = run;
    try {
      await run;
    } finally {
      this.flushing = null;
    }
    return result;
  }

  schedule() {
    if (this.timer) return;
    const wait = RETRY_MS[Math.min(this.retry++, RETRY_MS.length - 1)];
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => null);
    }, wait);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
