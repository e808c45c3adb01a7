// What sawbones says about a character, brought back onto its actor: HP (when they drifted), conditions as the
// system's status effects (flagged as sawbones'; only those are ever removed), and the player's view of the
// character (injuries, wounds, afflictions, in English and French) kept on the actor for its window.

import { MODULE } from "./settings.js";
import { hpOf, hpUpdate, statusOf, systemId } from "./systems.js";

/** The status effects sawbones put on the actor: status id → the effect. */
export function ownStatuses(actor) {
  const out = new Map();
  for (const effect of actor.effects ?? []) {
    const id = effect.getFlag?.(MODULE, "condition");
    if (id) out.set(id, effect);
  }
  return out;
}

/** Wait (a little) for what a system does after an update of ours, on this same client (dnd5e's _onUpdate). */
async function settle(done, tries = 50) {
  for (let i = 0; i < tries && !done(); i++) await new Promise(resolve => setTimeout(resolve, 20));
}

function hasStatus(actor, id) {
  return actor.statuses?.has?.(id) ?? [...(actor.effects ?? [])].some(e => e.statuses?.has?.(id));
}

const EXHAUSTION = "exhaustion";
const EXHAUSTION_LEVEL = "system.attributes.exhaustion";

/** Make the actor's sawbones status effects those of `conditions` (sawbones condition documents). */
export async function syncConditions(actor, conditions) {
  const known = new Set((CONFIG.statusEffects ?? []).map(e => e.id));
  const wanted = new Set(conditions.map(c => statusOf(c.id)).filter(id => id && known.has(id)));
  const own = ownStatuses(actor);
  for (const [id] of own) {
    if (wanted.has(id)) continue;
    if (id === EXHAUSTION && systemId() === "dnd5e") {
      await actor.update({ [EXHAUSTION_LEVEL]: 0 });  // dnd5e removes its effect itself
      await settle(() => !hasStatus(actor, id));
    }
    if (hasStatus(actor, id)) await actor.toggleStatusEffect(id, { active: false });
  }
  for (const id of wanted) {
    if (own.has(id) || hasStatus(actor, id)) continue;  // a status the GM set stays the GM's
    if (id === EXHAUSTION && systemId() === "dnd5e") {
      // dnd5e's penalties read the level, not the effect; before 5.2 toggling the effect left the level at 0.
      // Setting the level makes dnd5e create the effect itself (every 5.x).
      await actor.update({ [EXHAUSTION_LEVEL]: 1 });
      await settle(() => hasStatus(actor, id));
    }
    if (!hasStatus(actor, id)) await actor.toggleStatusEffect(id, { active: true });
    // the effect as the actor now has it: pf1's toggleStatusEffect answers {id: state}, not the effect
    const effect = [...(actor.effects ?? [])].find(e => e.statuses?.has?.(id));
    if (effect && typeof effect.setFlag === "function") await effect.setFlag(MODULE, "condition", id);
  }
}

/** Foundry's HP follow sawbones' when they differ (an undo, an Open Wound's extra damage, a dying check). */
export async function followHp(actor, hp) {
  const now = hpOf(actor);
  if (!now || hp == null || now.value === hp) return false;
  await actor.update(hpUpdate(hp), { [MODULE]: { echo: true } });
  return true;
}

/** The player's view kept on the actor (flags.sawbones.view.{en,fr}): what its window shows. */
export async function keepView(actor, views) {
  const kept = {};
  for (const [lang, doc] of Object.entries(views)) {
    const me = doc?.character ?? {};
    kept[lang] = { name: me.name, hp: me.hp, max_hp: me.max_hp, conditions: me.conditions ?? [],
                   injuries: me.injuries ?? [], wounds: me.wounds ?? [], afflictions: me.afflictions ?? [],
                   clock: doc?.clock?.text ?? "" };
  }
  const before = actor.getFlag(MODULE, "view");
  if (JSON.stringify(before) !== JSON.stringify(kept)) await actor.setFlag(MODULE, "view", kept);
}
