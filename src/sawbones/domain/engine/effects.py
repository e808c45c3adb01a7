"""What is active on a character right now, from all three rules, each effect with its source.

Each rule module registers a provider; the roll query, the status view and the engine read
effects through `active_effects` only. Providers drop effects whose `if_option` does not match
the campaign's options and resolve the guards they own (an extremity injury's hand/foot site);
guards that depend on the roll (metal armour, standing, in combat) are left to the roll query.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ...frozen import frozen
from ...content import schema as s
from ...message import english

if TYPE_CHECKING:
    from ...content.rules import Rules


@frozen
class ActiveEffect:
    effect: Any  # one of the content schema's effect models
    kind: str  # "injury" | "wound" | "affliction"
    source_id: str  # the instance id on the character (i3, w2, d5, t6)
    content_id: str  # the content entry (fire/severe_burn, hand, giant_scorpion_venom)
    name: Any  # schema.Text (the content's words) or a Message: the source's display name
    detail: dict[str, Any] = field(default_factory=dict)  # side, site, stage ...

    def source(self) -> dict[str, Any]:
        """Where a line comes from, as event data keeps it (its name in English: presentation/roll_answer.py's
        effect_source says it in the reader's language)."""
        return {"kind": self.kind, "id": self.source_id, "content_id": self.content_id,
                "name": english(self.name), **self.detail}


def stored_names(name: Any) -> dict[str, str]:
    """A source's name as event data keeps it, {"en": …, "fr": …} (the shape old campaigns have): the content's own
    words, or a Message's English in both when the engine named it itself (a reader falls back to English)."""
    en = english(name)
    fr = getattr(name, "fr", None)
    return {"en": en, "fr": fr if isinstance(fr, str) else en}


Provider = Callable[[Any, Any, dict[str, Any]], Iterable[ActiveEffect]]
_PROVIDERS: list[Provider] = []


def provider(fn: Provider) -> Provider:
    _PROVIDERS.append(fn)
    return fn


def option_matches(effect: Any, options: dict[str, Any]) -> bool:
    wanted = getattr(effect, "if_option", None) or {}
    return all(options.get(key) == value for key, value in wanted.items())


def replaced(character: Any, active: ActiveEffect) -> bool:
    """A source's condition effect with a `duration_option` that a timed condition stands for (conditions.py)."""
    effect = active.effect
    if not getattr(effect, "duration_option", None):
        return False
    return any(t.replaces and t.source_id == active.source_id and t.condition == effect.condition
               for t in getattr(character, "conditions", ()))


def active_effects(character: Any, rules: Rules, options: dict[str, Any]) -> list[ActiveEffect]:
    _load_providers()
    out: list[ActiveEffect] = []
    for fn in _PROVIDERS:
        out.extend(e for e in fn(character, rules, options)
                   if option_matches(e.effect, options) and not replaced(character, e))
    if options.get("multi_affliction_stacking") == "worst_only":
        out = _worst_affliction_only(out, rules)
    return out


def _worst_affliction_only(found: list[ActiveEffect], rules: Rules) -> list[ActiveEffect]:
    """multi_affliction_stacking worst_only: of several afflictions, only the stage effects of the one furthest
    down its track count (the share of its track it has gone through; a tie: the first contracted). Lasting
    harm (ability damage, permanent conditions) stays."""
    def depth(ae: ActiveEffect) -> float:
        track = rules.tracks.get(ae.detail.get("track") or "")
        ids = [stage.id for stage in track.stages] if track is not None else []
        return ids.index(ae.detail["stage"]) / max(1, len(ids) - 1) if ae.detail.get("stage") in ids else 0.0

    staged = [ae for ae in found if ae.kind == "affliction" and ae.detail.get("track")]
    worst: dict[str, float] = {}
    for ae in staged:
        worst[ae.source_id] = max(worst.get(ae.source_id, 0.0), depth(ae))
    if len(worst) < 2:
        return found
    keep = max(worst, key=lambda key: worst[key])
    return [ae for ae in found if ae not in staged or ae.source_id == keep]


def triggers_on(character: Any, rules: Rules, options: dict[str, Any], on: str) -> list[ActiveEffect]:
    """The active triggers that fire on `on` (turn_start, damaged, dash, ...)."""
    return [e for e in active_effects(character, rules, options) if isinstance(e.effect, s.Trigger) and e.effect.on == on]


def conditions(character: Any, rules: Rules, options: dict[str, Any]) -> list[tuple[str, ActiveEffect]]:
    """Conditions imposed by the rules, each with its source (unguarded ones only)."""
    return [(e.effect.condition, e) for e in active_effects(character, rules, options)
            if isinstance(e.effect, s.ConditionEffect) and not e.effect.while_]


_LOADED = False


def _load_providers() -> None:
    """Import the rule modules once (sawbones.domain.RULE_MODULES) so their providers are registered."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        from importlib import import_module

        from .. import RULE_MODULES

        for name in RULE_MODULES:
            import_module(name)
