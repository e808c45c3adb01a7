// The module's settings. Their keys are a contract (macros and other modules read them):
// sawbones.serverUrl and sawbones.campaign (world), sawbones.apiSecret (client: the GM's browser only).

export const MODULE = "sawbones";

export function registerSettings(LinkActorsMenu, onChange = () => {}) {
  const world = (key, extra = {}) => game.settings.register(MODULE, key, {
    name: `SAWBONES.Settings.${key}.Name`, hint: `SAWBONES.Settings.${key}.Hint`, scope: "world", config: true,
    type: String, default: "", onChange: () => onChange(key), ...extra,
  });
  world("serverUrl");
  world("campaign");
  game.settings.register(MODULE, "apiSecret", {
    name: "SAWBONES.Settings.apiSecret.Name", hint: "SAWBONES.Settings.apiSecret.Hint", scope: "client",
    config: true, type: String, default: "", onChange: () => onChange("apiSecret"),
  });
  // Kept by the module itself, in the GM's browser: changes waiting for the server, the last event read.
  game.settings.register(MODULE, "queue", { scope: "client", config: false, type: Array, default: [] });
  game.settings.register(MODULE, "lastEventId", { scope: "client", config: false, type: String, default: "" });
  game.settings.register(MODULE, "timeCarry", { scope: "client", config: false, type: Number, default: 0 });
  if (LinkActorsMenu) {
    game.settings.registerMenu(MODULE, "linkActors", {
      name: "SAWBONES.Link.Name", label: "SAWBONES.Link.Label", hint: "SAWBONES.Link.Hint", icon: "fas fa-link",
      type: LinkActorsMenu, restricted: true,
    });
  }
}

export function setting(key) {
  return game.settings.get(MODULE, key);
}

export function setSetting(key, value) {
  return game.settings.set(MODULE, key, value);
}

/** True in the one browser that talks to sawbones: the active GM's. */
export function isActiveGM() {
  return Boolean(game.user?.isGM) && game.users?.activeGM?.id === game.user.id;
}

export function t(key, data) {
  return data ? game.i18n.format(`SAWBONES.${key}`, data) : game.i18n.localize(`SAWBONES.${key}`);
}

export function language() {
  return game.i18n?.lang === "fr" ? "fr" : "en";
}

/** Text as HTML text: what sawbones or an actor's name says is never markup. */
export function escape(text) {
  return String(text ?? "").replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                                       "'": "&#39;" })[c]);
}
