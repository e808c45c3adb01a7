// Hits and heals. Every client marks the HP update it makes (preUpdateActor, which Foundry runs after the
// system's own _preUpdate: pf1 has already turned hp.value into hp.offset): the HP before and after, and the
// typed parts when the update comes from the system's damage application (dnd5e: dnd5e.calculateDamage →
// dnd5e.preApplyDamage, whose `updates` object is the update itself; pf1: pf1ApplyDamage → the update). The
// active GM's client tells sawbones once per update (updateActor, where the HP are the derived ones): one
// `damage` with its types, or the new HP after healing. An update made while no GM's client runs is kept in the
// actor's flags (flags.sawbones.offline) and told, with the same key, when the active GM's client starts.
// Sheet and token-bar edits carry no parts: untyped; one that drops the character to 0 HP asks the GM for the
// damage type (the injury table depends on it), without holding up what comes after.

import { MODULE, escape, isActiveGM, t } from "./settings.js";
import { damageTable, hpOf, mapping, nextHp, systemId, touchesHp } from "./systems.js";

const typedParts = new WeakMap();   // options object of one dnd5e application → its typed parts
const applying = new Map();         // actor id → the parts of the pf1 application about to update it (this client)
const PARTS = `flags.${MODULE}.parts`;
const MARK = `flags.${MODULE}.hp`;
const OFFLINE = `flags.${MODULE}.offline`;
const OFFLINE_KEPT = 50;

/** dnd5e.calculateDamage(actor, damages, options): the typed parts, after resistances. */
export function onCalculateDamage(actor, damages, options) {
  const parts = [];
  for (const d of damages ?? []) {
    const value = Number(d?.value ?? 0);
    if (value > 0 && d.type && !["healing", "temphp", "maximum"].includes(d.type)) parts.push({ type: d.type, value });
  }
  if (options && typeof options === "object") typedParts.set(options, parts);
}

/** dnd5e.preApplyDamage(actor, amount, updates, options): the parts ride in `updates`, the very object dnd5e then
 * updates the actor with; when another module vetoes the application, they go with it. */
export function onPreApplyDamage(actor, amount, updates, options) {
  if (updates && typeof updates === "object") updates[PARTS] = (options && typedParts.get(options)) ?? [];
}

/** dnd5e.applyDamage(actor, amount, options): the application is over. */
export function onApplyDamage(actor, amount, options) {
  if (options && typeof options === "object") typedParts.delete(options);
}

/** pf1ApplyDamage(actor, options): options.value > 0 is damage; options.instances carry the types. The actor's
 * next update is this application's (pf1 updates even when nothing changes: an empty update, dropped by Foundry). */
export function onPf1ApplyDamage(actor, options) {
  const parts = [];
  for (const instance of options?.instances ?? []) {
    const types = [...(instance?.types ?? instance?.typeIds ?? [])];
    const value = Number(instance?.value ?? instance?.total ?? 0);
    if (value > 0 && types.length) parts.push({ type: types[0], value });
  }
  applying.set(actor.id, { parts });
}

function drop(object, path) {
  const keys = path.split(".");
  const chain = [object];
  for (const key of keys.slice(0, -1)) chain.push(chain.at(-1)?.[key]);
  if (!chain.at(-1) || !(keys.at(-1) in chain.at(-1))) return undefined;
  const value = chain.at(-1)[keys.at(-1)];
  delete chain.at(-1)[keys.at(-1)];
  for (let i = keys.length - 1; i > 0; i--) {  // leave no empty flags object behind: it would be a write
    if (Object.keys(chain[i]).length) break;
    delete chain[i - 1][keys[i - 1]];
  }
  return value;
}

/** preUpdateActor(actor, changed, options, userId), on the client that makes the update: mark it. An update that
 * leaves the HP as they are gets no mark (Foundry drops it then: nothing is written). */
export function onPreUpdateActor(actor, changed, options, userId) {
  const parts = drop(changed, PARTS);
  const pf1 = applying.get(actor.id);
  applying.delete(actor.id);
  const to = nextHp(actor, changed);
  const from = hpOf(actor)?.value ?? null;
  if (to === undefined || to === from) return;
  const mark = { id: foundry.utils.randomID(), from, to, parts: parts ?? pf1?.parts ?? null,
                 echo: Boolean(options?.[MODULE]?.echo) };
  foundry.utils.setProperty(changed, MARK, mark);
  if (!mark.echo && !game.users?.activeGM) {  // no GM's client to tell it now: kept for when one starts
    const kept = actor.getFlag?.(MODULE, "offline") ?? [];
    foundry.utils.setProperty(changed, OFFLINE, [...kept, mark].slice(-OFFLINE_KEPT));
  }
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
  const content = `<p>${t("Hits.AskType", { name: escape(actor.name), amount: loss })}</p>`
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
    this.untold = new Map(); // actor id → HP updates received but not told yet (sawbones' HP must not overwrite them)
  }

  hold(actorId) {
    this.untold.set(actorId, (this.untold.get(actorId) ?? 0) + 1);
  }

  release(actorId) {
    const left = (this.untold.get(actorId) ?? 1) - 1;
    if (left > 0) this.untold.set(actorId, left);
    else this.untold.delete(actorId);
  }

  key(actor, mark) {
    return `foundry:Actor.${actor.id}:hp:${mark.id}`;
  }

  patch(actor, character, mark) {
    return { method: "PATCH", path: this.module.client.campaignPath(`/characters/${encodeURIComponent(character)}`),
             body: { hp: Number(mark.to) }, key: this.key(actor, mark), actor: actor.id };
  }

  damage(actor, character, mark, parts) {
    return { method: "POST", path: this.module.client.campaignPath("/damage"), body: { character, parts },
             key: this.key(actor, mark), actor: actor.id };
  }

  /** updateActor(actor, changed, options, userId), on the active GM's client; `now`: the actor's HP as derived
   * when the hook fired (pf1: max + offset; dnd5e: the value within the max). */
  async onUpdateActor(actor, changed, now) {
    const marked = foundry.utils.getProperty(changed, MARK);
    if (!isActiveGM() || !marked || marked.echo || marked.from == null || !now) return;
    const mark = { ...marked, to: now.value };
    const character = this.module.characterOf(actor);
    if (!character) return;
    const loss = Number(mark.from) - Number(mark.to);
    if (loss < 0) {  // healing: sawbones' HP follow Foundry's
      await this.module.change(this.patch(actor, character, mark));
      return;
    }
    const parts = scaledParts(mark.parts, loss);
    if (parts.length) {
      await this.module.change(this.damage(actor, character, mark, parts));
      return;
    }
    if (!(Number(mark.from) > 0 && Number(mark.to) <= 0)) {
      await this.module.change(this.damage(actor, character, mark, [{ type: mapping()?.untyped, amount: loss }]));
      return;
    }
    // a drop to 0 without a type: the GM is asked; what comes after goes on meanwhile (the dialog is not awaited
    // here), and sawbones' HP do not overwrite this actor's until it is answered
    this.hold(actor.id);
    askType(actor, loss).then(type => this.module.serial(async () => {
      try {
        await this.tellDrop(actor, character, mark, loss, type);
      } finally {
        this.release(actor.id);
        await this.module.sync([character]);
      }
    }));
  }

  async tellDrop(actor, character, mark, loss, type) {
    if (!type) {  // the GM gave no type: the HP only, no injury
      ui.notifications?.warn(t("Hits.NoType", { name: actor.name }));
      await this.module.change(this.patch(actor, character, mark));
      return;
    }
    await this.module.change(this.damage(actor, character, mark, [{ type, amount: loss }]));
  }

  /** The HP changes made while no GM's client ran (flags.sawbones.offline), told in order with the keys they would
   * have had, before sawbones' HP come back onto the actors; then the list is emptied. Returns the characters. */
  async tellOffline() {
    const touched = [];
    for (const actor of game.actors ?? []) {
      const marks = actor.getFlag?.(MODULE, "offline") ?? [];
      const character = this.module.characterOf(actor);
      if (!marks.length) continue;
      if (character) {
        for (const mark of marks) {
          const loss = Number(mark.from) - Number(mark.to);
          const parts = loss > 0 ? scaledParts(mark.parts, loss) : [];
          const drops = Number(mark.from) > 0 && Number(mark.to) <= 0;
          const untyped = drops ? null : mapping()?.untyped;
          if (loss < 0 || (!parts.length && !untyped)) {
            if (loss > 0) ui.notifications?.warn(t("Hits.NoType", { name: actor.name }));
            await this.module.client.send(this.patch(actor, character, mark));
          } else {
            await this.module.client.send(this.damage(actor, character, mark,
                                                      parts.length ? parts : [{ type: untyped, amount: loss }]));
          }
        }
        touched.push(character);
      }
      await actor.update({ [OFFLINE]: [] });
    }
    return touched;
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
    const mark = foundry.utils.getProperty(changed, MARK);
    const counted = touchesHp(changed) && !mark?.echo;
    const now = counted ? hpOf(actor) : null;
    if (counted) hits.hold(actor.id);
    return module.serial(async () => {
      try {
        await hits.onUpdateActor(actor, changed, now);
      } finally {
        if (counted) hits.release(actor.id);
      }
    });
  });
}
