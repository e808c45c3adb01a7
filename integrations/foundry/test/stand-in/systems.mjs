// The parts of the dnd5e (5.x) and pf1 (11.8+) systems the module meets, modelled on the systems' own sources
// (no code copied). Every behaviour cites where the real code does it:
//   dnd5e: github.com/foundryvtt/dnd5e at the tag named (release-5.0.0 … release-5.3.3);
//   pf1:   github.com/greylore-d20/foundryvtt-pathfinder1 at v10.8 (the last tag of the public mirror), and pf1's
//          CHANGELOG.md for 11.0–11.8 (what changed after v10.8; 11.x's code itself was not read).
// What could not be checked against source is said where it is modelled (and in docs/foundry.md).

const dnd5eStatuses = ["blinded", "charmed", "deafened", "diseased", "exhaustion", "frightened", "grappled",
  "incapacitated", "invisible", "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned",
  "unconscious", "dead", "bleeding", "burning", "concentrating"];
const pf1Statuses = ["blind", "confused", "cowering", "dazed", "dazzled", "deaf", "disabled", "dying", "energyDrained",
  "entangled", "exhausted", "fatigued", "flatFooted", "frightened", "grappled", "helpless", "invisible",
  "nauseated", "panicked", "paralyzed", "pinned", "prone", "shaken", "sickened", "stable", "staggered", "stunned",
  "unconscious", "dead"];

// dnd5e's exhaustion status effect has a fixed id (release-5.3.3 module/documents/active-effect.mjs:35,
// ActiveEffect5e.ID.EXHAUSTION = staticID("dnd5eexhaustion")); core's toggleStatusEffect keeps a status's _id.
const EXHAUSTION_ID = "dnd5eexhaustion000";

export function statusEffects(system) {
  return (system === "pf1" ? pf1Statuses : dnd5eStatuses).map(id => ({
    id, name: id, img: `icons/${id}.svg`, ...(system === "dnd5e" && id === "exhaustion" ? { _id: EXHAUSTION_ID } : {}) }));
}

const HP = "system.attributes.hp";

function versionAtLeast(version, wanted) {
  const [a, b] = String(version).split(".").map(Number);
  const [c, d] = wanted.split(".").map(Number);
  return a > c || (a === c && b >= d);
}

// ------------------------------------------------------------------ dnd5e

/** Actor5e#calculateDamage (release-5.3.3 module/documents/actor/actor.mjs:787-905): dnd5e.preCalculateDamage
 * (:804), then the multipliers, then dnd5e.calculateDamage(actor, damages, options) (:902), one options object. */
function calculateDamage(actor, damages, options) {
  damages = structuredClone(damages);
  damages.amount = 0;
  damages.temp = 0;
  damages.tempMax = 0;
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

/** Actor5e#applyDamage (release-5.3.3 module/documents/actor/actor.mjs:720-778): the updates object is built
 * (:735-741), handed to dnd5e.preApplyDamage(actor, amount, updates, options) (:754; false cancels), then to the
 * modifyTokenAttribute hook (:758), then the same object is the update (:765); dnd5e.applyDamage after (:775). */
async function applyDamage5e(actor, damages, options = {}) {
  const hp = actor.system.attributes.hp;
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

/** AttributesFields.prepareHitPoints with CharacterData's options (release-5.3.3
 * module/data/actor/templates/attributes.mjs:354-366, module/data/actor/character.mjs:239-246): a null max is
 * the HitPoints advancement's levels (each at least 1 with the Con modifier) + bonuses.level × level + overall. */
function prepare5e(actor) {
  const system = actor.system;
  const hp = system.attributes.hp;
  const con = Math.floor(((system.abilities?.con?.value ?? 10) - 10) / 2);
  const classes = (actor.items ?? []).filter(i => i.type === "class");
  const level = classes.reduce((sum, c) => sum + (c.system.levels ?? 0), 0);
  if (hp.max === null || hp.max === undefined) {
    let base = 0;
    for (const cls of classes) {
      const die = Number(String(cls.system.hd?.denomination ?? "d6").slice(1));
      const values = cls.system.advancement?.find(a => a.type === "HitPoints")?.value ?? {};
      for (const chosen of Object.values(values)) {
        const rolled = chosen === "max" ? die : chosen === "avg" ? die / 2 + 1 : Number(chosen);
        base += Math.max(rolled + con, 1);
      }
    }
    const perLevel = Number(hp.bonuses?.level || 0);
    hp.max = Math.floor(base + perLevel * level + Number(hp.bonuses?.overall || 0));
  }
  hp.value = Math.min(hp.value, hp.max + (hp.tempmax ?? 0));
  system.attributes.exhaustion ??= 0;
}

/** The effect of the exhaustion status, when the actor's level changes: ActorDataModel's _onUpdateExhaustion
 * (release-5.0.0 module/documents/actor/actor.mjs:3275-3292; release-5.3.3 :3513-3527) creates or removes it. */
async function onUpdateExhaustion5e(actor, changed, userId) {
  if (userId !== game.user.id) return;
  const level = foundry.utils.getProperty(changed, "system.attributes.exhaustion");
  if (!Number.isFinite(level)) return;
  const effect = actor.effects.get(EXHAUSTION_ID);
  if (level < 1 && effect) await effect.delete();
  else if (level >= 1 && !effect) await actor._toggleStatusEffect("exhaustion", { active: true });
}

export function dnd5e(version = "5.3") {
  return {
    version,
    statusEffects: statusEffects("dnd5e"),
    hooks: {
      prepareActor: prepare5e,
      // CharacterData#_preUpdate → AttributesFields.preUpdateHP (release-5.3.3 module/data/actor/character.mjs:262-266,
      // templates/attributes.mjs:514-521): the HP before the change kept in options.dnd5e.hp, for every update.
      preUpdateActor(actor, changed, options) {
        foundry.utils.setProperty(options, "dnd5e.hp", { ...actor.system.attributes.hp });
      },
      // CharacterData#_onUpdate → AttributesFields.onUpdateHP (templates/attributes.mjs:532-567): on every client,
      // dnd5e.damageActor / dnd5e.healActor(actor, changes, update, userId) when the HP changed.
      onUpdateActor(actor, changed, options, userId) {
        onUpdateExhaustion5e(actor, changed, userId);
        const before = options?.dnd5e?.hp;
        if (!changed.system?.attributes?.hp || !before) return;
        const now = actor.system.attributes.hp;
        const changes = { hp: now.value - before.value, temp: (now.temp ?? 0) - (before.temp ?? 0) };
        changes.total = changes.hp + changes.temp;
        if (!changes.total) return;
        Hooks.callAll(`dnd5e.${changes.total > 0 ? "heal" : "damage"}Actor`, actor, changes, changed, userId);
      },
      // 5.2 and later only: creating the exhaustion effect sets the level to 1 when it is 0, deleting it sets 0
      // (release-5.2.0 module/documents/actor/actor.mjs:3364-3369 and :3386-3390; not in release-5.1.10:3387).
      async onCreateEffect(actor, effect, userId) {
        if (!versionAtLeast(version, "5.2") || userId !== game.user.id || effect.id !== EXHAUSTION_ID) return;
        if (!actor._source.system.attributes?.exhaustion) await actor.update({ "system.attributes.exhaustion": 1 });
      },
      async onDeleteEffect(actor, effect, userId) {
        if (!versionAtLeast(version, "5.2") || userId !== game.user.id || effect.id !== EXHAUSTION_ID) return;
        if (actor._source.system.attributes?.exhaustion) await actor.update({ "system.attributes.exhaustion": 0 });
      },
    },
    /** A typed hit or a heal from a chat card's damage application. */
    applyDamage: applyDamage5e,
    heal: (actor, amount) => applyDamage5e(actor, [{ value: amount, type: "healing" }], {}),
    /** Actor5e#modifyTokenAttribute (release-5.3.3 module/documents/actor/actor.mjs:697-701): the token bar goes
     * through applyDamage, untyped. */
    tokenBar: (actor, value, isDelta) => {
      const hp = actor.system.attributes.hp;
      const delta = isDelta ? -value : (hp.value + (hp.temp ?? 0)) - value;
      return applyDamage5e(actor, delta, { isDelta });
    },
    /** The chat message of a saving throw (release-5.3.3 module/documents/actor/actor.mjs:1511-1520:
     * flags.dnd5e.messageType "roll", flags.dnd5e.roll {ability, type: "save"}). */
    saveMessage: (actor, save, total) => ({
      speaker: ChatMessage.getSpeaker({ actor }), rolls: [{ total, formula: "1d20 + 2" }],
      flags: { dnd5e: { messageType: "roll", roll: { ability: save, type: "save" } } } }),
    /** An actor as a 5.x world stores it: hp.max null (derived), the class's hd migrated (ClassData
     * #migrateHitDice, release-5.0.0 module/data/item/class.mjs:149-161). Fighter, level 1 at the die's max then
     * the average: (10 + 2) + (6 + 2) × (level − 1). */
    actor: (id, name, hp, owner, { type = "character" } = {}) => {
      const levels = Math.max(1, Math.round((hp - 12) / 8) + 1);
      const values = Object.fromEntries(Array.from({ length: levels }, (_, i) => [String(i + 1), i ? "avg" : "max"]));
      const overall = hp - (12 + 8 * (levels - 1));
      return {
        _id: id, name, type, ownership: { default: 0, [owner]: 3 }, flags: {}, effects: [],
        _stats: { systemId: "dnd5e", systemVersion: `${version}.0`, modifiedTime: 1 },
        system: { abilities: { str: { value: 10 }, dex: { value: 12 }, con: { value: 14, proficient: 1 },
                               int: { value: 10 }, wis: { value: 13 }, cha: { value: 8 } },
                  attributes: { hp: { value: hp, max: null, temp: 0, tempmax: 0,
                                      bonuses: { level: "", overall: overall ? String(overall) : "" } },
                                exhaustion: 0 },
                  details: { originalClass: "cls1" }, skills: {} },
        items: [{ _id: "cls1", name: "Fighter", type: "class",
                  system: { identifier: "fighter", levels, hd: { denomination: "d10", spent: 0, additional: "" },
                            advancement: [{ _id: "hp1", type: "HitPoints", value: values }] } }],
      };
    },
  };
}

// ------------------------------------------------------------------ pf1

/** ActorPF#_preUpdate (v10.8 module/documents/actor/actor-pf.mjs:2143-2168): an update of hp.value (or wounds,
 * vigor) without an offset becomes offset = value − max (the max of the update, or the actor's derived max), and
 * `value` is deleted — always. Core runs it before the preUpdateActor hook. */
function preUpdatePf1(actor, changed, options) {
  if (options.diff === false || options.recursive === false) return;
  const attributes = changed.system?.attributes;
  if (!attributes) return;
  for (const key of ["hp", "wounds", "vigor"]) {
    const hp = attributes[key];
    if (!hp) continue;
    if (hp.value !== undefined && hp.offset === undefined) {
      hp.offset = hp.value - (hp.max ?? actor.system.attributes[key]?.max ?? 0);
    }
    delete hp.value;
  }
}

/** The derived HP: max from the class items' hp, their favoured-class hp (v10.8
 * module/documents/actor/utils/apply-changes.mjs:644-680), the Con modifier × hit dice (:827-836) and the items'
 * changes to "mhp" (Toughness and the like; only plain numbers here), then value = max + offset (v10.8
 * module/documents/actor/actor-pf.mjs:1426-1431). The source has no value and no max. */
function preparePf1(actor) {
  const system = actor.system;
  const hp = system.attributes.hp;
  const con = Math.floor(((system.abilities?.con?.value ?? 10) - 10) / 2);
  const classes = (actor.items ?? []).filter(i => i.type === "class");
  let max = 0;
  for (const cls of classes) {
    max += Number(cls.system.hp ?? 0) + con * Number(cls.system.level ?? 0);
    if (["base", "prestige", undefined].includes(cls.system.subType)) max += Number(cls.system.fc?.hp?.value ?? 0);
  }
  for (const item of actor.items ?? []) {
    for (const change of item.system?.changes ?? []) if (change.target === "mhp") max += Number(change.formula) || 0;
  }
  hp.max = max;
  hp.value = max + Number(hp.offset ?? 0);
}

/** ActorPF.applyDamage (v10.8 module/documents/actor/actor-pf.mjs:3809-3950, the normal HP branch :3920-3950):
 * temporary HP first, then hp.value = min(value − rest, max), written only when it changes. pf1 11.8 added the
 * pf1ApplyDamage hook before it (CHANGELOG 11.8, "API"); its arguments (actor, options with value and
 * instances) are not checked against source: 11.x's code is not in the mirror. */
async function applyDamagePf1(actor, value, options = {}) {
  const hp = actor.system.attributes.hp;
  const applied = { ...options, value };
  if (Hooks.call("pf1ApplyDamage", actor, applied) === false) return false;
  const dealt = applied.value;
  const temp = hp.temp ?? 0;
  const fromTemp = dealt > 0 ? Math.min(temp, dealt) : 0;
  const update = {};
  if (fromTemp) update[`${HP}.temp`] = temp - fromTemp;
  const next = Math.min(hp.value - (dealt - fromTemp), hp.max);
  if (next !== hp.value) update[`${HP}.value`] = next;
  await actor.update(update);
  return true;
}

/** ActorPF#setConditions (v10.8 module/documents/actor/actor-pf.mjs:3576-3660): returns "Condition ID to boolean
 * mapping of actual updates", never the effect. pf1 11.6 made Actor#toggleStatusEffect go through the system's
 * conditions (CHANGELOG 11.6, "API"): modelled as returning that mapping (11.x's code not read). */
async function toggleStatusEffectPf1(actor, statusId, { active } = {}) {
  const has = actor.statuses.has(statusId);
  const state = active ?? !has;
  if (state === has) return {};
  await actor._toggleStatusEffect(statusId, { active: state, flags: { pf1: { autoDelete: true } } });
  return { [statusId]: state };
}

/** The actors' saves rolled from a chat card's enriched @Save[…] button (v10.8 module/chat/text-enrichers.mjs:
 * getRelevantActors :207-245): `as=speaker` rolls for the card's speaker; without `as`, for the user's
 * controlled tokens, else the user's assigned character (none: an error). */
function actorsForButton(message, options) {
  if (options.as === "speaker") return [game.actors.get(message.speaker?.actor)].filter(Boolean);
  const own = game.user.character ? game.actors.get(game.user.character) : null;
  if (!own) throw new Error("No valid actors found.");
  return [own];
}

export function pf1() {
  return {
    statusEffects: statusEffects("pf1"),
    hooks: { preUpdateActor: preUpdatePf1, prepareActor: preparePf1, toggleStatusEffect: toggleStatusEffectPf1 },
    applyDamage: (actor, parts, options = {}) => applyDamagePf1(actor, parts.reduce((s, p) => s + p.value, 0), {
      ...options, instances: parts.map(p => ({ value: p.value, types: p.type ? [p.type] : [] })) }),
    heal: (actor, amount) => applyDamagePf1(actor, -amount, {}),
    /** ActorPF#modifyTokenAttribute (v10.8 module/documents/actor/actor-pf.mjs:5138-5190): its own hp.value
     * update, without applyDamage. */
    tokenBar: (actor, value, isDelta) => {
      const hp = actor.system.attributes.hp;
      const delta = isDelta ? value : -((hp.temp ?? 0) + hp.value - value);
      return actor.update({ [`${HP}.value`]: Math.min(hp.value + delta, hp.max) });
    },
    /** The chat message of a saving throw: pf1's d20Roll puts its subject in flags.pf1.subject (v10.8
     * module/dice/d20roll.mjs:345; rollSavingThrow's subject {save} at module/documents/actor/actor-pf.mjs:3308);
     * 11.0 moved chat metadata — flags.pf1.subject among them — to the message's `system` (CHANGELOG 11.0, API,
     * issue 3382). */
    saveMessage: (actor, save, total) => ({
      speaker: ChatMessage.getSpeaker({ actor }), rolls: [{ total, formula: "1d20 + 5" }],
      system: { subject: { save } } }),
    /** A click on a card's @Save[save;dc=…;as=…] button (above): the save message of the actor it rolls for. */
    clickSave(message) {
      const found = /@Save\[(\w+)(?:;([^\]]*))?\]/.exec(message.content ?? "");
      if (!found) throw new Error("no @Save button on this card");
      const options = Object.fromEntries((found[2] ?? "").split(";").filter(Boolean).map(o => o.split("=")));
      return actorsForButton(message, options).map(actor => ({ actor, save: found[1] }));
    },
    /** An actor as pf1 stores it: the HP source is only offset/temp/nonlethal; its max comes from the class (hp
     * rolled, favoured-class hp) + Con × level + a Toughness-like change of +3. */
    actor: (id, name, hp, owner, { type = "character", offset = 0 } = {}) => ({
      _id: id, name, type, ownership: { default: 0, [owner]: 3 }, flags: {}, effects: [],
      _stats: { systemId: "pf1", systemVersion: "11.8", modifiedTime: 1 },
      system: { abilities: { str: { value: 10 }, dex: { value: 12 }, con: { value: 14 }, int: { value: 10 },
                             wis: { value: 13 }, cha: { value: 8 } },
                attributes: { hp: { offset, temp: 0, nonlethal: 0 },
                              savingThrows: { fort: { total: 5 }, ref: { total: 2 }, will: { total: 1 } } },
                skills: { hea: { rank: 0 } } },
      items: [{ _id: "cls1", name: "Fighter", type: "class",
                system: { level: 3, hd: 10, hp: hp - 6 - 1 - 3, fc: { hp: { value: 1 } }, subType: "base" } },
              { _id: "feat1", name: "Toughness", type: "feat",
                system: { changes: [{ _id: "ch1", formula: "3", target: "mhp", type: "untyped" }] } }],
    }),
  };
}

export const SYSTEMS = { dnd5e: dnd5e(), pf1: pf1() };
export const systemOf = (id, version) => (id === "dnd5e" ? dnd5e(version) : pf1());
