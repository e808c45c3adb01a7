"""engine/odds_symbolic.py: an int that knows it stands for `var + off`, and what a run did with it."""

from __future__ import annotations

from dataclasses import dataclass

from sawbones.domain.engine.odds_symbolic import Marker, Sym, Template, Trace, plain, symbolic


@dataclass(frozen=True)
class Rung:
    dc: int
    failures: int
    note: str = ""


def test_a_failed_check_keeps_the_variable_and_a_comparison_is_recorded():
    trace = Trace()
    dc, failures = Sym(14, "dc", 0, trace), Sym(2, "failures", 0, trace)
    after = Rung(dc + 2, failures + 1)
    assert after.dc == 16 and (after.dc.var, after.dc.off) == ("dc", 2)
    assert trace.compared == [(("dc", 1, 2), "==", (None, 0, 16), True)]  # (this very test compared it)
    trace.compared.clear()
    assert (dc - 1 >= dc) is False and not trace.compared  # the same variable: true for every DC, nothing kept
    assert failures > 0 and trace.compared == [(("failures", 1, 0), ">", (None, 0, 0), True)]
    template = Template.of([after], trace)
    assert template is not None
    assert template.holds({"dc": 10, "failures": 1}) and not template.holds({"dc": 10, "failures": 0})
    assert template.instantiate({"dc": 20, "failures": 5}) == [Rung(22, 6)]


def test_what_stays_linear_in_the_variable_is_followed():
    """A clock that reached a deadline, then the time left to a treatment's end: `target - clock` is minus the
    deadline plus a number; added back, the deadline cancels out. carry_failures' `2 x failures` is linear too."""
    trace = Trace()
    clock = Sym(86400, "deadline_at", 0, trace)
    left = 4 * 86400 - clock
    assert (left.coef, left.off) == (-1, 4 * 86400) and left == 3 * 86400
    end = clock + left
    assert type(end) is int and end == 4 * 86400
    twice = 2 * Sym(3, "failures", 0, trace)
    assert (twice.coef, twice.off, int.__int__(twice)) == (2, 0, 6) and not trace.tainted
    template = Template.of([Rung(left, twice)], trace)
    assert template.instantiate({"deadline_at": 2 * 86400, "failures": 1}) == [Rung(2 * 86400, 2)]


def test_printing_or_dividing_ties_the_run_to_its_values():
    for use in (lambda x: f"DC {x}", lambda x: x * 1.5, lambda x: [0] * 40 and int(x), lambda x: x // 2, str,
                lambda x: x + Sym(1, "other", 0, x.trace)):
        trace = Trace()
        use(Sym(12, "dc", 0, trace))
        assert trace.tainted, use
        assert Template.of([Rung(Sym(12, "dc", 0, trace), 0)], trace) is None


def test_a_sym_in_a_dict_makes_no_template_and_a_run_alone_is_plain():
    trace = Trace()
    result = [{"dc": Sym(12, "dc", 0, trace)}]
    assert Template.of(result, trace) is None
    kept = plain([Rung(Sym(12, "dc", 2, trace), 0)])[0]
    assert type(kept.dc) is int and kept.dc == 12


def test_symbolic_gives_the_markers_their_values():
    trace = Trace()
    rung = symbolic(Rung(Marker(("dc", 1, 0)), Marker(("failures", 1, 0)), "x"), {"dc": 18, "failures": 4}, trace)
    assert (rung.dc, rung.failures, rung.note) == (18, 4, "x") and isinstance(rung.dc, Sym)
