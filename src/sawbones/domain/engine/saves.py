"""The saves and checks the engine rolls itself: what applies to them, read by the roll query, and the die.

Checks (an injury's treatment, first aid on a wound) go the same way: `read_check` reads the roll
query for the healer's check on top of the sheet's bonus, `roll(..., kind="check")` rolls it.

One way for every automatic save (affliction exposure and periodic saves, answers to pending
saves: afflictions/decide.py; the triggers of a turn, a Dash or an action: turns.py) and for the
odds (odds.py, odds_reference.py): `query(...)` (roll_query.py) with a save roll, so conditions
count (PF1 sickened and shaken: -2 on saves; 5e exhausted: disadvantage on saves; 5e paralyzed:
Strength and Dexterity saves fail), not only raw modifiers.

- The flat modifier is the query's total (stacking rules, conditions through their readings,
  ability score changes included); what depends on a roll detail nobody gave (standing, in combat,
  metal armour...) stays out, as the query leaves it out.
- Advantage/disadvantage (5e): the d20 is 2d20kh1 / 2d20kl1. In a pf1e campaign they are 5e
  mechanics the GM reads (the query says so in a note): the engine does not apply them, it lists
  them under `not_applied`.
- Automatic failure: the save fails, whatever the die; no die is rolled for it.
- pf1e: a natural 1 always fails and a natural 20 always succeeds (when the d20 is known).

The save's event data carries the breakdown (`breakdown`: the sheet's value and each line with its
source), so the log shows why the bonus is what it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from .effects import stored_names
from .roll_query import Answer, Line, Source, describe_needs, query
from .roll_match import RollContext
from ...message import english

if TYPE_CHECKING:
    from ...content.rules import Rules


NORMAL, ADVANTAGE, DISADVANTAGE = "normal", "advantage", "disadvantage"
D20 = {NORMAL: "1d20", ADVANTAGE: "2d20kh1", DISADVANTAGE: "2d20kl1"}


@dataclass(frozen=True, order=True)
class SaveTerms:
    """What the roll query says about one save, reduced to what the die needs (the odds' classes)."""

    modifier: int = 0
    mode: str = NORMAL  # normal | advantage | disadvantage (always normal in pf1e)
    auto_fail: bool = False

    def label(self) -> str:
        """The key of the odds' `chance`: "-2", "0 disadvantage", "auto_fail"."""
        if self.auto_fail:
            return "auto_fail"
        return str(self.modifier) if self.mode == NORMAL else f"{self.modifier} {self.mode}"


@frozen
class SaveReading:
    """One character's save: the sheet's value, the query's terms and the breakdown with sources."""

    save: str
    sheet: int
    terms: SaveTerms
    breakdown: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def bonus(self) -> int:
        return self.sheet + self.terms.modifier


def terms_of(answer: Answer) -> SaveTerms:
    """The query's answer as the die reads it: pf1e rolls one d20 (advantage and disadvantage are notes)."""
    mode = answer.mode if answer.system == "dnd5e" else NORMAL
    return SaveTerms(answer.modifier, mode, answer.auto_fail)


def save_query(character: Any, rules: Rules, options: dict[str, Any], system: str, save: str) -> Answer:
    """The roll query for one save (fortitude, con, will...; read in the campaign's system)."""
    return query(character, rules, options, system, RollContext("save", save=save))


def save_terms(character: Any, rules: Rules, options: dict[str, Any], system: str, save: str) -> SaveTerms:
    return terms_of(save_query(character, rules, options, system, save))


def sheet_key(rules: Rules, system: str, save: str) -> tuple[str, str]:
    """(the key on the character's sheet, the ability behind it) for a save named in content.

    In a dnd5e campaign Fortitude is the Con save (vocabulary `maps_to`); in a pf1e campaign a Con
    save (a 5e injury's trigger) is Fortitude.
    """
    if save in rules.saves:
        definition = rules.saves[save]
        if system != definition.system:
            mapped = definition.maps_to.get(system, definition.ability)
            return mapped, mapped
        return save, definition.ability
    named = next((v for v in rules.saves.values() if v.system == system and v.ability == save), None)
    return (named.id, save) if named is not None else (save, save)


def sheet_bonus(character: Any, rules: Rules, system: str, save: str) -> int:
    """The sheet's value for this save (or the ability modifier behind it)."""
    key, ability = sheet_key(rules, system, save)
    sheet: dict[str, int] = dict(character.saves)
    if key in sheet:
        return sheet[key]
    modifiers: dict[str, int] = dict(character.abilities_mod())
    return sheet.get(save, modifiers.get(ability, 0))


def read(character: Any, rules: Rules, options: dict[str, Any], system: str, save: str) -> SaveReading:
    """Everything that applies to this character's save, the sheet included, with the breakdown."""
    answer = save_query(character, rules, options, system, save)
    terms = terms_of(answer)
    sheet = sheet_bonus(character, rules, system, save)
    return SaveReading(save, sheet, terms, breakdown(answer, sheet, terms, rules))


def read_check(character: Any, rules: Rules, options: dict[str, Any], system: str, roll: RollContext, sheet: int,
               disadvantage: dict[str, Any] | None = None) -> SaveReading:
    """A check the engine rolls (treatment's Medicine, first aid's Heal): the roll query for it on top of the
    sheet's bonus, as for a save. `disadvantage`: one more the rules give (self-treatment), as a line with its
    source; in 5e it cancels against any advantage like the others, in pf1e it is listed as not applied."""
    answer = query(character, rules, options, system, roll)
    terms = terms_of(answer)
    out = breakdown(answer, sheet, terms, rules)
    if disadvantage is not None:
        line = {"type": DISADVANTAGE, "source": disadvantage}
        if system == "dnd5e":
            terms = replace(terms, mode=NORMAL if answer.advantages else DISADVANTAGE)
            out["mode"] = terms.mode
            out["lines"].append(line)
        else:
            out.setdefault("not_applied", []).append(line)
    return SaveReading(roll.skill or roll.ability or roll.kind, sheet, terms, out)


# ---------------------------------------------------------------- the breakdown (event data)


def _names(name: Any) -> dict[str, Any]:
    """A source's name in English (`name`, as event data always had it) and in each language (`names`), so
    a French line says the content's French name."""
    names = stored_names(name)
    return {"name": names["en"], "names": names}


def _source(source: Source, rules: Rules) -> dict[str, Any]:
    if source.condition is None:
        ae = source.effect
        if ae is None:
            return {}
        out = {"kind": ae.kind, "id": ae.source_id, "content_id": ae.content_id, **_names(ae.name)}
        for key in ("stage", "track", "side", "site"):
            if ae.detail.get(key):
                out[key] = ae.detail[key]
        return out
    cond = rules.conditions.get(source.condition)
    out = {"kind": "condition", "id": source.condition,
           **(_names(cond.name) if cond else {"name": source.condition}),
           "from": [{"kind": o.kind, "id": o.source_id, "content_id": o.content_id, "name": english(o.name)}
                    for o in source.origins]}
    if source.via:
        out["via"] = list(source.via)
    return out


def _line(line: Line, rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"type": line.type}
    if line.value is not None:
        out["value"] = line.value
    if not line.stacks:
        out["stacks"] = False
    out["source"] = _source(line.source, rules)
    if line.needs:
        out["if"] = [str(describe_needs(n, rules)) for n in line.needs]
    return out


def breakdown(answer: Answer, sheet: int, terms: SaveTerms, rules: Rules) -> dict[str, Any]:
    """JSON-ready: the sheet, the total, and each line that counts with its source; what was left out
    (conditional lines, pf1e advantage/disadvantage) listed apart."""
    applied = [*answer.modifiers, *answer.auto_fails]
    left_out = []
    if answer.system == "dnd5e":  # both present: they cancel out, and both are shown
        applied += [*answer.advantages, *answer.disadvantages]
    else:
        left_out += [*answer.advantages, *answer.disadvantages]
    out: dict[str, Any] = {"sheet": sheet, "modifier": terms.modifier, "mode": terms.mode,
                           "auto_fail": terms.auto_fail, "lines": [_line(x, rules) for x in applied]}
    if answer.conditional:
        out["conditional"] = [_line(x, rules) for x in answer.conditional]
    if left_out:
        out["not_applied"] = [_line(x, rules) for x in left_out]
    return out


# ---------------------------------------------------------------- the die


def roll(roller: Any, system: str, reading: SaveReading, dc: int, why: str, total: int | None = None,
         d20: int | None = None, kind: str = "save") -> dict[str, Any]:
    """A save (or, kind "check", a check): the typed total, or the typed d20 (the kept one with advantage)
    plus the bonus, or a rolled d20 (2d20kh1 / 2d20kl1 with advantage / disadvantage) plus the bonus.

    An automatic failure fails whatever the total, and rolls nothing. In a pf1e campaign a natural 1
    fails and a natural 20 succeeds on a save (known only when the d20 is known), not on a check.
    """
    terms = reading.terms
    bonus = reading.bonus
    formula = D20[terms.mode]
    natural = None
    if d20 is not None:
        natural = roller.roll(formula, why, given=d20)
    elif total is None and not terms.auto_fail:
        natural = roller.roll(formula, why)
    typed = total is not None or d20 is not None
    if total is None and natural is not None:
        total = natural + bonus
    succeeded = total is not None and total >= dc
    if system == "pf1e" and natural in (1, 20) and kind == "save":
        succeeded = natural == 20
    if terms.auto_fail:
        succeeded = False
    out = {kind: reading.save, "dc": dc, "total": total, "bonus": bonus, "succeeded": succeeded, "typed": typed}
    if natural is not None:
        out["d20"] = natural
    if terms.mode != NORMAL:
        out["mode"] = terms.mode
    if terms.auto_fail:
        out["auto_fail"] = True
    out["breakdown"] = reading.breakdown
    return out


# ---------------------------------------------------------------- the chance (odds)


def d20_chance(bonus: int, dc: int, system: str, exact: bool = False) -> Any:
    """P(d20 + bonus >= dc) for one d20; in pf1e a natural 1 always fails and a natural 20 always succeeds."""
    low, high = (1, 19) if system == "pf1e" else (0, 20)
    faces = min(max(21 - (dc - bonus), low), high)
    return _exact(faces, 20) if exact else faces / 20


def _exact(numerator: int, denominator: int) -> Any:
    from fractions import Fraction  # exact odds only: a command that reads or rolls never imports fractions

    return Fraction(numerator, denominator)


def chance(terms: SaveTerms, bonus: int, dc: int, system: str, exact: bool = False) -> Any:
    """P(the save succeeds) with these terms on top of `bonus`: advantage 1 - (1 - p)^2, disadvantage p^2,
    automatic failure 0 (p: one d20, pf1e's natural 1 and 20 included, as `roll` does)."""
    if terms.auto_fail:
        return _exact(0, 1) if exact else 0.0
    p = d20_chance(bonus + terms.modifier, dc, system, exact)
    if terms.mode == ADVANTAGE:
        return 1 - (1 - p) * (1 - p)
    if terms.mode == DISADVANTAGE:
        return p * p
    return p
