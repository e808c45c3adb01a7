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

export function hpOf(actor) {
  const hp = actor?.system?.attributes?.hp;
  return hp ? { value: Number(hp.value ?? 0), max: Number(hp.max ?? 0) } : null;
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
  if (systemId() === "pf1") return dc == null ? `@Save[${key}]` : `@Save[${key};dc=${dc}]`;
  return dc == null ? `[[/save ability=${key}]]` : `[[/save ability=${key} dc=${dc}]]`;
}

/** {actorId, save, total} when a chat message is a saving throw rolled with the system's roll, else null. */
export function savingThrowOf(message) {
  const total = message?.rolls?.[0]?.total;
  const actorId = message?.speaker?.actor;
  if (total == null || !actorId) return null;
  if (systemId() === "pf1") {
    const save = message.flags?.pf1?.subject?.save;
    return save ? { actorId, save, total } : null;
  }
  const roll = message.flags?.dnd5e?.roll;
  return roll?.type === "save" && roll.ability ? { actorId, save: roll.ability, total } : null;
}
