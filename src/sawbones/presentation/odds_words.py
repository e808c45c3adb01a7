"""What the odds' what-if shows (the CLI's `sawbones odds --party` and the dashboard's panel): the numbers per
session, which way of each is better, and a change as it is written. The numbers themselves are written by
typeset.py, as on every screen."""

from __future__ import annotations

from typing import Any

from ..i18n import Words
from .typeset import decimal

# A what-if's numbers per session (odds_party.profile), as the CLI and the dashboard name them: (key, English,
# French, which way is better: -1 fewer, +1 more). The injuries per severity are shown before them, neither way.
PER_SESSION = (
    ("healed_by_rest", "healed by a rest", "guéries par un repos", +1),
    ("bed_rest_days", "bed-rest days", "jours de repos au lit", -1),
    ("magic_only", "magic only", "magie seule", -1),
    ("permanent_losses_per_10", "permanent losses per 10 sessions", "pertes définitives pour 10 séances", -1),
)
CHANGED = 5e-3  # a what-if shows a change from the campaign's options above this (it prints two decimals)


def tone(better: int, delta: float) -> str:
    """"better", "worse" or "" (no way is better, or no change worth showing) for a change of `delta`."""
    if not better or abs(delta) <= CHANGED:
        return ""
    return "better" if delta * better > 0 else "worse"


def signed(delta: float, lang: str) -> str:
    """"+0.10" / "-0,05" (a change, two decimals)."""
    return ("+" if delta >= 0 else "-") + decimal(abs(delta), 2)


# A treatment's odds (`sawbones odds --injury T --d20 N`, the dashboard's panel): three outcomes that add up to
# 100% (healed by treatment, a part lost, out of treatment's reach), "never heals" defined once, in words, and
# what a rest does for free, said after it; the same words on both screens.
TREATMENT = Words("odds_treatment", {
    "healed": ("heals by treatment", "guérit par les soins"),
    "lost": ("hand or foot lost", "main ou pied perdu"),
    "never": ("treatment never heals it", "les soins ne la guérissent jamais"),
    "never_means": ("treatment never heals it: only magic heals this injury, or its DC is beyond the healer's "
                    "reach (a lost hand or foot is counted apart)",
                    "les soins ne la guérissent jamais : seule la magie guérit cette blessure, ou son DD est hors de "
                    "portée du soigneur (une main ou un pied perdu est compté à part)"),
    "on_average": ("on average, when it heals", "en moyenne, quand elle guérit"),
    "until_healed": ("time from the drop until treatment heals it", "temps de la chute à la guérison par les soins"),
    "attempt_takes": ("one attempt takes", "durée d'un essai"),
    "for_free": ("for free, whatever the treatment", "gratuitement, quels que soient les soins"),
    "hit_die": ("a Hit Die on a short rest (1 hour)", "un dé de vie au repos court (1 h)"),
    "long_rest": ("a long rest (8 hours)", "un repos long (8 h)"),
    "long_rests": ("{n} long rests (8 hours each)", "{n} repos longs (8 h chacun)"),
    "no_rest": ("no rest heals it", "aucun repos ne la guérit"),
})


def treatment_rows(doc: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(key, words, chance) of the three outcomes, which add up to 1: healed, a part lost, out of reach."""
    never = max(doc["never_heals"] - doc["lost"], 0.0)
    return [("healed", "healed", doc["healed"]), ("lost", "lost", doc["lost"]), ("never", "never", never)]


def rest_words(rest: dict[str, Any], lang: str) -> str:
    """What heals the injury for free ("a long rest (8 hours)"), or that no rest does."""
    free = []
    if rest["hit_die"]:
        free.append(TREATMENT.say("hit_die", lang))
    for r in rest["long_rests"]:
        free.append(TREATMENT.say("long_rest", lang) if r["n"] == 1 else TREATMENT.say("long_rests", lang, n=r["n"]))
    return (" ou " if lang == "fr" else " or ").join(free) if free else TREATMENT.say("no_rest", lang)
