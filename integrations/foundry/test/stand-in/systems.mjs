// The parts of the dnd5e (5.x) and pf1 (11.8+) systems the module meets, as their sources do them: the order of
// the damage hooks and their arguments, the token bar, the save roll's chat message, the status effects.

const dnd5eStatuses = ["blinded", "charmed", "deafened", "diseased", "exhaustion", "frightened", "grappled",
  "incapacitated", "invisible", "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned",
  "unconscious", "dead", "bleeding", "burning", "concentrating"];
const pf1Statuses = ["blind", "confused", "cowering", "dazed", "dazzled", "deaf", "disabled", "dying", "energyDrained",
  "entangled", "exhausted", "fatigued", "flatFooted", "frightened", "grappled", "helpless", "invisible",
  "nauseated", "panicked", "paralyzed", "pinned", "prone", "shaken", "sickened", "stable", "staggered", "stunned",
  "unconscious", "dead"];

export function statusEffects(system) {
  return (system === "pf1" ? pf1Statuses : dnd5eStatuses).map(id => ({ id, name: id, img: `icons/${id}.svg` }));
}

const HP = "system.attributes.hp";

// ------------------------------------------------------------------ dnd5e

/** Actor5e#calculateDamage: hooks dnd5e.preCalculateDamage / dnd5e.calculateDamage(actor, damages, options). */
function calculateDamage(actor, damages, options) {
  damages = structuredClone(damages);
  damages.amount = 0;
  damages.temp = 0;
  if (Hooks.call("dnd5e.preCalculateDamage", actor, damages, options) === false) return false;
  for (const d of damages) {
    let value = d.value * (options.multiplier ?? 1);
    if (d.type === "healing") value *= -1;
    d.value = value;
    if (d.type === "temphp") damages.temp += value;
    else damages.amount += value;
  }
  damages.amount = Math.trunc(damages.amount);
  if (Hooks.call("dnd5e.calculateDamage", actor, damages, options) === false) return false;
  return damages;
}

/** Actor5e#applyDamage(damages, options): one options object through every hook; the update itself has none. */
async function applyDamage5e(actor, damages, options = {}) {
  const hp = foundry.utils.getProperty(actor, HP);
  if (typeof damages === "number") {
    damages = [{ value: damages }];
    options.ignore ??= true;
  }
  const summary = calculateDamage(actor, damages, options);
  if (!summary) return actor;
  const { amount, temp } = summary;
  const deltaTemp = amount > 0 ? Math.min(hp.temp ?? 0, amount) : 0;
  const deltaHP = Math.max(Math.min(amount - deltaTemp, hp.value), -(hp.max - hp.value));
  const updates = { [`${HP}.temp`]: (hp.temp ?? 0) - deltaTemp, [`${HP}.value`]: hp.value - deltaHP };
  if (temp > updates[`${HP}.temp`]) updates[`${HP}.temp`] = temp;
  if (Hooks.call("dnd5e.preApplyDamage", actor, amount, updates, options) === false) return actor;
  if (Hooks.call("modifyTokenAttribute", { attribute: "attributes.hp", value: amount, isDelta: false, isBar: true },
                 updates) === false) return actor;
  await actor.update(updates);
  Hooks.callAll("dnd5e.applyDamage", actor, amount, options);
  return actor;
}

export const dnd5e = {
  statusEffects: statusEffects("dnd5e"),
  hooks: {
    // CharacterData#_preUpdate keeps the HP before the change in the options (onUpdateHP reads it)
    preUpdateActor(actor, changed, options) {
      if (foundry.utils.getProperty(changed, HP)) foundry.utils.setProperty(options, "dnd5e.hp", { ...actor.system.attributes.hp });
    },
    // onUpdateHP: dnd5e.damageActor / dnd5e.healActor(actor, changes, update, userId) on every client
    updateActor(actor, changed, options, userId) {
      const before = options?.dnd5e?.hp;
      if (!foundry.utils.getProperty(changed, HP) || !before) return;
      const now = actor.system.attributes.hp;
      const changes = { hp: now.value - before.value, temp: (now.temp ?? 0) - (before.temp ?? 0) };
      changes.total = changes.hp + changes.temp;
      if (!changes.total) return;
      Hooks.callAll(`dnd5e.${changes.total > 0 ? "heal" : "damage"}Actor`, actor, changes, changed, userId);
    },
  },
  /** A typed hit or a heal from a chat card's damage application. */
  applyDamage: applyDamage5e,
  heal: (actor, amount) => applyDamage5e(actor, [{ value: amount, type: "healing" }], {}),
  /** Actor5e#modifyTokenAttribute: the token bar goes through applyDamage, untyped. */
  tokenBar: (actor, value, isDelta) => {
    const hp = actor.system.attributes.hp;
    const delta = isDelta ? -value : (hp.value + (hp.temp ?? 0)) - value;
    return applyDamage5e(actor, delta, { isDelta });
  },
  /** The chat message of a saving throw rolled with [[/save ability=con]] (flags.dnd5e.roll). */
  saveMessage: (actor, save, total) => ({
    speaker: ChatMessage.getSpeaker({ actor }), rolls: [{ total, formula: "1d20 + 2" }],
    flags: { dnd5e: { messageType: "roll", roll: { ability: save, type: "save" } } } }),
  actor: (id, name, hp, owner) => ({
    _id: id, name, type: "character", ownership: { default: 0, [owner]: 3 }, flags: {}, effects: [],
    _stats: { systemId: "dnd5e", modifiedTime: 1 },
    system: { abilities: { str: { value: 10 }, dex: { value: 12 }, con: { value: 14, proficient: 1 },
                           int: { value: 10 }, wis: { value: 13 }, cha: { value: 8 } },
              attributes: { hp: { value: hp, max: hp, temp: 0 } }, skills: {} },
    items: [{ _id: "cls1", name: "Fighter", type: "class", system: { levels: 3, hitDice: "d10", hitDiceUsed: 0 } }],
  }),
};

// ------------------------------------------------------------------ pf1

/** ActorPF#applyDamage(value, options): pf1ApplyDamage(actor, options) first (false cancels), then the update. */
async function applyDamagePf1(actor, value, options = {}) {
  const hp = actor.system.attributes.hp;
  const applied = { ...options, value };
  if (Hooks.call("pf1ApplyDamage", actor, applied) === false) return false;
  let dt = applied.value;
  const temp = hp.temp ?? 0;
  const fromTemp = dt > 0 ? Math.min(temp, dt) : 0;
  dt -= fromTemp;
  const next = dt > 0 ? hp.value - dt : Math.min(hp.max, hp.value - dt);
  await actor.update({ [`${HP}.value`]: next, [`${HP}.temp`]: temp - fromTemp });
  return true;
}

export const pf1 = {
  statusEffects: statusEffects("pf1"),
  hooks: {},
  applyDamage: (actor, parts, options = {}) => applyDamagePf1(actor, parts.reduce((s, p) => s + p.value, 0), {
    ...options, instances: parts.map(p => ({ value: p.value, types: p.type ? [p.type] : [] })) }),
  heal: (actor, amount) => applyDamagePf1(actor, -amount, {}),
  /** ActorPF#modifyTokenAttribute: its own update, without applyDamage. */
  tokenBar: (actor, value, isDelta) => {
    const hp = actor.system.attributes.hp;
    return actor.update({ [`${HP}.value`]: isDelta ? hp.value + value : value });
  },
  /** The chat message of a save rolled with @Save[fort] (flags.pf1.subject.save). */
  saveMessage: (actor, save, total) => ({
    speaker: ChatMessage.getSpeaker({ actor }), rolls: [{ total, formula: "1d20 + 5" }],
    flags: { pf1: { subject: { save } } } }),
  actor: (id, name, hp, owner) => ({
    _id: id, name, type: "character", ownership: { default: 0, [owner]: 3 }, flags: {}, effects: [],
    _stats: { systemId: "pf1", modifiedTime: 1 },
    system: { abilities: { str: { value: 10 }, dex: { value: 12 }, con: { value: 14 }, int: { value: 10 },
                           wis: { value: 13 }, cha: { value: 8 } },
              attributes: { hp: { value: hp, max: hp, temp: 0 },
                            savingThrows: { fort: { total: 5 }, ref: { total: 2 }, will: { total: 1 } } },
              skills: { hea: { rank: 0 } } },
    items: [{ _id: "cls1", name: "Fighter", type: "class", system: { level: 3, hd: 10, hp: 25 } }],
  }),
};

export const SYSTEMS = { dnd5e, pf1 };
