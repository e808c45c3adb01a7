"""What a player may see (issue 12): the GM's secrets kept out of everything a player's link shows.

- An affliction the player does not know (domain/afflictions/secrets.py) shows its symptoms (the texts of the stages
  reached, the conditions they give) and nothing else: no name, DC, track, ladder or cure; wherever it is
  the source of a modifier or a condition, it is "a sickness you cannot name".
- Secret deadlines (an injury's 1d4 days) only with the option `reveal_deadline`; no rolls, no GM notes.
- Events of the log: only this character's, and one about an affliction the player does not know is told
  without its name or numbers.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from ....domain.afflictions.secrets import is_known
from ....presentation.locale import _, name

if TYPE_CHECKING:
    from ....content.rules import Rules


def unknown_name() -> str:
    """What a player reads for an affliction they do not know."""
    return _("a sickness you cannot name")

AFFLICTION_EVENTS = ("affliction_contracted", "affliction_changed", "affliction_saved", "affliction_recovered",
                     "affliction_spell", "affliction_exposed", "affliction_removed", "affliction_diagnosed",
                     "save_pending", "affliction_known")
GM_ONLY_EVENTS = ("affliction_known", "affliction_diagnosed", "answer_rejected")


def unknown_afflictions(state: Any, options: dict[str, Any], character: Any) -> dict[str, str]:
    """{instance id: content id} of the character's afflictions the player does not know, and {pending id:
    content id} of the exposures whose initial save waits while afflictions are secret (afflictions_known false:
    the save's own line names the affliction and its DC)."""
    unknown = {a.id: a.affliction for a in character.afflictions if not is_known(state, options, character.id, a.id)}
    if not options.get("afflictions_known", True):
        unknown.update({p.id: p.content for p in state.pending
                        if p.character == character.id and p.kind == "exposure" and p.content})
    return unknown


def mask(value: Any, unknown: dict[str, str]) -> Any:
    """Any document with every source that is an unknown affliction replaced by "a sickness you cannot name"."""
    if isinstance(value, dict):
        if value.get("kind") == "affliction" and value.get("id") in unknown:
            return {"kind": "affliction", "id": value["id"], "name": unknown_name()}
        return {k: mask(v, unknown) for k, v in value.items()}
    if isinstance(value, list):
        return [mask(v, unknown) for v in value]
    return value


def symptoms(a: Any, rules: Rules) -> list[str]:
    """The texts of the stages reached (what the player feels), without the track's or the stages' names."""
    from ....domain.afflictions.rules import reached_stages

    out = []
    for _track, stage in reached_stages(rules, a):
        if stage.text is not None:
            out.append(name(stage.text))
    return out


def about_unknown(event: dict[str, Any], unknown: dict[str, str]) -> bool:
    """Whether a stored event tells of an affliction the player does not know (its own events, and the hit point
    losses and deaths it causes: their `why` or `cause` names it)."""
    d = event.get("data") or {}
    if event["type"] not in AFFLICTION_EVENTS:
        told = " ".join(str(d.get(key, "")) for key in ("why", "cause", "source"))
        steps = {(r.get("source") or {}).get("id") for r in d.get("results") or () if isinstance(r, dict)}
        return any(content in told for content in unknown.values()) or bool(steps & set(unknown))  # a moment's steps
    state = d.get("state") if isinstance(d.get("state"), dict) else {}
    ids = {d.get("affliction"), d.get("instance"), state.get("id")}
    contents = {d.get("content"), d.get("affliction"), state.get("affliction")}
    return bool(ids & set(unknown)) or bool(contents & set(unknown.values()))


def player_line(event: dict[str, Any], text: str, character: Any, unknown: dict[str, str]) -> str | None:
    """The line a player reads for one of their character's events, or None when it is the GM's alone."""
    if event["type"] in GM_ONLY_EVENTS:
        return None
    if about_unknown(event, unknown):
        return _("{who}: a sickness you cannot name takes its course", who=character.name)
    return _without_id(event, text)


def _without_id(event: dict[str, Any], text: str) -> str:
    """The line without the pending roll's id (the GM's handle for `answer p7`; the player answers on the page):
    "…waits for the player's die: p7" ends at "die"; "answers p7", "answers the roll asked"."""
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    pid = str(data.get("id") or "")
    if not pid or not pid.startswith("p") or event["type"] not in ("save_pending", "answer_proposed"):
        return text
    if text.endswith(pid):
        return text[:-len(pid)].rstrip().rstrip(":").rstrip()
    return text.replace(_("answers {id}", id=pid), _("answers the roll asked"))


SECRET_KEYS = frozenset({"rolls", "d20", "deadline_at", "deadline_in", "seed", "notes", "next_save", "remaining",
                         "failures", "pending", "onset_stages", "hidden", "secret"})


def scrub(value: Any, hidden: frozenset[str] = SECRET_KEYS) -> Any:
    """A document without the keys a player may not read (hidden rolls, secret deadlines, GM notes), at any depth."""
    if isinstance(value, dict):
        return {k: scrub(v, hidden) for k, v in value.items() if k not in hidden}
    if isinstance(value, list):
        return [scrub(v, hidden) for v in value]
    return value
