"""The typed Character: what generation returns and what the file writer, the record, the roster and the
batch outputs read, attribute by attribute.

Frozen, slotted dataclasses, not pydantic models: chargen builds every instance itself from checked tables
and checked input, so validating it again would only cost time (roll+derive is the hot path of a batch).
A character file read back for rendering goes through `from_document`, which does validate (with pydantic's
TypeAdapter over these same dataclasses), because that data comes from outside.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass

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
    defense: int
    tmr: int
    initiative: int
    unarmed: UnarmedLine
    weapons: list[WeaponLine]
    armor: ArmorLine | None = field(default=None, metadata=OMITTED)
    shield: ShieldLine | None = field(default=None, metadata=OMITTED)
    stun_threshold: int
    stun_recovery: int
    breakage_check: int


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
class Character:
    """A whole character: the choices and rolls that rebuild it, then everything derived from them.
    The fields stand in the character file's key order."""

    schema_version: int = SCHEMA_VERSION
    name: str
    player: str | None = field(default=None, metadata=OMITTED)
    campaign: str | None = field(default=None, metadata=OMITTED)
    seed: int | None = field(default=None, metadata=OMITTED)
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
    document = to_document_value(character)
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
    if isinstance(value, Characteristics):
        return dict(value.items())  # one flat mapping in the file: the eight, then the optional ones
    document: Document = {}
    layout = _LAYOUTS.get(kind) or _layout(kind)
    for name, omit in layout:
        entry = getattr(value, name)
        if omit and (entry is None or entry == []):
            continue
        document[name] = to_document_value(entry)
    return document


_LAYOUTS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _layout(kind: type) -> tuple[tuple[str, bool], ...]:
    """A dataclass's field names in order, each with whether the file leaves it out when None or empty:
    read once per class (dataclasses.fields is slow on the batch's hot path)."""
    if not is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not part of a Character")
    layout = tuple((item.name, bool(item.metadata.get(OMIT))) for item in fields(kind))
    _LAYOUTS[kind] = layout
    return layout


def characteristics_from_mapping(values: Mapping[str, int]) -> Characteristics:
    eight = {code: values[code] for code in EIGHT}
    optional = {code: value for code, value in values.items() if code not in EIGHT}
    return Characteristics(**eight, optional=optional)
