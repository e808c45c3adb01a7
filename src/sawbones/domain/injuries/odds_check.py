"""The treatment check the engine rolls (issue 17, injury odds): its formula for a healer with a bonus of 0, asked
of the engine itself (`treat` with a named healer), never written down here: 1d20, or 2d20kl1 when self-treatment
has disadvantage. The odds then count the chance of making a DC from that formula's exact distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import dice
from ...errors import RuleViolation
from ...message import msg
from . import care as injury_care
from .table import pick_row
from ..engine.odds_engine import HEALER, VICTIM, Branch, ScriptRoller, _freeze, campaign, context, victim
from ..engine.state import Injury

if TYPE_CHECKING:
    from ...content.rules import Rules


FORMULAS: dict[tuple[Any, ...], tuple[Any, str]] = {}  # (rules, options, self-treatment) -> (rules, the check's formula)


def check_formula(rules: Rules, options: dict[str, Any], self_treatment: bool) -> str:
    """The formula the engine rolls for a healer with a check bonus of 0 (self-treatment: the patient): asked of
    the engine once per (rules, options, self-treatment), its only inputs."""
    key = (id(rules), _freeze(options), self_treatment)
    hit = FORMULAS.get(key)
    if hit is None or hit[0] is not rules:
        if len(FORMULAS) > 256:
            FORMULAS.clear()
        hit = FORMULAS[key] = (rules, _ask_the_engine(rules, options, self_treatment))
    return hit[1]


def _ask_the_engine(rules: Rules, options: dict[str, Any], self_treatment: bool) -> str:
    pick = pick_row(rules, next(iter(rules.damage_tables)), 20, "standard")
    minor = Injury(id="i1", injury=pick.injury.id, table=pick.table, d20=20, severity=pick.severity, dc=HUGE_DC)
    state = campaign(victim(minor), counter=1)
    script: tuple[int, ...] = ()
    while True:
        ctx = context(state, rules, options, ScriptRoller(script))
        try:
            injury_care.treat(ctx, VICTIM, "i1", healer_name=VICTIM if self_treatment else HEALER, rolls="gm")
        except Branch as branch:
            if branch.why.startswith("treatment check"):
                return branch.formula
            script += (dice.parse(branch.formula).minimum,)
            continue
        raise RuleViolation(msg("the engine rolled no treatment check"))  # unreachable: the DC is out of reach


HUGE_DC = 10 ** 6
