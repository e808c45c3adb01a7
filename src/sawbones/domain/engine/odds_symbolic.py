"""One engine run standing for many (issue 17): integers that know what they stand for.

The injury odds ask the engine the same question about states that differ only in a few integers (the
treatment DC, failures and deadline of an injury: the rungs of its ladder, DC 10, 12, 14...). A `Sym` is an
int with its concrete value that also says it is `coef x var + off` for a named variable; the engine runs on
it as on any int. What the run did with it is traced:

- adding, subtracting or multiplying by a plain int gives another `Sym` (the DC + 2 of a failed check, the
  time left from a clock that reached the deadline); where the variable cancels out, a plain int;
- comparing it gives the concrete answer and records the comparison (`failures > 0`), to be asked again of
  other values of the variables; a comparison in which the variable cancels out needs no record (D - 1 >= D);
- anything else (dividing, a float, printing, indexing, an int() of it, two variables together) *taints* the
  trace: the run's result then holds for these very values only.

`Template.of(result, trace)` keeps a run's result with its variables left as markers; `Template.holds(env)`
says whether every recorded comparison comes out the same for other values, and `instantiate(env)` gives the
result for them, without running the engine again. A tainted trace makes no template: the run stands for
itself. Nothing here knows a rule: which integers are variables is the caller's choice.

Not seen: C code that reads an int subclass's value without asking it (an index `seq[x]`, `range(x)`,
`"%d" % x`). No decision the odds run uses their variables so; tests/test_odds_injury.py compares every chain
built this way with one engine run per state, under six option sets, and would show it.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, Callable

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class Trace:
    """What a run did with its `Sym`s: the comparisons it made (each with its answer), and whether it used one
    in a way that ties its result to these values."""

    def __init__(self) -> None:
        # (left side, comparison, right side, answer); a side is (variable or None, coefficient, offset)
        self.compared: list[tuple[Side, str, Side, bool]] = []
        self.tainted = False

    def holds(self, env: dict[str, int]) -> bool:
        """Every recorded comparison gives the same answer with the variables at `env`."""
        for left, op, right, answer in self.compared:
            if _COMPARE[op](_value(left, env), _value(right, env)) != answer:
                return False
        return True


Side = tuple[str | None, int, int]  # coefficient x variable + offset (no variable: the offset alone)


def _value(side: Side, env: dict[str, int]) -> int:
    var, coef, off = side
    return off if var is None else coef * env[var] + off


class Sym(int):
    """An int that is `coef x var + off` in one traced run (see the module doc)."""

    var: str
    coef: int
    off: int
    trace: Trace

    def __new__(cls, value: int, var: str, off: int, trace: Trace, coef: int = 1) -> "Sym":
        made = super().__new__(cls, value)
        made.var, made.coef, made.off, made.trace = var, coef, off, trace
        return made

    def _plain(self) -> int:
        return int.__int__(self)

    def _taint(self) -> int:
        self.trace.tainted = True
        return self._plain()

    def _foreign(self) -> Any:
        """An operand that is not an int (a float, a Fraction, a string): the other side computes with the
        concrete value (C code that reads the int itself, for a float), so the run stands for these values."""
        self.trace.tainted = True
        return NotImplemented

    def _linear(self, value: int, coef: int, off: int) -> Any:
        """`coef x var + off`: a plain int when the variable cancels out (the same for every value of it)."""
        return off if coef == 0 else Sym(value, self.var, off, self.trace, coef)

    # ---- arithmetic that stays linear in the variable
    def __add__(self, other: Any) -> Any:
        if type(other) is int:
            return self._linear(self._plain() + other, self.coef, self.off + other)
        if isinstance(other, Sym) and other.var == self.var:
            return self._linear(self._plain() + other._plain(), self.coef + other.coef, self.off + other.off)
        if isinstance(other, int):  # another variable, a bool
            return self._taint() + int(other)
        return self._foreign()

    __radd__ = __add__

    def __neg__(self) -> Any:
        return self._linear(-self._plain(), -self.coef, -self.off)

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, int) and (type(other) is int or isinstance(other, Sym) and other.var == self.var):
            return self + (-other)
        if isinstance(other, int):
            return self._taint() - int(other)
        return self._foreign()

    def __rsub__(self, other: Any) -> Any:
        if type(other) is int:
            return (-self) + other
        if isinstance(other, int):
            return int(other) - self._taint()
        return self._foreign()

    def __mul__(self, other: Any) -> Any:
        if type(other) is int:
            return self._linear(self._plain() * other, self.coef * other, self.off * other)
        if isinstance(other, int):
            return self._taint() * int(other)
        return self._foreign()

    __rmul__ = __mul__

    # ---- comparisons: answered, and recorded
    def _side(self) -> Side:
        return (self.var, self.coef, self.off)

    def _compare(self, op: str, other: Any) -> Any:
        if isinstance(other, Sym):
            answer = _COMPARE[op](self._plain(), other._plain())
            if other.var == self.var and other.coef == self.coef:
                return answer  # (the variable cancels: the same answer for every value of it)
            self.trace.compared.append((self._side(), op, other._side(), answer))
            return answer
        if isinstance(other, int):  # (bool included)
            answer = _COMPARE[op](self._plain(), int(other))
            self.trace.compared.append((self._side(), op, (None, 0, int(other)), answer))
            return answer
        if isinstance(other, numbers.Number):  # a float, a Fraction: compared with the concrete value
            return self._foreign()
        return NotImplemented  # (None, a string: unequal whatever the value)

    def __eq__(self, other: Any) -> Any:
        return self._compare("==", other)

    def __ne__(self, other: Any) -> Any:
        return self._compare("!=", other)

    def __lt__(self, other: Any) -> Any:
        return self._compare("<", other)

    def __le__(self, other: Any) -> Any:
        return self._compare("<=", other)

    def __gt__(self, other: Any) -> Any:
        return self._compare(">", other)

    def __ge__(self, other: Any) -> Any:
        return self._compare(">=", other)

    def __bool__(self) -> bool:
        return bool(self._compare("!=", 0))

    __hash__ = int.__hash__  # the concrete value's: equal Syms of a run have equal values

    # ---- everything else ties the result to these values
    def __int__(self) -> int:
        return self._taint()

    def __index__(self) -> int:
        return self._taint()

    def __repr__(self) -> str:
        return repr(self._taint())

    def __str__(self) -> str:
        return str(self._taint())

    def __format__(self, spec: str) -> str:
        return format(self._taint(), spec)

    def __reduce__(self) -> Any:
        return (int, (self._taint(),))


def _tainting(name: str) -> Callable[..., Any]:
    method = getattr(int, name)

    def tainted(self: Sym, *args: Any) -> Any:
        return method(self._taint(), *(int(a) if isinstance(a, Sym) else a for a in args))

    tainted.__name__ = name
    return tainted


for _name in ("__floordiv__", "__rfloordiv__", "__truediv__", "__rtruediv__", "__mod__",
              "__rmod__", "__divmod__", "__rdivmod__", "__pow__", "__rpow__", "__lshift__", "__rlshift__",
              "__rshift__", "__rrshift__", "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__",
              "__pos__", "__abs__", "__invert__", "__float__", "__round__", "__trunc__",
              "__floor__", "__ceil__", "bit_length", "bit_count", "to_bytes", "as_integer_ratio", "conjugate"):
    setattr(Sym, _name, _tainting(_name))
for _name in ("numerator", "denominator", "real", "imag"):
    setattr(Sym, _name, property(lambda self: self._taint()))


class Marker(tuple[str, int, int]):
    """A variable's place in a template: (variable, coefficient, offset)."""


_ATOMS = frozenset({str, bool, float, type(None)})  # (and Fraction, any other value: never walked into)


def _walk(value: Any, leaf: Callable[[Any], Any], holed: set[int] | None = None, made: set[int] | None = None) -> Any:
    """`value` rebuilt with `leaf` applied to every `Sym` and marker inside its dataclasses, tuples and lists.
    `holed`: the ids of the containers that hold one; any other is given back as it is (values are frozen: a
    template's unchanged parts are shared by every instance). `made`: gets the ids of the containers rebuilt."""
    kind = type(value)
    if kind is Sym or kind is Marker:
        return leaf(value)
    if kind is int or kind in _ATOMS or (holed is not None and id(value) not in holed):
        return value
    new: Any
    if kind is tuple:
        new = tuple([_walk(v, leaf, holed, made) for v in value])
    elif kind is list:
        new = [_walk(v, leaf, holed, made) for v in value]
    elif hasattr(kind, "__dataclass_fields__"):
        new = object.__new__(kind)
        new.__dict__.update({k: _walk(v, leaf, holed, made) for k, v in value.__dict__.items()})
    else:
        return value
    if made is not None:
        made.add(id(new))
    return new


def _holes(value: Any, into: set[int]) -> bool:
    """Whether `value` holds a `Sym`; the ids of the containers that do are added to `into`."""
    kind = type(value)
    if kind is Sym:
        return True
    if kind is tuple or kind is list:
        inside = [_holes(v, into) for v in value]
    elif kind is not int and kind not in _ATOMS and hasattr(kind, "__dataclass_fields__"):
        inside = [_holes(v, into) for v in value.__dict__.values()]
    elif kind in (dict, set, frozenset):  # not rebuilt: one holding a Sym makes the result these values' only
        if any(_holes(v, set()) for v in ([*value, *value.values()] if kind is dict else value)):
            raise _Loose
        return False
    else:
        return False
    if any(inside):
        into.add(id(value))
        return True
    return False


def symbolic(value: Any, env: dict[str, int], trace: Trace) -> Any:
    """`value` (a template's markers) with each marker made a `Sym` of its variable at `env`."""
    return _walk(value, lambda x: Sym(x[1] * env[x[0]] + x[2], x[0], x[2], trace, x[1]) if isinstance(x, Marker) else x)


class _Loose(Exception):
    """A Sym where a template cannot follow it (a dict, a set)."""


def plain(value: Any) -> Any:
    """`value` with its Syms made plain ints (a run that stands for itself)."""
    return _walk(value, int.__int__)


class Template:
    """A run's result with its variables left as markers, and the comparisons it holds under."""

    def __init__(self, result: Any, holed: set[int], trace: Trace) -> None:
        self.holed: set[int] = set()  # the containers of its markers (ids of objects the template keeps)
        self.result = _walk(result, lambda x: Marker((x.var, x.coef, x.off)), holed, self.holed)
        self.trace = trace
        self._build = _plan(self.result, self.holed)  # env -> the result (the unchanged parts shared)

    @classmethod
    def of(cls, result: Any, trace: Trace) -> "Template | None":
        """The template of a run's result, or None when the run stands for itself (its trace tainted, or a Sym
        where a template cannot follow it)."""
        holed: set[int] = set()
        try:
            _holes(result, holed)
        except _Loose:
            return None
        return None if trace.tainted else cls(result, holed, trace)

    def holds(self, env: dict[str, int]) -> bool:
        return self.trace.holds(env)

    def instantiate(self, env: dict[str, int]) -> Any:
        """The result for the variables at `env` (plain ints)."""
        return self._build(env)


Plan = Callable[[dict[str, int]], Any]


def _plan(value: Any, holed: set[int]) -> Plan:
    """How to build `value` (a template's result) for an env, made once per template: only the containers
    that hold a marker are rebuilt, and of a dataclass only the fields that hold one (its other fields copied
    as they are), the same values `_walk` gives, without walking the rest at each instance."""
    kind = type(value)
    if kind is Marker:
        var, coef, off = value
        return lambda env: coef * env[var] + off
    if id(value) not in holed:
        return lambda env: value
    if kind is tuple or kind is list:
        parts = [_plan(v, holed) for v in value]
        if kind is tuple:
            return lambda env: tuple([part(env) for part in parts])
        return lambda env: [part(env) for part in parts]
    fields = [(k, _plan(v, holed)) for k, v in value.__dict__.items()
              if type(v) is Marker or id(v) in holed]  # (a dataclass: the only other container `_walk` rebuilds)
    kept = dict(value.__dict__)

    def build(env: dict[str, int]) -> Any:
        new = object.__new__(kind)
        state = new.__dict__
        state.update(kept)
        for k, part in fields:
            state[k] = part(env)
        return new

    return build
