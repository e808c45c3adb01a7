"""What the odds' what-if shows (the CLI's `sawbones odds --party` and the dashboard's panel): the numbers per
session, which way of each is better, and a change as it is written. The numbers themselves are written by
typeset.py, as on every screen."""

from __future__ import annotations

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
    return ("+" if delta >= 0 else "-") + decimal(abs(delta), 2, lang)
