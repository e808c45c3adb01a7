// What differs between the dnd5e and pf1 systems: where HP live, the save button, how a roll message says
// what it rolled, and the names of conditions and damage types (data/mapping.json).

let MAPPING = null;

/** data/mapping.json, read once. */
export async function loadMapping() {
  if (!MAPPING) {
    const answer = await fetch(new URL("../data/mapping.json", import.meta.url));
    MAPPING = await answer.json();
  }
  return MAPPING;
}

export function systemId() {
  return game.system?.id;
}

export function mapping() {
  return MAPPING?.[systemId()] ?? null;
}

export function isSupported() {
  return ["dnd5e", "pf1"].includes(systemId());
}

/** The actor's HP as the system derived them (pf1: max from classes and changes, value = max + offset; dnd5e 5.x:
 * max derived when the source's is null): what the sheet shows. */
export function hpOf(actor) {
  const hp = actor?.system?.attributes?.hp;
  return hp ? { value: Number(hp.value ?? 0), max: Number(hp.max ?? 0) } : null;
}

const HP = "system.attributes.hp";

/** True when an update (as preUpdateActor or updateActor get it) changes the HP. pf1's ActorPF#_preUpdate,
 * which runs before the hooks, turns hp.value into hp.offset and deletes value; dnd5e writes hp.value. */
export function touchesHp(changed) {
  const get = key => foundry.utils.getProperty(changed, `${HP}.${key}`);
  return get("value") !== undefined || (systemId() === "pf1" && (get("offset") !== undefined || get("max") !== undefined));
}

/** The HP an update is about to give (preUpdateActor, before the change is applied), or undefined. */
export function nextHp(actor, changed) {
  if (!touchesHp(changed)) return undefined;
  const hp = foundry.utils.getProperty(changed, HP) ?? {};
  if (systemId() === "pf1" && hp.value === undefined) {
    const max = Number(hp.max ?? hpOf(actor)?.max ?? 0);
    const offset = hp.offset ?? actor.system?.attributes?.hp?.offset ?? 0;
    return max + Number(offset);
  }
  return hp.value === undefined ? hpOf(actor)?.value : Number(hp.value);
}

/** The update that sets the actor's HP to `value` (pf1 turns it into its offset itself). */
export function hpUpdate(value) {
  return { [`${HP}.value`]: value };
}

/** The sawbones damage table of a system's damage type, or null when untyped / unknown. */
export function damageTable(type) {
  if (!type) return null;
  return mapping()?.damage_types?.[String(type).toLowerCase()] ?? null;
}

/** A sawbones condition id as the system's status effect id (null: shown in the sawbones window only). */
export function statusOf(condition) {
  return mapping()?.conditions?.[condition] ?? null;
}

/** The chat-card line that lets the owner roll the save with the system's own button. */
export function saveButton(save, dc) {
  const key = mapping()?.saves?.[save];
  if (!key) return null;
  // pf1: as=speaker rolls for the card's actor, not the clicker's tokens or character (v10.8
  // module/chat/text-enrichers.mjs getRelevantActors)
  if (systemId() === "pf1") return dc == null ? `@Save[${key};as=speaker]` : `@Save[${key};dc=${dc};as=speaker]`;
  return dc == null ? `[[/save ability=${key}]]` : `[[/save ability=${key} dc=${dc}]]`;
}

/** {actorId, save, total} when a chat message is a saving throw rolled with the system's roll, else null. */
export function savingThrowOf(message) {
  const total = message?.rolls?.[0]?.total;
  const actorId = message?.speaker?.actor;
  if (total == null || !actorId) return null;
  if (systemId() === "pf1") {
    // pf1 11.0 moved chat metadata to the message's system data; before, flags.pf1.subject
    const save = message.system?.subject?.save ?? message.flags?.pf1?.subject?.save;
    return save ? { actorId, save, total } : null;
  }
  const roll = message.flags?.dnd5e?.roll;
  return roll?.type === "save" && roll.ability ? { actorId, save: roll.ability, total } : null;
}
