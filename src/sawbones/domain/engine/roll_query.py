"""What applies to this roll? One answer across lingering injuries, localized wounds and progression tracks.
Rules: docs/rules.md "The roll query: `mods NAME ROLL`" (every seed's modifiers, read one way).

`query(character, rules, options, system, RollContext(...))` reads every active effect
(effects.py), expands conditions through their reading in the campaign's game system
(content/data/condition_readings.yaml), matches each effect's roll selectors against the roll
(roll_match.py, which also gives the roll vocabulary), and returns the total flat modifier,
advantage/disadvantage (5e: any of each cancel out; several do not stack), automatic failure, the
conditions that matter, restrictions, triggers and notes, each line with its source.

A roll detail the GM did not give (which hand, ranged or melee, which sense, metal armour...) is
never guessed when it decides whether an effect applies: such effects are listed as *conditional*,
with what they depend on, and left out of the totals.
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...content import schema as s
from ...message import Listed, Message, N_, msg
from .effects import ActiveEffect, active_effects
from .outcomes import trigger_text
from .roll_match import KINDS, NO, Need, ReadRoll, RollContext, applies, read_roll  # noqa: F401 (re-exported)
from .state import ABILITIES

if TYPE_CHECKING:
    from ...content.rules import Rules


TRIGGERS_BEFORE = {"attack": ("standard_action", "action_in_combat"),
                   "spell_dc": ("standard_action", "action_in_combat")}

# What a conditional line depends on, said for people (describe_needs): one sentence per need.
_NEEDS = {
    "wearing_metal_armor": N_("if wearing metal armour"),
    "standing": N_("if standing"),
    "in_combat": N_("if in combat"),
    "fear_source_in_sight": N_("if the source of its fear is in sight"),
    "weapon": N_("if made with a weapon"),
    ("range", "ranged"): N_("if the attack is ranged"),
    ("range", "melee"): N_("if the attack is melee"),
    ("sense", "sight"): N_("if the roll relies on sight"),
    ("sense", "hearing"): N_("if the roll relies on hearing"),
    ("hand", "left"): N_("if made with the left hand or arm"),
    ("hand", "right"): N_("if made with the right hand or arm"),
}


# ---------------------------------------------------------------- the answer


@frozen
class Source:
    """Where a line comes from: an active effect, or a condition brought by one or more of them."""

    effect: ActiveEffect | None = None
    condition: str | None = None
    origins: tuple[ActiveEffect, ...] = ()
    via: tuple[str, ...] = ()  # conditions that brought this one (5e paralyzed -> incapacitated)

    def key(self) -> tuple[str, str]:
        ae = self.effect or (self.origins[0] if self.origins else None)
        return (ae.kind, ae.source_id) if ae else ("", "")


@frozen
class Line:
    """One effect on the roll (a modifier, advantage, automatic failure, restriction, note...)."""

    type: str  # modifier | advantage | disadvantage | auto_fail | restriction | note | trigger
    source: Source
    value: int | None = None
    text: Any = None  # schema.Text (note, restriction, trigger) or None
    note: Any = None  # the effect's own note (schema.Text)
    stacks: bool = True  # False: a same-part wound or a same group that does not stack
    needs: tuple[tuple[Need, ...], ...] = ()  # conditional lines: what it depends on (alternatives)
    extra: tuple[tuple[str, Any], ...] = ()  # ability change, restriction id, suppression until...


@frozen
class ConditionLine:
    id: str
    source: Source
    reading: Any  # schema.SystemReading or None
    official: bool
    matters: bool
    superseded_by: str | None = None
    needs: tuple[tuple[Need, ...], ...] = ()


@frozen
class Answer:
    system: str
    roll: ReadRoll
    modifier: int
    mode: str  # normal | advantage | disadvantage
    auto_fail: bool
    modifiers: tuple[Line, ...] = ()
    advantages: tuple[Line, ...] = ()
    disadvantages: tuple[Line, ...] = ()
    auto_fails: tuple[Line, ...] = ()
    conditional: tuple[Line, ...] = ()
    suppressed: tuple[Line, ...] = ()
    conditions: tuple[ConditionLine, ...] = ()
    restrictions: tuple[Line, ...] = ()
    triggers: tuple[Line, ...] = ()
    notes: tuple[Line, ...] = ()
    rules: Rules | None = field(default=None, repr=False, compare=False)

    def by_source(self) -> dict[tuple[str, str], int]:
        """The flat modifier each source gives (kind, id) -> total; a condition counts under its own id."""
        out: dict[tuple[str, str], int] = {}
        for line in self.modifiers:
            if line.stacks:
                key = ("condition", line.source.condition) if line.source.condition else line.source.key()
                out[key] = out.get(key, 0) + (line.value or 0)
        return out


def describe_needs(needs: tuple[Need, ...], rules: Rules) -> Listed:
    """What a conditional line depends on, for people: "if the roll is based on Strength or Dexterity, if standing"
    (`str()` of it is the English, as the event data keeps it)."""
    def named(section: str, ident: str) -> Any:
        entry = rules.sections[section].get(ident)
        return entry.name if entry is not None else ident

    parts: list[Message] = []
    for key, value in needs:
        if key == "ability":
            parts.append(msg("if the roll is based on {abilities}",
                             abilities=Listed((named("abilities", a) for a in value), "or")))
        elif key == "skill":
            parts.append(msg("if the skill is {skills}", skills=Listed((named("skills", a) for a in value), "or")))
        elif key == "save":
            parts.append(msg("if it is a {saves} save", saves=Listed(
                (named("saves", a) if a in rules.saves else named("abilities", a) for a in value), "or")))
        elif key in ("range", "sense", "hand"):
            parts.append(msg(_NEEDS[(key, value)]))
        else:
            parts.append(msg(_NEEDS[key]))
    return Listed(parts, "")


# ---------------------------------------------------------------- the query


def _expand(direct: list[tuple[str, ActiveEffect, tuple[Any, ...]]], rules: Rules, system: str) -> list[ConditionLine]:
    """Conditions from the effects, plus those their readings bring; one line each, with every origin."""
    found: dict[str, dict[str, Any]] = {}
    queue: list[tuple[str, ActiveEffect, tuple[Any, ...], tuple[str, ...]]] = [
        (cond, ae, needs, ()) for cond, ae, needs in direct]
    while queue:
        cond, ae, needs, via = queue.pop(0)
        entry = found.setdefault(cond, {"origins": [], "via": via, "needs": needs})
        known = any(o is ae for o in entry["origins"])
        if known and (entry["needs"] == () or needs):
            continue
        if not known:
            entry["origins"].append(ae)
        if not needs:
            entry["needs"] = ()
        if len(via) < len(entry["via"]):
            entry["via"] = via
        reading = _reading(rules, cond, system)
        for effect in reading.effects if reading else ():
            if isinstance(effect, s.ConditionEffect):
                queue.append((effect.condition, ae, needs, via + (cond,)))
    out = []
    for cond, entry in found.items():
        reading = _reading(rules, cond, system)
        by = next((other for other, o in found.items() if other != cond and not o["needs"]
                   and cond in getattr(_reading(rules, other, system), "supersedes", ())), None)
        definition = rules.conditions.get(cond)
        out.append(ConditionLine(cond, Source(None, cond, tuple(entry["origins"]), entry["via"]), reading,
                                 bool(definition and system in definition.systems), False, by, entry["needs"]))
    return out


def _reading(rules: Rules, cond: str, system: str) -> Any:
    entry = rules.condition_readings.get(cond)
    return entry.reading(system) if entry else None


def query(character: Any, rules: Rules, options: dict[str, Any], system: str, roll: RollContext) -> Answer:
    """Everything that applies to one roll of one character, each line with its source."""
    r = read_roll(roll, rules, options, system)
    lines: dict[str, list[Line]] = {k: [] for k in (
        "modifier", "advantage", "disadvantage", "auto_fail", "conditional", "suppressed", "restriction",
        "trigger", "note")}
    ability_changes: list[tuple[Any, Source, tuple[Any, ...]]] = []
    direct_conditions: list[tuple[str, ActiveEffect, tuple[Any, ...]]] = []
    notes: list[tuple[Any, Source]] = []

    def consider(effect: Any, source: Source, ae: ActiveEffect | None, base_needs: tuple[Any, ...] = ()) -> None:
        if isinstance(effect, s.NoteEffect):
            notes.append((effect, source))
            return
        if isinstance(effect, s.Carrying):
            _carrying(effect, source, ae, rules, notes, direct_conditions)
            return
        status, needs = applies(effect, getattr(effect, "rolls", None), r, ae, rules, system)
        if status == NO:
            return
        needs = _join(base_needs, needs)
        if isinstance(effect, s.ConditionEffect):
            if ae is not None:  # a reading's own conditions are expanded by _expand
                direct_conditions.append((effect.condition, ae, needs))
        elif isinstance(effect, s.Restriction):
            lines["restriction"].append(Line("restriction", source, text=rules.restrictions[effect.restriction].text,
                                             note=effect.note, needs=needs,
                                             extra=(("restriction", effect.restriction),)))
        elif isinstance(effect, s.AbilityChange):
            ability_changes.append((effect, source, needs))
        elif isinstance(effect, s.Trigger):
            if effect.on in TRIGGERS_BEFORE.get(r.kind, ()) and not (effect.on == "action_in_combat"
                                                                      and r.in_combat is False):
                lines["trigger"].append(Line("trigger", source, text=trigger_text(effect, ae, rules),
                                             note=effect.note, needs=needs, extra=(("on", effect.on),)))
        elif isinstance(effect, s.MaxBonus):
            modifier = (dict(character.abilities).get(effect.ability, 10) - 10) // 2
            if modifier > effect.cap:
                lines["conditional" if needs else "modifier"].append(Line(
                    "modifier", source, value=effect.cap - modifier, note=effect.note, needs=needs,
                    extra=(("ability", effect.ability), ("max_bonus", effect.cap))))
        elif isinstance(effect, (s.Modifier, s.Advantage, s.AutoFail)):
            value = effect.value if isinstance(effect, s.Modifier) else None
            detail = ae.detail if ae is not None else {}
            extra = (("stack_group", detail["stack_group"]),) if detail.get("stack_group") else ()
            if detail.get("suppressed"):
                lines["suppressed"].append(Line(effect.type, source, value=value, note=effect.note, needs=needs,
                                                extra=extra + (("suppressed_until", detail.get("suppressed_until")),)))
            else:
                lines["conditional" if needs else effect.type].append(
                    Line(effect.type, source, value=value, note=effect.note, needs=needs, extra=extra))

    for ae in active_effects(character, rules, options):
        consider(ae.effect, Source(ae), ae)
    conditions = _expand(direct_conditions, rules, system)
    for cond in conditions:
        if cond.superseded_by or cond.reading is None:
            continue
        for effect in cond.reading.effects:
            consider(effect, cond.source, None, cond.needs)
        for roll_note in cond.reading.roll_notes:
            status, needs = applies(roll_note, roll_note.rolls, r, None, rules, system)
            if status != NO:
                lines["note"].append(Line("note", cond.source, text=roll_note.text, needs=_join(cond.needs, needs)))
    _ability_lines(character, r, ability_changes, lines, options)
    modifiers = _stack(lines["modifier"])

    # Conditions that matter to this roll (and those that brought them); the sources that bear on it.
    matters = {line.source.condition for key in ("modifier", "advantage", "disadvantage", "auto_fail",
                                                 "conditional", "note") for line in lines[key] if line.source.condition}
    matters |= {via for cond in conditions if cond.id in matters for via in cond.source.via}
    bearing = {line.source.key() for key in ("modifier", "advantage", "disadvantage", "auto_fail", "conditional",
                                             "suppressed", "trigger") for line in lines[key]}
    bearing |= {(o.kind, o.source_id) for cond in conditions if cond.id in matters for o in cond.source.origins}
    # Notes: those of the sources that bear on the roll, and those of every active condition.
    extra_notes = [Line("note", src, text=effect.text, extra=(("reason", effect.reason),))
                   for effect, src in notes if src.condition or src.key() in bearing]
    if system == "pf1e" and (lines["advantage"] or lines["disadvantage"]):
        extra_notes.append(Line("note", Source(), text=msg(
            "Advantage and disadvantage are 5e mechanics: in a PF1 campaign the GM reads them (for instance, roll "
            "two d20s and keep the higher or the lower).")))
    for cond in conditions:
        if cond.reading is None and not cond.superseded_by:
            extra_notes.append(Line("note", cond.source, text=msg(
                "The condition {condition} has no {system} reading: the GM decides what it does.",
                condition=cond.id, system=system)))
    adv, dis = bool(lines["advantage"]), bool(lines["disadvantage"])
    return Answer(
        system=system, roll=r, modifier=sum(x.value or 0 for x in modifiers if x.stacks),
        mode="normal" if adv == dis else ("advantage" if adv else "disadvantage"),
        auto_fail=bool(lines["auto_fail"]), modifiers=tuple(modifiers), advantages=tuple(lines["advantage"]),
        disadvantages=tuple(lines["disadvantage"]), auto_fails=tuple(lines["auto_fail"]),
        conditional=tuple(_stack(lines["conditional"])), suppressed=tuple(lines["suppressed"]),
        conditions=tuple(replace(c, matters=c.id in matters) for c in conditions),
        restrictions=tuple(_dedupe_restrictions(lines["restriction"])), triggers=tuple(lines["trigger"]),
        notes=tuple(lines["note"] + extra_notes), rules=rules)


@frozen
class _Note:
    """A note the engine adds itself (the carrying capacity's change): read as a content note effect is."""

    text: Message
    reason: Message


def _carrying(effect: Any, source: Source, ae: ActiveEffect | None, rules: Rules, notes: list[Any],
              direct_conditions: list[Any]) -> None:
    """A load effect: at least a medium / heavy load is the condition `<load>_load` (its reading in the system
    says what the load does); the carrying capacity is outside the sheet, so its change is a note."""
    if effect.min_load and ae is not None and f"{effect.min_load}_load" in rules.conditions:
        direct_conditions.append((f"{effect.min_load}_load", ae, ()))
    if effect.multiplier != 1:
        share = round(1 / effect.multiplier) if effect.multiplier < 1 else None
        change = f"÷ {share}" if share else f"× {effect.multiplier:g}"
        notes.append((_Note(msg("Carrying capacity {change}.", change=change),
                            msg("The sheet does not hold the carrying capacity: the GM applies it.")), source))


def _join(first: tuple[Any, ...], second: tuple[Any, ...]) -> tuple[Any, ...]:
    if not first:
        return second
    if not second:
        return first
    return tuple(a + b for a in first for b in second)


def _stack(found: list[Line]) -> list[Line]:
    """Non-stacking groups (a part's wounds: option stacking): only the strongest modifier of a group counts.

    Conditional lines group by what they depend on too: two wounds to the left hand that both wait
    on "made with the left hand" still give -2 between them.
    """
    def group(line: Line) -> Any:
        name = dict(line.extra).get("stack_group")
        return None if name is None or line.type != "modifier" else (name, line.needs)

    best: dict[Any, int] = {}
    for i, line in enumerate(found):
        key = group(line)
        if key is not None and (key not in best or abs(line.value or 0) > abs(found[best[key]].value or 0)):
            best[key] = i
    return [line if group(line) is None or best[group(line)] == i else replace(line, stacks=False)
            for i, line in enumerate(found)]


def _ability_lines(character: Any, r: ReadRoll, changes: list[Any], lines: dict[str, list[Line]],
                  options: dict[str, Any]) -> None:
    """Ability score changes (PF1 fatigued -2 Str/Dex, 5e Torn Ligament -3 Str) as modifiers on the roll's ability.

    Scores follow injuries.effective_abilities (identical reductions per stack_identical_ability_reductions,
    the lowest minimum as the floor); each source is shown with the change of modifier it makes.
    """
    stack = options.get("stack_identical_ability_reductions", True)
    scores = dict(character.abilities)
    for ability in ABILITIES:
        numeric, seen = [], set()
        for effect, source, needs in changes:
            if effect.ability != ability:
                continue
            if effect.set_ is None and not isinstance(effect.change, int):
                lines["note"].append(Line("note", source, text=msg(
                    "{ability} {change}: rolled when the effect applies.", ability=ability, change=effect.change)))
                continue
            key = (source.effect.content_id if source.effect else source.condition, ability, effect.change)
            if not stack and key in seen and effect.minimum != 0:
                continue
            seen.add(key)
            numeric.append((effect, source, needs))
        if not numeric or (r.ability is not None and r.ability != ability):
            continue
        floor = min(effect.minimum for effect, _, _ in numeric if effect.set_ is None) if any(
            effect.set_ is None for effect, _, _ in numeric) else 1
        running = scores.get(ability, 10)
        for effect, source, needs in sorted(numeric, key=lambda n: n[0].set_ is not None):  # a set score last
            before = max(running, floor)
            running = min(before, effect.set_) if effect.set_ is not None else running + effect.change
            delta = (max(running, floor) - 10) // 2 - (before - 10) // 2
            extra = (("ability", ability), ("score_change", running - before if effect.set_ is not None
                                                           else effect.change))
            if r.ability == ability and not needs:
                lines["modifier"].append(Line("modifier", source, value=delta, note=effect.note, extra=extra))
            else:
                alternatives = needs if r.ability == ability else _join(needs, ((("ability", (ability,)),),))
                lines["conditional"].append(Line("modifier", source, value=delta, note=effect.note,
                                                 needs=alternatives, extra=extra))


def _dedupe_restrictions(found: list[Line]) -> list[Line]:
    seen: set[tuple[str, Any]] = set()
    out = []
    for line in found:
        key = (dict(line.extra)["restriction"], line.needs)
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out
