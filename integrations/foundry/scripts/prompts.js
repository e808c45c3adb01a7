// Rolls sawbones routes to a player become chat cards whispered to the actor's owners (and the GMs), with the
// system's own save button. The player rolls in Foundry; the active GM's client sees the roll message and sends
// its total to sawbones as the player's answer. A secret affliction's card names nothing and shows no DC
// (the server's player prompts already leave them out).

import { MODULE, escape, t } from "./settings.js";
import { mapping, saveButton, savingThrowOf } from "./systems.js";

export function cards(actor) {
  return (game.messages?.contents ?? [...(game.messages ?? [])])
    .filter(m => m.getFlag?.(MODULE, "actor") === actor.id && m.getFlag?.(MODULE, "pending"));
}

export function cardContent(prompt) {
  const button = saveButton(prompt.save, prompt.known ? prompt.dc : null);
  const what = prompt.known ? escape(prompt.against) : `<span class="sawbones-secret">${escape(prompt.against)}</span>`;
  const roll = button ?? t("Prompt.Check", { roll: prompt.save_name });
  return `<div class="sawbones-card"><h3>${t("Prompt.Title", { name: escape(prompt.name) })}</h3>`
    + `<p>${escape(prompt.save_name)} — ${what}</p><p>${roll}</p>`
    + (prompt.modifiers_text ? `<p>${escape(prompt.modifiers_text)}</p>` : "")
    + `<p><em>${t("Prompt.Hint")}</em></p></div>`;
}

function recipients(actor) {
  return (game.users?.contents ?? [...(game.users ?? [])])
    .filter(u => u.isGM || actor.testUserPermission?.(u, "OWNER")).map(u => u.id);
}

/** One card per prompt waiting for the player; cards of prompts gone (answered, undone) are closed. */
export async function syncPrompts(actor, prompts) {
  const open = new Map(cards(actor).map(m => [m.getFlag(MODULE, "pending"), m]));
  const waiting = prompts.filter(p => p.awaiting === "player");
  for (const prompt of waiting) {
    const card = open.get(prompt.id);
    if (card && (card.getFlag(MODULE, "closed") || card.getFlag(MODULE, "answered"))) {  // back after an undo
      await card.update({ [`flags.${MODULE}.closed`]: false, [`flags.${MODULE}.answered`]: false,
                          content: cardContent(prompt) });
    }
    if (card) continue;
    await ChatMessage.create({
      content: cardContent(prompt), whisper: recipients(actor), speaker: ChatMessage.getSpeaker({ actor }),
      flags: { [MODULE]: { actor: actor.id, pending: prompt.id, save: mapping()?.saves?.[prompt.save] ?? null,
                           closed: false } },
    });
  }
  const still = new Set(waiting.map(p => p.id));
  for (const [pending, message] of open) {
    if (!still.has(pending) && !message.getFlag(MODULE, "closed")) {
      await message.update({ [`flags.${MODULE}.closed`]: true,
                             content: `${message.content}<p class="sawbones-answered">${t("Prompt.Closed")}</p>` });
    }
  }
}

/** The open card a saving throw message answers: same actor, same save, the oldest first. */
export function cardFor(message) {
  const roll = savingThrowOf(message);
  if (!roll) return null;
  const open = (game.messages?.contents ?? [...(game.messages ?? [])]).filter(m =>
    m.getFlag?.(MODULE, "actor") === roll.actorId && !m.getFlag(MODULE, "closed")
    && !m.getFlag(MODULE, "answered") && m.getFlag(MODULE, "save") === roll.save);
  return open.length ? { card: open[0], roll } : null;
}
