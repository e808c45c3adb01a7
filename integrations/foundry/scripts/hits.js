// Hits and heals. Every client marks the HP update it makes (preUpdateActor): the HP before, and the typed
// parts when the update comes from the system's damage application (dnd5e: dnd5e.calculateDamage →
// dnd5e.preApplyDamage → the update → dnd5e.applyDamage, one options object; pf1: pf1ApplyDamage → the update).
// The active GM's client tells sawbones once per update (updateActor): one `damage` with its types, or the
// new HP after healing. Sheet and token-bar edits are updates without parts: untyped; one that drops the
// character to 0 HP asks the GM for the damage type (the injury table depends on it).

import { MODULE, isActiveGM, t } from "./settings.js";
import { damageTable, hpOf, mapping, systemId } from "./systems.js";

const typedParts = new WeakMap();   // options object of one dnd5e application → its typed parts
const applying = new Map();         // actor id → the parts of the application about to update it (this client)

const HP_PATH = "system.attributes.hp.value";

/** dnd5e.calculateDamage(actor, damages, options): the typed parts, after resistances. */
export function onCalculateDamage(actor, damages, options) {
  const parts = [];
  for (const d of damages ?? []) {
    const value = Number(d?.value ?? 0);
    if (value > 0 && d.type && !["healing", "temphp", "maximum"].includes(d.type)) parts.push({ type: d.type, value });
  }
  if (options && typeof options === "object") typedParts.set(options, parts);
}

/** dnd5e.preApplyDamage(actor, amount, updates, options): the next HP update of this actor is this hit. */
export function onPreApplyDamage(actor, amount, updates, options) {
  applying.set(actor.id, { parts: (options && typedParts.get(options)) ?? [] });
}

/** dnd5e.applyDamage(actor, amount, options): the application is over (no update when nothing changed). */
export function onApplyDamage(actor, amount, options) {
  applying.delete(actor.id);
  if (options && typeof options === "object") typedParts.delete(options);
}

/** pf1ApplyDamage(actor, options): options.value > 0 is damage; options.instances carry the types. */
export function onPf1ApplyDamage(actor, options) {
  const parts = [];
  for (const instance of options?.instances ?? []) {
    const types = [...(instance?.types ?? instance?.typeIds ?? [])];
    const value = Number(instance?.value ?? instance?.total ?? 0);
    if (value > 0 && types.length) parts.push({ type: types[0], value });
  }
  applying.set(actor.id, { parts });
}

/** preUpdateActor(actor, changed, options, userId), on the client that makes the update: mark it. */
export function onPreUpdateActor(actor, changed, options, userId) {
  const next = foundry.utils.getProperty(changed, HP_PATH);
  if (next === undefined) return;
  const hit = applying.get(actor.id);
  applying.delete(actor.id);
  foundry.utils.setProperty(changed, `flags.${MODULE}.hp`, {
    id: foundry.utils.randomID(), from: hpOf(actor)?.value ?? null, parts: hit?.parts ?? null,
    echo: Boolean(options?.[MODULE]?.echo),
  });
}

/** The parts of a hit as sawbones tables, scaled to the HP it really took (temporary HP, clamping). */
export function scaledParts(parts, loss) {
  const typed = (parts ?? []).map(p => ({ type: damageTable(p.type), value: p.value })).filter(p => p.type && p.value > 0);
  const total = typed.reduce((sum, p) => sum + p.value, 0);
  if (!typed.length || loss <= 0) return [];
  const merged = new Map();
  for (const p of typed) merged.set(p.type, (merged.get(p.type) ?? 0) + p.value);
  const out = [...merged].map(([type, value]) => ({ type, amount: Math.floor((value * loss) / total) }));
  const largest = out.reduce((a, b) => (b.amount > a.amount ? b : a));
  largest.amount += loss - out.reduce((sum, p) => sum + p.amount, 0);
  return out.filter(p => p.amount > 0);
}

/** The damage type of an untyped drop to 0 HP, chosen by the GM (null: cancelled). */
export async function askType(actor, loss) {
  const tables = [...new Set(Object.values(mapping()?.damage_types ?? {}))].sort();
  const options = tables.map(type => `<option value="${type}">${t(`Damage.${type}`)}</option>`).join("");
  const content = `<p>${t("Hits.AskType", { name: actor.name, amount: loss })}</p>`
    + `<select name="type">${options}</select>`;
  const chosen = await foundry.applications.api.DialogV2.wait({
    window: { title: t("Hits.AskTitle") }, content, rejectClose: false,
    buttons: [{ action: "ok", label: t("Hits.AskOk"), default: true,
                callback: (event, button) => button.form.elements.type.value },
              { action: "cancel", label: t("Hits.AskCancel") }],
  });
  return chosen && chosen !== "cancel" ? chosen : null;
}

export class Hits {
  constructor(module) {
    this.module = module;
    this.known = new Map();  // actor id → HP as last seen by this (GM) client
    this.untold = new Map(); // actor id → HP updates received but not told yet (sawbones' HP must not overwrite them)
  }

  received(actor, changed) {
    if (foundry.utils.getProperty(changed, HP_PATH) === undefined) return;
    if (foundry.utils.getProperty(changed, `flags.${MODULE}.hp.echo`)) return;
    this.untold.set(actor.id, (this.untold.get(actor.id) ?? 0) + 1);
  }

  told(actor, changed) {
    if (foundry.utils.getProperty(changed, HP_PATH) === undefined) return;
    if (foundry.utils.getProperty(changed, `flags.${MODULE}.hp.echo`)) return;
    const left = (this.untold.get(actor.id) ?? 1) - 1;
    if (left > 0) this.untold.set(actor.id, left);
    else this.untold.delete(actor.id);
  }

  remember(actor) {
    const hp = hpOf(actor);
    if (hp) this.known.set(actor.id, hp.value);
  }

  /** updateActor(actor, changed, options, userId), on the active GM's client. */
  async onUpdateActor(actor, changed, options, userId) {
    const next = foundry.utils.getProperty(changed, HP_PATH);
    if (next === undefined) return;
    const mark = foundry.utils.getProperty(changed, `flags.${MODULE}.hp`) ?? {};
    const before = mark.from ?? this.known.get(actor.id);
    this.known.set(actor.id, Number(next));
    if (!isActiveGM() || mark.echo || before == null) return;
    const character = this.module.characterOf(actor);
    if (!character) return;
    const delta = Number(next) - Number(before);
    if (delta === 0) return;
    const key = `foundry:Actor.${actor.id}:hp:${mark.id ?? `${before}->${next}@${actor._stats?.modifiedTime ?? ""}`}`;
    if (delta > 0) {  // healing: sawbones' HP follow Foundry's
      await this.module.change({ method: "PATCH", path: this.module.client.campaignPath(
        `/characters/${encodeURIComponent(character)}`), body: { hp: Number(next) }, key, actor: actor.id });
      return;
    }
    const loss = -delta;
    let parts = scaledParts(mark.parts, loss);
    if (!parts.length) {
      const drops = Number(before) > 0 && Number(next) <= 0;
      const type = drops ? await askType(actor, loss) : mapping()?.untyped;
      if (!type) {  // the GM gave no type: the HP only, no injury
        ui.notifications?.warn(t("Hits.NoType", { name: actor.name }));
        await this.module.change({ method: "PATCH", path: this.module.client.campaignPath(
          `/characters/${encodeURIComponent(character)}`), body: { hp: Number(next) }, key, actor: actor.id });
        return;
      }
      parts = [{ type, amount: loss }];
    }
    await this.module.change({ method: "POST", path: this.module.client.campaignPath("/damage"),
                               body: { character, parts }, key, actor: actor.id });
  }
}

export function registerHitHooks(module) {
  const hits = module.hits;
  if (systemId() === "dnd5e") {
    Hooks.on("dnd5e.calculateDamage", onCalculateDamage);
    Hooks.on("dnd5e.preApplyDamage", onPreApplyDamage);
    Hooks.on("dnd5e.applyDamage", onApplyDamage);
    // dnd5e.damageActor / dnd5e.healActor also fire for the same update: the update itself is told, once.
  }
  if (systemId() === "pf1") Hooks.on("pf1ApplyDamage", onPf1ApplyDamage);
  Hooks.on("preUpdateActor", onPreUpdateActor);
  Hooks.on("updateActor", (actor, changed, options, userId) => {
    hits.received(actor, changed);
    return module.serial(async () => {
      try {
        await hits.onUpdateActor(actor, changed, options, userId);
      } finally {
        hits.told(actor, changed);
      }
    });
  });
}
