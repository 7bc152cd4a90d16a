"""The typed Character: what generation returns and what the file writer, the record, the roster and the
batch outputs read, attribute by attribute.

Frozen, slotted dataclasses, not pydantic models: chargen builds every instance itself from checked tables
and checked input, so validating it again would only cost time (roll+derive is the hot path of a batch).
A character file read back for rendering goes through `from_document`, which does validate (with pydantic's
TypeAdapter over these same dataclasses), because that data comes from outside.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from chargen.vocabulary import EIGHT, SCHEMA_VERSION

#: One entry of `rolls`: a single die or total, or several dice kept apart.
Roll = int | list[int]
#: A YAML/JSON value as the file writer emits it.
DocumentValue = str | int | float | bool | None | list["DocumentValue"] | dict[str, "DocumentValue"]
Document = dict[str, DocumentValue]

OMIT = "omitted when None or empty"
#: Field metadata: the file leaves the key out rather than writing null (an absent choice).
OMITTED = {OMIT: True}


@dataclass(frozen=True, slots=True)
class Points:
    """5.1: the Characteristic Points total and the most any one characteristic may get."""

    total: int
    maximum: int


@dataclass(frozen=True, slots=True)
class Carried:
    """A weapon or shield the character carries, by table id; no rank = unranked (0 is Rank 0)."""

    name: str
    rank: int | None = field(default=None, metadata=OMITTED)
    # 18.5 (optional): the system of increased damage the file chose for this weapon (None: the rule's own).
    increase: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Modifier:
    """What race and gender add to one characteristic (6.1, 6.4-6.9)."""

    race: int
    gender: int


@dataclass(frozen=True, slots=True)
class Heritage:
    """8.1-8.4, by table id."""

    social_status: str
    money_multiplier: int
    birth_order: str
    sibling_rank: str | None = field(default=None, metadata=OMITTED)  # 8.4: a legitimate child's only


@dataclass(frozen=True, slots=True, kw_only=True)
class DamageIncrease:
    """18.5 (optional) on one weapon: the system used, the bonus already in the line's damage, and what the
    Physical Strength system shifts: the rolls that may break the weapon, the highest Modified Strike Chance,
    and the damage when the weapon is thrown (no Physical Strength bonus then)."""

    system: str
    bonus: int
    breaks_on: str | None = field(default=None, metadata=OMITTED)
    strike_chance_cap: int | None = field(default=None, metadata=OMITTED)
    thrown_damage: str | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class UnarmedLine:
    """Unarmed Combat (21)."""

    rank: int | None = field(default=None, metadata=OMITTED)
    strike_chance: int
    damage: str
    initiative: int
    endurance_damage: str | None
    grievous_injury: str | None


@dataclass(frozen=True, slots=True)
class ArmorLine:
    """18.1: the armor worn; weight in pounds for this race's size and gender."""

    name: str
    protection: int
    agility_loss: int
    stealth_adjustment: int
    weight: int | float


@dataclass(frozen=True, slots=True)
class ShieldLine:
    """17.5: the shield carried."""

    name: str
    rank: int | None
    defense_per_rank: int
    manual_dexterity_loss: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Combat:
    """Sections 12 and 17-21 as the record carries them."""

    modified_agility: int
    modified_manual_dexterity: int
    defense: int | None  # None: a house rule's Defense needs a value the tables do not give ("—")
    # A house rule's Defense in other postures (seed 004), by the posture's name; none in the book.
    defense_postures: dict[str, int | None] | None = field(default=None, metadata=OMITTED)
    tmr: int
    initiative: int
    unarmed: UnarmedLine
    weapons: list[WeaponLine]
    armor: ArmorLine | None = field(default=None, metadata=OMITTED)
    shield: ShieldLine | None = field(default=None, metadata=OMITTED)
    stun_threshold: int
    stun_recovery: int
    breakage_check: int
    # A ruleset's own values (combat.yaml's `values`, worked out from the values above), by key; the book has none.
    values: dict[str, int | None] | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True)
class Ranked:
    """A skill (48-62) or language (49) by table id (or as written, for an open list), with its Rank."""

    name: str
    rank: int


@dataclass(frozen=True, slots=True)
class MagicRanked:
    """A talent, spell or ritual (34-47) with its Rank."""

    name: str
    rank: int
    kind: str


@dataclass(frozen=True, slots=True)
class Gear:
    """Equipment beyond arms and armor, as the player entered it: weight in pounds, each."""

    name: str
    weight: int | float | None = field(default=None, metadata=OMITTED)
    count: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Overridden:
    """A value the GM ruled in place of the rules' own: the GM's value, why, and what the rules give."""

    value: int
    reason: str
    computed: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """A played character as its file gives it, its creation unknown (the 5.1 roll, 5.2's allocation and
    8.1-8.5's dice are not known): the characteristics as they stand (race, gender and every raise in
    them), the Experience Point Bank and the Experience earned in all (12), and the Silver Pennies."""

    characteristics: dict[str, int]
    experience_bank: int | None = field(default=None, metadata=OMITTED)
    experience_total: int | None = field(default=None, metadata=OMITTED)
    silver_pennies: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryLine:
    """One entry of the file's advancement ledger as it applied (12, 17, 87): an award, or a raise of
    `name` from `before` to `after`; `experience` is what it moved in the bank (+ awarded, - spent),
    `charged` says where a cost came from ("chart": the GM's chart times the race multiplier, which a cost
    the file gives may be too; "given": the GM's own figure), `bank` is the bank after it."""

    kind: str  # "award" or "raise"
    # what a raise raised: characteristic, weapon, shield, unarmed, skill, language or spell
    what: str | None = field(default=None, metadata=OMITTED)
    name: str | None = field(default=None, metadata=OMITTED)  # what was raised: PS, broadsword, healer
    label: str | None = field(default=None, metadata=OMITTED)  # how the record names it
    before: int | None = field(default=None, metadata=OMITTED)
    after: int | None = field(default=None, metadata=OMITTED)
    experience: int
    charged: str | None = field(default=None, metadata=OMITTED)
    bank: int
    note: str | None = field(default=None, metadata=OMITTED)
    date: str | None = field(default=None, metadata=OMITTED)


def characteristics_raised(history: Sequence[HistoryLine]) -> dict[str, int]:
    """17, 87: what the ledger's raises added to each characteristic, by its code (none: not raised)."""
    raised: dict[str, int] = {}
    for line in history:
        if line.what == "characteristic" and line.name and line.after is not None and line.before is not None:
            raised[line.name] = raised.get(line.name, 0) + line.after - line.before
    return raised


@dataclass(frozen=True, slots=True, kw_only=True)
class Character:
    """A whole character: the choices and rolls that rebuild it, then everything derived from them.
    The fields stand in the character file's key order."""

    schema_version: int = SCHEMA_VERSION
    name: str
    player: str | None = field(default=None, metadata=OMITTED)
    campaign: str | None = field(default=None, metadata=OMITTED)
    seed: int | None = field(default=None, metadata=OMITTED)
    # The rulesets layered over the book's tables, each {name, sha256}; none for the book's rules.
    rules: list[dict[str, str]] = field(default_factory=list, metadata=OMITTED)
    archetype: str | None = field(default=None, metadata=OMITTED)
    gender: str
    race: str
    race_attempts: list[str] | None = field(default=None, metadata=OMITTED)
    race_type: str | None = field(default=None, metadata=OMITTED)
    hand: str
    # 7.1: None only for a character as it stands whose aspect its source does not give.
    aspect: str | None = field(default=None, metadata=OMITTED)
    # A played character as it stands (its creation unknown): its characteristics, Experience and money as
    # the file gives them. Then the creation's own values below (points, allocation, heritage, 8.5's
    # Experience and silver) are None: unknown, not made up.
    standing: Standing | None = field(default=None, metadata=OMITTED)
    points: Points | None = field(default=None, metadata=OMITTED)
    allocation: dict[str, int] | None = field(default=None, metadata=OMITTED)
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
    # What the record shows from the race table is in the file too. Section IV (8): the life span
    # and starting age as the race table words them (None: the table gives none); 6.4-6.9: the talents the
    # race grants (magic entry ids: the elf's Witchsight, 6.5), never bought or typed in.
    life_span: str | None = field(default=None, metadata=OMITTED)
    starting_age: str | None = field(default=None, metadata=OMITTED)
    racial_talents: list[str] = field(default_factory=list, metadata=OMITTED)
    heritage: Heritage | None = field(default=None, metadata=OMITTED)
    experience_points: int | None = field(default=None, metadata=OMITTED)
    starting_silver: int | None = field(default=None, metadata=OMITTED)
    silver_pennies: int
    combat: Combat
    # 8.6: the Experience left after buying the skills, languages and magic listed (None: nothing bought).
    experience_bank: int | None = field(default=None, metadata=OMITTED)
    # The GM's values in place of the rules' own, by the value's name as `chargen explain` takes it
    # (`defense`, `weapons.broadsword.strike_chance`, `experience_bank`): written in the values above too.
    overrides: dict[str, Overridden] | None = field(default=None, metadata=OMITTED)
    # 12, 17, 87: the ledger as applied, in the file's order, and the Experience earned in all (8.5's
    # plus every award); empty and None for a character not yet played.
    history: list[HistoryLine] = field(default_factory=list, metadata=OMITTED)
    experience_total: int | None = field(default=None, metadata=OMITTED)
    notes: list[str] = field(metadata=OMITTED)


def to_document(character: Character) -> Document:
    """The character file as an ordered mapping: keys in the order the fields are declared, a field marked
    OMITTED left out when it is None or empty rather than written as null."""
    document = _converter_of(Character)(character)
    assert isinstance(document, dict)
    if character.history:  # 12, 17, 87: the file carries the character as created and its ledger
        from chargen.ledger_file import with_ledger_written

        return with_ledger_written(document, character)
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


#: How a record's field is written: its name, whether the file leaves it out when None or empty, how its
#: value is written (None: as it is, being a plain value), and whether it may hold a float itself (JSON
#: text spells floats its own way: chargen.jsontext, which writes records through these same plans).
FieldPlan = tuple[str, bool, Converter | None, bool]
#: Each record's plan by its class, made once (record_plan): the batch's hot path writes thousands.
PLANS: dict[type, tuple[FieldPlan, ...]] = {}


def record_plan(kind: type) -> tuple[FieldPlan, ...]:
    """The fields of one dataclass of the Character in the file's order, as the file writes them."""
    plan = PLANS.get(kind)
    if plan is None:
        if not is_dataclass(kind):
            raise TypeError(f"{kind.__name__} is not part of a Character")
        hints = get_type_hints(kind)
        plan = PLANS[kind] = tuple(
            (
                item.name,
                bool(item.metadata.get(OMIT)),
                _field_converter(hints[item.name]),
                _may_be_float(hints[item.name]),
            )
            for item in fields(kind)
        )
    return plan


def _may_be_float(hint: Any) -> bool:
    """Whether a field declared `hint` holds a float itself (not inside a list or mapping: the Character
    declares none there)."""
    if get_origin(hint) in (Union, UnionType):
        return float in get_args(hint)
    return hint is float


def _dataclass_converter(kind: type) -> Converter:
    """A record as an ordered mapping, by its plan (record_plan)."""
    if kind is Characteristics:
        return flat_characteristics
    plan = record_plan(kind)

    def convert(value: Any) -> DocumentValue:
        document: Document = {}
        for name, omitted, written, _ in plan:
            entry = getattr(value, name)
            if omitted and (entry is None or entry == []):
                continue
            document[name] = entry if written is None else written(entry)
        return document

    return convert


def flat_characteristics(value: Characteristics) -> Document:
    """One flat mapping in the file: the eight in the book's order, then the optional ones."""
    return {**{code: getattr(value, code) for code in EIGHT}, **value.optional}


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
