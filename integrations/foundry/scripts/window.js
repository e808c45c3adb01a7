// The sawbones window of an actor: its injuries, wounds and afflictions with the player's page's own words
// (the player view the GM's client keeps on the actor, in the user's language). Players see it too: nothing
// in it comes from their browser talking to sawbones.

import { MODULE, escape, language, t } from "./settings.js";

function list(title, items, line) {
  const body = items.length ? `<ul>${items.map(i => `<li>${line(i)}</li>`).join("")}</ul>` : `<p>${t("Window.None")}</p>`;
  return `<section><h3>${escape(title)}</h3>${body}</section>`;
}

/** The window's HTML for an actor (what the player's page says of the character). */
export function viewHtml(actor) {
  const views = actor.getFlag?.(MODULE, "view");
  const view = views?.[language()] ?? views?.en;
  if (!view) return `<p>${t("Window.Unlinked")}</p>`;
  const injury = i => `<strong>${escape(i.name)}</strong> (${escape(i.severity_name)})${i.site ? ` — ${escape(i.site)}` : ""}`
    + `: ${escape(i.effect ?? i.text)}${i.next_step ? `<br><em>${escape(i.next_step)}</em>` : ""}`;
  const wound = w => `<strong>${escape(w.name ?? w.part ?? w.id)}</strong>${w.affects ? `: ${escape(w.affects)}` : ""}`
    + (w.heals_by?.length ? `<br><em>${escape([].concat(w.heals_by).join(" · "))}</em>` : "");
  const stage = a => (a.tracks ?? []).map(track => `${escape(track.name)}: ${escape(track.stage_name)}`).join(" · ");
  const affliction = a => a.known
    ? `<strong>${escape(a.name)}</strong>${stage(a) ? ` — ${stage(a)}` : ""}`
      + `${a.next_save?.in_text ? `<br><em>${escape(a.next_save.in_text)}</em>` : ""}${a.cure ? `<br>${escape(a.cure)}` : ""}`
    : `<strong>${escape(a.name)}</strong>${a.symptoms?.length ? `: ${escape(a.symptoms.join(" "))}` : ""}`;
  const condition = c => `${escape(c.name)}${c.source ? ` (${escape(c.source)})` : ""}`;
  return `<div class="sawbones-window"><p>${escape(view.name)} — ${view.hp}/${view.max_hp} ${t("Window.Hp")}`
    + ` · ${escape(view.clock)}</p>`
    + list(t("Window.Conditions"), view.conditions, condition)
    + list(t("Window.Injuries"), view.injuries, injury)
    + list(t("Window.Wounds"), view.wounds, wound)
    + list(t("Window.Afflictions"), view.afflictions, affliction) + "</div>";
}

export function windowClass() {
  const Base = foundry.applications.api.ApplicationV2;
  return class SawbonesWindow extends Base {
    static DEFAULT_OPTIONS = { classes: ["sawbones"], window: { title: "SAWBONES.Window.Title", resizable: true },
                               position: { width: 420, height: "auto" } };

    constructor(actor, options = {}) {
      super({ id: `sawbones-${actor.id}`, ...options });
      this.actor = actor;
    }

    get title() {
      return t("Window.TitleOf", { name: this.actor.name });
    }

    async _renderHTML() {
      return viewHtml(this.actor);
    }

    _replaceHTML(result, content) {
      content.innerHTML = result;
    }
  };
}
