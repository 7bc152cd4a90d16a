"""records.slot_init: the faster __init__ of the frozen records behaves as the one dataclasses writes; and
records.frozen_record, which gives a frozen, slotted dataclass that __init__ without dataclasses making one."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field

import pytest

from chargen import api, model
from chargen.character_file import from_document
from chargen.generation import derived
from chargen.model import (
    Character,
    Characteristics,
    Combat,
    Heritage,
    UnarmedLine,
    WeaponLine,
    to_document,
)
from chargen.records import frozen_record, positional_builder, slot_init


@slot_init
@dataclass(frozen=True, slots=True)
class Fast:
    name: str
    rank: int | None = None
    notes: list[str] = field(default_factory=list)
    weight: float = field(default=1.5, kw_only=True)
    count: int = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class Plain:
    name: str
    rank: int | None = None
    notes: list[str] = field(default_factory=list)
    weight: float = field(default=1.5, kw_only=True)
    count: int = field(kw_only=True)


@frozen_record()
class Recorded:
    name: str
    rank: int | None = None
    notes: list[str] = field(default_factory=list)
    weight: float = field(default=1.5, kw_only=True)
    count: int = field(kw_only=True)


@frozen_record(kw_only=True)
class KeywordsOnly:
    name: str
    rank: int = 0


def as_tuple(record: object) -> tuple[object, ...]:
    return tuple(getattr(record, item.name) for item in dataclasses.fields(record))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("sword",), {"count": 1}),
        (("sword", 3), {"count": 2, "weight": 4.0}),
        (("sword", None, ["kept"]), {"count": 0}),
        ((), {"name": "axe", "rank": 0, "notes": [], "count": 5}),
    ],
)
@pytest.mark.parametrize("kind", [Fast, Recorded])
def test_same_fields_as_dataclasses_init(
    kind: type, args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    assert as_tuple(kind(*args, **kwargs)) == as_tuple(Plain(*args, **kwargs))


@pytest.mark.parametrize("kind", [Fast, Recorded])
def test_same_signature_as_dataclasses_init(kind: type) -> None:
    fast, plain = inspect.signature(kind), inspect.signature(Plain)
    assert [(p.name, p.kind) for p in fast.parameters.values()] == [
        (p.name, p.kind) for p in plain.parameters.values()
    ]
    assert kind.__init__.__qualname__ == f"{kind.__name__}.__init__"


def test_a_frozen_record_is_the_dataclass_it_stands_for() -> None:
    """It behaves as the dataclass it stands for: repr, comparison, frozen, slots, pickling, replace; and
    dataclasses wrote no __init__ of its own, which is what frozen_record saves (nor the comparison and repr,
    which compared_by_fields gives: the next test)."""
    record, plain = Recorded("sword", 2, ["kept"], count=1), Plain("sword", 2, ["kept"], count=1)
    assert repr(record) == repr(plain).replace("Plain", "Recorded")
    assert record == Recorded("sword", 2, ["kept"], count=1) and record != Recorded("axe", count=1)
    assert record.__eq__(plain) is NotImplemented
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.rank = 3  # type: ignore[misc]
    assert not hasattr(record, "__dict__") and Recorded.__slots__ == Plain.__slots__
    assert pickle.loads(pickle.dumps(record)) == record
    assert dataclasses.replace(record, rank=4) == Recorded("sword", 4, ["kept"], count=1)
    assert hash(KeywordsOnly(name="a")) == hash(KeywordsOnly(name="a", rank=0))
    assert Recorded.__dataclass_params__.init is False  # type: ignore[attr-defined]
    assert "_set_name" in Recorded.__init__.__code__.co_freevars  # slot_init's


@dataclass(frozen=True, slots=True)
class PlainOne:
    name: str


@frozen_record()
class RecordedOne:
    name: str


@dataclass(frozen=True)
class PlainHolder:
    items: list[object]


@frozen_record()
class RecordedHolder:
    items: list[object]


def test_a_frozen_record_compares_hashes_and_shows_as_dataclasses_would() -> None:
    """compared_by_fields' shared __eq__, __hash__ and __repr__ against those dataclasses compiles, for
    many fields, one field and a record inside itself; dataclasses compiled none of them."""
    hashable = {"notes": (), "count": 2}
    assert hash(Recorded("a", 3, **hashable)) == hash(Plain("a", 3, **hashable))  # type: ignore[arg-type]
    assert hash(RecordedOne("a")) == hash(PlainOne("a")) and repr(RecordedOne("a")) == "RecordedOne(name='a')"
    assert RecordedOne("a") == RecordedOne("a") and RecordedOne("a") != RecordedOne("b")
    assert RecordedOne("a") != PlainOne("a") and RecordedOne("a").__eq__("a") is NotImplemented
    with pytest.raises(TypeError):
        hash(Recorded("sword", count=1))  # a list among the values, as with dataclasses
    recorded, plain = RecordedHolder([1]), PlainHolder([1])
    recorded.items.append(recorded)
    plain.items.append(plain)
    assert repr(recorded) == repr(plain).replace("Plain", "Recorded") == "RecordedHolder(items=[1, ...])"
    for method in ("__eq__", "__hash__", "__repr__"):
        written = getattr(Recorded, method)
        assert written.__qualname__ == f"Recorded.{method}" and written.__module__ == __name__
        assert written.__code__ is getattr(RecordedOne, method).__code__  # one function's, not compiled apart


@pytest.mark.parametrize("option", [{"compare": False}, {"hash": False}, {"hash": True}, {"repr": False}])
def test_a_field_left_out_of_the_comparison_is_refused(option: dict[str, bool]) -> None:
    """compared_by_fields counts every field: one that asks to be left out needs dataclasses' own methods."""
    with pytest.raises(TypeError, match=r"Partial\.hidden needs dataclasses' own methods"):

        @frozen_record()
        class Partial:
            shown: int
            hidden: int = field(default=0, **option)  # type: ignore[call-overload]


def test_keyword_only_records_refuse_positions() -> None:
    with pytest.raises(TypeError):
        KeywordsOnly("a")  # type: ignore[misc]
    assert KeywordsOnly(name="a").rank == 0


def test_default_factory_gives_a_fresh_value_each_time() -> None:
    first, second = Fast("a", count=1), Fast("b", count=1)
    assert first.notes == [] and first.notes is not second.notes


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("sword",), {}),  # count is required
        (("sword", 1, [], 2.0), {"count": 1}),  # weight is keyword-only
        (("sword",), {"count": 1, "colour": "red"}),
        ((), {"count": 1}),
    ],
)
def test_refuses_what_dataclasses_refuses(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        Plain(*args, **kwargs)
    with pytest.raises(TypeError):
        Fast(*args, **kwargs)


def test_instances_stay_frozen_and_compare_as_before() -> None:
    record = Fast("sword", 2, count=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.rank = 3  # type: ignore[misc]
    assert record == Fast("sword", 2, count=1)
    assert dataclasses.replace(record, rank=4).rank == 4


def test_a_post_init_class_keeps_dataclasses_own() -> None:
    with pytest.raises(TypeError, match="needs dataclasses' own __init__"):

        @slot_init
        @dataclass(frozen=True, slots=True)
        class Checked:
            value: int

            def __post_init__(self) -> None:
                pass


def test_every_frozen_record_with_a_plain_init_uses_it() -> None:
    """Each record of the model takes the faster __init__ unless it needs its own."""
    for kind in vars(model).values():
        if (
            isinstance(kind, type)
            and dataclasses.is_dataclass(kind)
            and kind.__module__ == model.__name__
            and not hasattr(kind, "__post_init__")
        ):
            setters = sorted(name for name in kind.__init__.__code__.co_freevars if name.startswith("_set_"))
            assert setters == sorted(f"_set_{item.name}" for item in dataclasses.fields(kind)), kind


def test_the_positional_builder_makes_what_the_init_makes() -> None:
    build = positional_builder(Fast)
    made = build("sword", 3, ["kept"], 4.0, 2)  # every field, in the fields' order
    assert made == Fast("sword", 3, ["kept"], weight=4.0, count=2) and type(made) is Fast
    assert as_tuple(made) == as_tuple(Plain("sword", 3, ["kept"], weight=4.0, count=2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rank = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        build("sword", 3, ["kept"], 4.0)  # no defaults: every field is given


@pytest.mark.parametrize(
    ("kind", "builder"),
    [
        (Character, derived._NEW_CHARACTER),
        (Combat, derived._NEW_COMBAT),
        (Characteristics, derived._NEW_CHARACTERISTICS),
        (WeaponLine, derived._NEW_WEAPON_LINE),
        (UnarmedLine, derived._NEW_UNARMED_LINE),
        (Heritage, derived._NEW_HERITAGE),
    ],
)
def test_the_builders_take_the_fields_in_their_order(kind: type, builder: object) -> None:
    assert list(inspect.signature(builder).parameters) == [item.name for item in dataclasses.fields(kind)]  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(1, 41))
def test_a_rolled_character_reads_back_as_itself(seed: int) -> None:
    """derived.character fills 39 fields by position: a value in the wrong place would fail the file's own
    validation (its type) or differ once read back."""
    character = api.roll(seed=seed, optional=["PB", "18.5"] if seed % 2 else ())
    assert from_document(to_document(character)) == character
