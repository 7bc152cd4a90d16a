"""The typed Character: what generation returns and what the file writer, the record, the roster and the
batch outputs read, attribute by attribute.

Frozen, slotted dataclasses, not pydantic models: chargen builds every instance itself from checked tables
and checked input, so validating it again would only cost time (roll+derive is the hot path of a batch).
A character file read back for rendering goes through `from_document`, which does validate (with pydantic's
TypeAdapter over these same dataclasses), because that data comes from outside.
"""

# Annotations are objects here, not text (no `from __future__ import annotations`): dataclasses and
# chargen.jsonline (get_type_hints) would compile the text of each, about 1 ms of a batch's start.

from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from operator import attrgetter
from reprlib import recursive_repr
from types import UnionType
from typing import Any, TypeVar, Union, dataclass_transform, get_args, get_origin, get_type_hints

from chargen.vocabulary import EIGHT, SCHEMA_VERSION

#: One entry of `rolls`: a single die or total, or several dice kept apart.
Roll = int | list[int]
#: A YAML/JSON value as the file writer emits it.
DocumentValue = str | int | float | bool | None | list["DocumentValue"] | dict[str, "DocumentValue"]
Document = dict[str, DocumentValue]

Record = TypeVar("Record", bound=type)
Made = TypeVar("Made")

OMIT = "omitted when None or empty"
#: Field metadata: the file leaves the key out rather than writing null (an absent choice).
OMITTED = {OMIT: True}


def slot_init(kind: Record) -> Record:
    """A frozen, slotted dataclass given an `__init__` that stores each field through its slot's own setter.

    The `__init__` dataclasses writes for a frozen class calls `object.__setattr__` for each field (it must
    step around the `__setattr__` that refuses changes), which makes building these records a fifth of a
    roll's time, compiled or not; the slot's setter does the same store with a lookup less (about 40% less
    per record). Same signature, defaults and default factories; instances stay frozen. Put it above
    `@dataclass(frozen=True, slots=True)`; a class with `__post_init__` keeps dataclasses' own."""
    bound: dict[str, object] = {"_MISSING": MISSING}  # the names the new __init__ reads, and their values
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    if "__post_init__" in vars(kind):
        raise TypeError(f"slot_init: {kind.__name__} has a __post_init__; it needs dataclasses' own __init__")
    for item in fields(kind):
        name = item.name
        if not item.init:
            raise TypeError(f"slot_init: {kind.__name__}.{name} needs dataclasses' own __init__")
        bound[f"_set_{name}"] = vars(kind)[name].__set__
        parameter = name
        if item.default is not MISSING:
            bound[f"_default_{name}"] = item.default
            parameter = f"{name}=_default_{name}"
        elif item.default_factory is not MISSING:
            bound[f"_factory_{name}"] = item.default_factory
            parameter = f"{name}=_MISSING"
            body.append(f"        if {name} is _MISSING: {name} = _factory_{name}()")
        (keyword if item.kw_only else positional).append(parameter)
        body.append(f"        _set_{name}(self, {name})")
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = (
        f"def make({', '.join(bound)}):\n    def __init__({signature}) -> None:\n"
        + "\n".join(body or ["        pass"])
        + "\n    return __init__\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # made from the fields' names only, as dataclasses makes its own __init__
    init = namespace["make"](*bound.values())
    init.__qualname__ = f"{kind.__qualname__}.__init__"
    setattr(kind, "__init__", init)  # noqa: B010 - mypy refuses a plain assignment to a class's __init__
    return kind


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen_record(*, kw_only: bool = False) -> Callable[[type[Made]], type[Made]]:
    """`@dataclass(frozen=True, slots=True, kw_only=...)` with slot_init's `__init__`, and no `__init__` of
    dataclasses' own to replace: making that one cost this module's import about 1.8 ms (8.5 -> 6.7 ms,
    compiled, Python 3.11), which every command waits for; nor its `__eq__`, `__hash__` and `__repr__`,
    which `compared_by_fields` gives. The class behaves as that dataclass otherwise (fields, repr,
    comparison, hashing, frozen, slots), though its `__dataclass_params__` say init, repr and eq are False
    (nothing reads them). dataclass_transform tells type checkers it has the `__init__` of its fields."""

    def made(kind: type[Made]) -> type[Made]:
        record = dataclass(frozen=True, slots=True, init=False, repr=False, eq=False, kw_only=kw_only)(kind)
        return slot_init(compared_by_fields(record))

    return made


def compared_by_fields(kind: Record) -> Record:
    """A dataclass given the `__eq__`, `__hash__` and `__repr__` dataclasses writes for a frozen class with
    `eq=True` (its fields' values in order, compared as a tuple, hashed as one; another class compares as
    NotImplemented; a repr of itself inside itself is "..."), as closures over one attrgetter of the fields
    rather than code compiled for each class: dataclasses compiles every method it writes with `exec`, which
    cost this module's import about 2.5 ms of its 6.8 (Python 3.11, 15 classes), before every command.
    Every field takes part, so a field that asks to be left out of them (`compare=False`, `hash=` or
    `repr=False`) is refused rather than silently counted."""
    items = fields(kind)
    for item in items:
        if not (item.compare and item.repr) or item.hash is not None:
            raise TypeError(f"compared_by_fields: {kind.__name__}.{item.name} needs dataclasses' own methods")
    names = tuple(item.name for item in items)
    read = _fields_reader(names)

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(read(self) == read(other))
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(read(self))

    @recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, read(self), strict=True))
        return f"{self.__class__.__qualname__}({shown})"

    for method in (__eq__, __hash__, __repr__):
        method.__qualname__ = f"{kind.__qualname__}.{method.__name__}"
        method.__module__ = kind.__module__
        setattr(kind, method.__name__, method)
    return kind


def _fields_reader(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """A function giving a record's values of `names`, as a tuple (attrgetter gives a bare value for one)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        only = attrgetter(names[0])
        return lambda record: (only(record),)
    return lambda record: ()


def positional_builder(kind: type[Made]) -> Callable[..., Made]:
    """A function that makes a frozen, slotted `kind` from every field's value, in field order, positionally,
    storing through the slots as `slot_init`'s `__init__` does.

    For the compiled generation's biggest records (Character, Combat): calling a class with keywords hands
    `__init__` a dict of them to match name by name, which costs more than the record (measured from compiled
    code, Character's 39: 3.6 us by keyword against 2.2 us positionally, arguments included); this skips the
    class call too. Every field must be given; `tests/test_slot_init.py` checks the order is the fields'."""
    names = [item.name for item in fields(kind)]  # type: ignore[arg-type]
    bound: dict[str, object] = {"_new": object.__new__, "_kind": kind}
    bound |= {f"_set_{name}": vars(kind)[name].__set__ for name in names}
    source = (
        f"def make({', '.join(bound)}):\n    def build({', '.join(names)}):\n        self = _new(_kind)\n"
        + "".join(f"        _set_{name}(self, {name})\n" for name in names)
        + "        return self\n    return build\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # made from the fields' names only, as slot_init's __init__
    build: Callable[..., Made] = namespace["make"](*bound.values())
    build.__qualname__ = f"positional_builder.<{kind.__qualname__}>"
    return build


@frozen_record()
class Points:
    """5.1: the Characteristic Points total and the most any one characteristic may get."""

    total: int
    maximum: int


@frozen_record()
class Carried:
    """A weapon or shield the character carries, by table id; no rank = unranked (0 is Rank 0)."""

    name: str
    rank: int | None = field(default=None, metadata=OMITTED)
    # 18.5 (optional): the system of increased damage the file chose for this weapon (None: the rule's own).
    increase: str | None = field(default=None, metadata=OMITTED)


@frozen_record()
class Characteristics:
    """The eight characteristics after race and gender (5.3, 5.4, 6.x), plus any optional ones (5.5)."""

    PS: int
    MD: int
    AG: int
    EN: int
    MA: int
    WP: int
    FT: int
    PC: int
    optional: dict[str, int] = field(default_factory=dict)

    def items(self) -> Iterator[tuple[str, int]]:
        """Code and value, the eight in the book's order, then the optional ones."""
        for code in EIGHT:
            yield code, getattr(self, code)
        yield from self.optional.items()

    def get(self, code: str) -> int | None:
        return getattr(self, code) if code in EIGHT else self.optional.get(code)


@frozen_record()
class Modifier:
    """What race and gender add to one characteristic (6.1, 6.4-6.9)."""

    race: int
    gender: int


@frozen_record()
class Heritage:
    """8.1-8.4, by table id."""

    social_status: str
    money_multiplier: int
    birth_order: str
    sibling_rank: str | None = field(default=None, metadata=OMITTED)  # 8.4: a legitimate child's only


@frozen_record(kw_only=True)
class DamageIncrease:
    """18.5 (optional) on one weapon: the system used, the bonus already in the line's damage, and what the
    Physical Strength system shifts: the rolls that may break the weapon, the highest Modified Strike Chance,
    and the damage when the weapon is thrown (no Physical Strength bonus then)."""

    system: str
    bonus: int
    breaks_on: str | None = field(default=None, metadata=OMITTED)
    strike_chance_cap: int | None = field(default=None, metadata=OMITTED)
    thrown_damage: str | None = field(default=None, metadata=OMITTED)


@frozen_record(kw_only=True)
class WeaponLine:
    """One weapon's line of the record (17.1, 20.2, 12.3, 18.2)."""

    name: str
    rank: int | None
    strike_chance: int
    damage: str
    damage_modifier: int | None
    two_handed_damage: str | None = field(
        default=None, metadata=OMITTED
    )  # only for a (1-2) weapon: 20.2's +1 in two hands
    initiative: int
    endurance_damage: str | None
    grievous_injury: str | None
    increase: DamageIncrease | None = field(default=None, metadata=OMITTED)  # 18.5, when the file chose it


@frozen_record(kw_only=True)
class UnarmedLine:
    """Unarmed Combat (21)."""

    rank: int | None = field(default=None, metadata=OMITTED)
    strike_chance: int
    damage: str
    initiative: int
    endurance_damage: str | None
    grievous_injury: str | None


@frozen_record()
class ArmorLine:
    """18.1: the armor worn; weight in pounds for this race's size and gender."""

    name: str
    protection: int
    agility_loss: int
    stealth_adjustment: int
    weight: int | float


@frozen_record()
class ShieldLine:
    """17.5: the shield carried."""

    name: str
    rank: int | None
    defense_per_rank: int
    manual_dexterity_loss: int


@frozen_record(kw_only=True)
class Combat:
    """Sections 12 and 17-21 as the record carries them."""

    modified_agility: int
    modified_manual_dexterity: int
    defense: int | None  # None: a house rule's Defense needs a value the tables do not give ("—")
    # A house rule's Defense in other postures (seed 004), by the posture's name; none in the book.
    defense_postures: dict[str, int | None] | None = field(default=None, metadata=OMITTED)
    tmr: int
    sprint_tmr: int | None = field(default=None, metadata=OMITTED)  # a house rule's; the book has no sprint
    initiative: int
    unarmed: UnarmedLine
    weapons: list[WeaponLine]
    armor: ArmorLine | None = field(default=None, metadata=OMITTED)
    shield: ShieldLine | None = field(default=None, metadata=OMITTED)
    stun_threshold: int
    stun_recovery: int
    breakage_check: int


@frozen_record()
class Ranked:
    """A skill (48-62) or language (49) by table id (or as written, for an open list), with its Rank."""

    name: str
    rank: int


@frozen_record()
class MagicRanked:
    """A talent, spell or ritual (34-47) with its Rank."""

    name: str
    rank: int
    kind: str


@frozen_record()
class Gear:
    """Equipment beyond arms and armor, as the player entered it: weight in pounds, each."""

    name: str
    weight: int | float | None = field(default=None, metadata=OMITTED)
    count: int = 1


@frozen_record(kw_only=True)
class Character:
    """A whole character: the choices and rolls that rebuild it, then everything derived from them.
    The fields stand in the character file's key order."""

    schema_version: int = SCHEMA_VERSION
    name: str
    player: str | None = field(default=None, metadata=OMITTED)
    campaign: str | None = field(default=None, metadata=OMITTED)
    seed: int | None = field(default=None, metadata=OMITTED)
    # issue 9: the rulesets layered over the book's tables, each {name, sha256}; none for the book's rules.
    rules: list[dict[str, str]] = field(default_factory=list, metadata=OMITTED)
    archetype: str | None = field(default=None, metadata=OMITTED)
    gender: str
    race: str
    race_attempts: list[str] | None = field(default=None, metadata=OMITTED)
    race_type: str | None = field(default=None, metadata=OMITTED)
    hand: str
    aspect: str
    points: Points
    allocation: dict[str, int]
    # 5.5: the optional characteristics the player chose to roll (their dice are under `rolls`).
    optional: list[str] = field(metadata=OMITTED)
    rolls: dict[str, Roll]
    weapons: list[Carried] = field(metadata=OMITTED)
    armor: str | None = field(default=None, metadata=OMITTED)
    shield: Carried | None = field(default=None, metadata=OMITTED)
    unarmed_rank: int | None = field(default=None, metadata=OMITTED)
    equipment_given: bool
    equipment: list[Gear] = field(default_factory=list, metadata=OMITTED)
    skills: list[Ranked] = field(default_factory=list, metadata=OMITTED)
    languages: list[Ranked] = field(default_factory=list, metadata=OMITTED)
    college: str | None = field(default=None, metadata=OMITTED)
    spells: list[MagicRanked] = field(default_factory=list, metadata=OMITTED)
    # 8.6: True when the skills, languages and magic were given (a batch NPC's) rather than bought with
    # Experience, so nothing is charged; left out of the file otherwise.
    abilities_given: bool | None = field(default=None, metadata=OMITTED)
    characteristics: Characteristics
    modifiers: dict[str, Modifier]
    tmr: int
    experience_multiplier: float
    heritage: Heritage
    experience_points: int
    starting_silver: int
    silver_pennies: int
    combat: Combat
    # 8.6: the Experience left after buying the skills, languages and magic listed (None: nothing bought).
    experience_bank: int | None = field(default=None, metadata=OMITTED)
    notes: list[str] = field(metadata=OMITTED)


def to_document(character: Character) -> Document:
    """The character file as an ordered mapping: keys in the order the fields are declared, a field marked
    OMITTED left out when it is None or empty rather than written as null."""
    document = _converter_of(Character)(character)
    assert isinstance(document, dict)
    return document


def to_document_value(value: object) -> DocumentValue:
    """Any part of a Character as the file writes it (a dataclass as an ordered mapping)."""
    kind = type(value)
    if kind is int or kind is str or value is None or kind is float or kind is bool:
        return value  # type: ignore[return-value]
    if kind is list:
        return [to_document_value(entry) for entry in value]  # type: ignore[attr-defined]
    if kind is dict:
        return {key: to_document_value(entry) for key, entry in value.items()}  # type: ignore[attr-defined]
    if not is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not part of a Character")
    return _converter_of(kind)(value)


Converter = Callable[[Any], DocumentValue]
#: A converter per dataclass, made once from its fields' types (the batch's hot path writes thousands).
_CONVERTERS: dict[type, Converter] = {}
_PLAIN = (int, str, float, bool, type(None))


def _converter_of(kind: type) -> Converter:
    converter = _CONVERTERS.get(kind)
    if converter is None:
        converter = _CONVERTERS[kind] = _dataclass_converter(kind)
    return converter


def _dataclass_converter(kind: type) -> Converter:
    """The fields in order, each with whether the file leaves it out when None or empty and how its value
    is written (None: as it is, being a plain value or a container of plain values copied). Made into one
    straight-line function per dataclass, as `dataclasses` makes `__init__`: no loop over the fields and
    no test of a field's kind on every call (thousands of characters a second go through it)."""
    if kind is Characteristics:
        # One flat mapping in the file: the eight in the book's order, then the optional ones.
        eight = ", ".join(f"{code!r}: value.{code}" for code in EIGHT)
        return _compiled("Characteristics", [f"    return {{{eight}, **value.optional}}"], {})
    hints = get_type_hints(kind)
    scope: dict[str, Converter] = {}
    lines = ["    document = {}"]
    for number, item in enumerate(fields(kind)):
        written = _field_converter(hints[item.name])
        entry = "entry"
        if written is not None:
            scope[f"write_{number}"] = written
            entry = f"write_{number}(entry)"
        lines.append(f"    entry = value.{item.name}")
        indent = "    "
        if item.metadata.get(OMIT):
            lines.append("    if entry is not None and entry != []:")
            indent += "    "
        lines.append(f"{indent}document[{item.name!r}] = {entry}")
    lines.append("    return document")
    return _compiled(kind.__name__, lines, scope)


def _compiled(name: str, body: list[str], scope: dict[str, Converter]) -> Converter:
    """`def convert(value): <body>` compiled with `scope` (the field converters) as its globals; the text
    is made here from field names only, never from data."""
    source = "def convert(value):\n" + "\n".join(body) + "\n"
    namespace: dict[str, Any] = dict(scope)
    exec(compile(source, f"<to_document {name}>", "exec"), namespace)
    converter: Converter = namespace["convert"]
    return converter


def _field_converter(hint: Any) -> Converter | None:
    """How a value of type `hint` is written; None when it is written as it is."""
    if hint in _PLAIN:
        return None
    origin, arguments = get_origin(hint), get_args(hint)
    if origin is Union or origin is UnionType:
        kinds = [argument for argument in arguments if argument is not type(None)]
        if all(argument in _PLAIN for argument in kinds):
            return None
        if len(kinds) == 1:
            inner = _field_converter(kinds[0])
            assert inner is not None
            return lambda value: None if value is None else inner(value)
        return to_document_value
    if origin is list:
        item = _field_converter(arguments[0])
        return list if item is None else (lambda value: [item(entry) for entry in value])  # type: ignore[misc]
    if origin is dict:
        item = _field_converter(arguments[1])
        return dict if item is None else (lambda value: {key: item(entry) for key, entry in value.items()})
    if isinstance(hint, type) and is_dataclass(hint):
        return _converter_of(hint)
    return to_document_value


def characteristics_from_mapping(values: Mapping[str, int]) -> Characteristics:
    eight = {code: values[code] for code in EIGHT}
    optional = {code: value for code, value in values.items() if code not in EIGHT}
    return Characteristics(**eight, optional=optional)
