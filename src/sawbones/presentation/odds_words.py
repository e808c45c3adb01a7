"""What the odds' what-if shows (the CLI's `sawbones odds --party` and the dashboard's panel): the numbers per
session, which way of each is better, and a change as it is written. The numbers themselves are written by
typeset.py, as on every screen."""

from __future__ import annotations

from typing import Any, Callable

from ..message import N_, Listed
from .locale import _, say
from .typeset import decimal

# A what-if's numbers per session (odds_party.profile), as the CLI and the dashboard name them: (key, words — a
# catalog msgid, said with `_()` —, which way is better: -1 fewer, +1 more). The injuries per severity are shown
# before them, neither way.
PER_SESSION: tuple[tuple[str, str, int], ...] = (
    ("healed_by_rest", N_("healed by a rest"), +1),
    ("bed_rest_days", N_("bed-rest days"), -1),
    ("magic_only", N_("magic only"), -1),
    ("permanent_losses_per_10", N_("permanent losses per 10 sessions"), -1),
)
CHANGED = 5e-3  # a what-if shows a change from the campaign's options above this (it prints two decimals)


def tone(better: int, delta: float) -> str:
    """"better", "worse" or "" (no way is better, or no change worth showing) for a change of `delta`."""
    if not better or abs(delta) <= CHANGED:
        return ""
    return "better" if delta * better > 0 else "worse"


def signed(delta: float) -> str:
    """"+0.10" / "-0,05" (a change, two decimals)."""
    return ("+" if delta >= 0 else "-") + decimal(abs(delta), 2)


# A treatment's odds (`sawbones odds --injury T --d20 N`, the dashboard's panel): three outcomes that add up to
# 100% (healed by treatment, a part lost, out of treatment's reach), "never heals" defined once, in words, and
# what a rest does for free, said after it; the same words on both screens.
TREATMENT: dict[str, Callable[[], str]] = {
    "healed": lambda: _("heals by treatment"),
    "lost": lambda: _("hand or foot lost"),
    "never": lambda: _("treatment never heals it"),
    "never_means": lambda: _("treatment never heals it: only magic heals this injury, or its DC is beyond the "
                             "healer's reach (a lost hand or foot is counted apart)"),
    "on_average": lambda: _("on average, when it heals"),
    "until_healed": lambda: _("time from the drop until treatment heals it"),
    "attempt_takes": lambda: _("one attempt takes"),
    "for_free": lambda: _("for free, whatever the treatment"),
}


def treatment_words(key: str) -> str:
    """The words of a treatment's odds (a key of TREATMENT: "healed", "never_means", …) for the reader."""
    return TREATMENT[key]()


def treatment_rows(doc: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(key, words, chance) of the three outcomes, which add up to 1: healed, a part lost, out of reach."""
    never = max(doc["never_heals"] - doc["lost"], 0.0)
    return [("healed", "healed", doc["healed"]), ("lost", "lost", doc["lost"]), ("never", "never", never)]


def rest_words(rest: dict[str, Any]) -> str:
    """What heals the injury for free ("a long rest (8 hours)"), or that no rest does."""
    free: list[str] = []
    if rest["hit_die"]:
        free.append(_("a Hit Die on a short rest (1 hour)"))
    for r in rest["long_rests"]:
        free.append(_("a long rest (8 hours)") if r["n"] == 1 else _("{n} long rests (8 hours each)", n=r["n"]))
    return say(Listed(free, "or")) if free else _("no rest heals it")
