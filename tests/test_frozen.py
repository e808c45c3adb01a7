"""`@frozen` (sawbones/frozen.py) behaves as `@dataclass(frozen=True)` for everything sawbones does with its values:
the same constructor (positional, by name, defaults, a fresh default per instance), frozen, equal and hashed by
the compared fields, shown by the shown ones, `replace`, `fields`, pickle, the snapshot codec and `with_fields`."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from sawbones.adapters.codec import dumps, loads
from sawbones.domain.engine.state import Body, with_fields
from sawbones.frozen import frozen, frozen_kw


@frozen
class Wound:
    site: str
    severity: int = 1
    notes: list[str] = field(default_factory=list)
    cache: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Reference:
    site: str
    severity: int = 1
    notes: list[str] = field(default_factory=list)
    cache: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@frozen_kw
class Named:
    id: str
    rank: int = 0


def test_built_as_a_frozen_dataclass_is():
    for cls in (Wound, Reference):
        value = cls("arm", 2)
        assert (value.site, value.severity, value.notes, value.cache) == ("arm", 2, [], {})
        assert cls(site="arm") == cls("arm", 1) and cls("arm").notes is not cls("arm").notes
        with pytest.raises(TypeError):
            cls()  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            cls("arm", 1, [], {}, "extra")  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            cls("arm", wound=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Named("x")  # type: ignore[misc]
    assert Named(id="x") == Named(id="x", rank=0)


def test_frozen_equal_hashed_and_shown_like_a_dataclass():
    value = Wound("arm", 2, ["bleeding"], {"seen": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.site = "leg"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.site
    assert value == Wound("arm", 2, ["bleeding"], {"other": 2})  # the cache is not compared
    assert value != Wound("arm", 3, ["bleeding"]) and value != Reference("arm", 2, ["bleeding"])
    # hashed by the compared fields: the dict of the cache is left out (a list would fail, as with @dataclass)
    assert hash(Wound("arm", 2, ())) == hash(Wound("arm", 2, (), {"x": 1}))  # type: ignore[arg-type]
    assert repr(value) == "Wound(site='arm', severity=2, notes=['bleeding'])"
    assert repr(Reference("arm", 2, ["bleeding"])).endswith("Reference(site='arm', severity=2, notes=['bleeding'])")


def test_fields_replace_pickle_codec_and_with_fields():
    value = Wound("arm", 2, ["bleeding"])
    assert [f.name for f in dataclasses.fields(value)] == ["site", "severity", "notes", "cache"]
    assert dataclasses.replace(value, severity=3) == Wound("arm", 3, ["bleeding"])
    assert with_fields(value, severity=3) == Wound("arm", 3, ["bleeding"])
    assert pickle.loads(pickle.dumps(value)) == value
    body = Body(eyes=1)  # the snapshot codec reads and writes sawbones' own classes
    assert loads(dumps(body)) == body and with_fields(body, ears=0) == Body(eyes=1, ears=0)
    assert dataclasses.asdict(value) == {"site": "arm", "severity": 2, "notes": ["bleeding"], "cache": {}}


def test_a_class_keeps_the_methods_it_writes():
    @frozen
    class Shown:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Shown("a")) == "<a>" and Shown("a") == Shown("a") and hash(Shown("a")) == hash(Shown("a"))
