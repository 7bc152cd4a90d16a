"""The character file: its schema (what a file may say, as pydantic models) and the text chargen writes, in
its exact key order. Reading one, each problem at its line:column, is chargen.character_reading."""

# Annotations are objects here, not text (no `from __future__ import annotations`): pydantic would
# compile the text of each field annotation as it makes the models, a cost on a batch's start.

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from chargen.jsontext import indented
from chargen.messages import UNION_TAG
from chargen.model import Character, Characteristics, to_document
from chargen.printable import check_printable
from chargen.vocabulary import (
    ARCHETYPE_KEY,
    EIGHT,
    MAX_ENTRIES,
    MAX_POINTS,
    MAX_RANK,
    OLD_ARCHETYPE_KEY,
    GenderId,
    HandId,
)
from chargen.yamlio import MAX_NUMBER, dump_yaml

Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
# Strict: a file says 14, not '14', 14.0 or true. Bounds keep every number near its rule's range; the rules
# themselves (the dice, the charts' maximum Ranks) are checked when the character is built.
Count = Annotated[StrictInt, Field(ge=0, le=MAX_POINTS)]
Roll = Annotated[StrictInt, Field(ge=0, le=1_000)]
Rank = Annotated[StrictInt, Field(ge=0, le=MAX_RANK)]
#: A seed a file may hold: what the reader accepts of any number (chargen.yamlio.MAX_NUMBER), and so what
#: every writer (--seed, api.roll) accepts too.
Seed = Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]


def check_one_line(value: str) -> str:
    """A name is one line of text a YAML file can hold as it is: no control characters or line breaks."""
    if not value.isprintable():
        raise ValueError("holds a control character or line break; a name is one line of text")
    return check_printable(value)


#: The longest name or note a file holds.
NAME_LENGTH = 500
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_LENGTH),
    AfterValidator(check_one_line),
]
#: Rolls read on percentile dice: a D100 showing `00` is 100 (6.3, 7.1, 8.1, 8.2, 8.5).
D100_ROLLS = ("race", "aspect", "social_status", "birth_order", "experience", "silver")


def _percentile(value: Any) -> Any:
    """`00` (or 0) on a D100 is 100, as players read the two dice."""
    if isinstance(value, str) and value.strip() in {"0", "00"}:
        return 100
    return 100 if value == 0 and not isinstance(value, bool) else value


class _Strict(BaseModel):
    # Built (their validators made) when they first validate, not when chargen imports them: a batch
    # reads no character file (chargen.api.roll_checked), and building them is a cost on its start.
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Allocation(_Strict):
    """Rule 5.2: the six primaries as assigned, before race and gender modifiers."""

    @model_validator(mode="before")
    @classmethod
    def _codes_in_any_case(cls, data: Any) -> Any:
        """`ps: 15` is PS 15 (a key that is no code is left as typed, for its message)."""
        if isinstance(data, dict):
            codes = set(cls.model_fields)
            return {
                key.strip().upper() if isinstance(key, str) and key.strip().upper() in codes else key: value
                for key, value in data.items()
            }
        return data

    PS: Count
    MD: Count
    AG: Count
    EN: Count
    MA: Count
    WP: Count


class StandingCharacteristics(Allocation):
    """The characteristics as they stand: the six primaries and FT, PC (5.3, 5.4) after race, gender and
    any raise; PB (5.5) when the character has it."""

    FT: Count
    PC: Count
    PB: Count | None = None


class Standing(_Strict):
    """A played character as it stands, its creation unknown: no 5.1 roll, 5.2 allocation or 8.1-8.5 dice
    are given or rolled. The Experience Point Bank and the Experience earned in all (12) are as the file
    gives them (unknown when left out), and so are the Silver Pennies."""

    characteristics: StandingCharacteristics
    experience_bank: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)] | None = None
    experience_total: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)] | None = None
    silver_pennies: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]

    def stats(self) -> Characteristics:
        """The characteristics as the record holds them: the eight, and PB among the optional ones."""
        values = self.characteristics
        optional = {"PB": values.PB} if values.PB is not None else {}
        return Characteristics(**{code: getattr(values, code) for code in EIGHT}, optional=optional)


class Rolls(BaseModel):
    """Every die used. Optional characteristics add their own keys (`beauty` for Physical Beauty)."""

    model_config = ConfigDict(extra="allow", defer_build=True)  # built when used, as _Strict

    points: Roll | None = Field(None, description="5.1: the 2D10 total, 2-20")
    hand: list[Roll] | None = Field(None, max_length=MAX_ENTRIES, description="6.2: [D5, D10]")
    race: list[Roll] | None = Field(
        None, max_length=MAX_ENTRIES, description="6.3: one D100 per race attempt"
    )
    race_type: Roll | None = Field(None, description="6.6/6.9: D10 for a giant's or shape-changer's type")
    aspect: Roll | None = Field(None, description="7.1: D100")
    social_status: Roll | None = Field(None, description="8.1: D100")
    birth_order: Roll | None = Field(None, description="8.2: D100")
    sibling_rank: Roll | None = Field(None, description="8.4: D10, legitimate children only")
    experience: Roll | None = Field(None, description="8.5: D100 for Experience Points")
    silver: Roll | None = Field(None, description="8.5: D100 for Silver Pennies")
    beauty: list[Roll] | None = Field(
        None, max_length=MAX_ENTRIES, description="5.5: four D5 for Physical Beauty (4D5+3)"
    )

    @model_validator(mode="before")
    @classmethod
    def _hundred(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        read = dict(data)
        for key in D100_ROLLS:
            value = read.get(key)
            read[key] = [_percentile(v) for v in value] if isinstance(value, list) else _percentile(value)
            if key not in data:
                del read[key]
        return read


def _lower(value: Any) -> Any:
    """A fixed choice in any case (`Rank`, ` Talent `): the words a file may give are lower case."""
    return value.strip().lower() if isinstance(value, str) else value


class Award(_Strict):
    """12: Experience Points awarded at the end of an adventure, into the bank."""

    award: Annotated[StrictInt, Field(ge=1, le=MAX_NUMBER)]
    note: Name | None = None
    date: Name | None = Field(None, description="when, as the player writes it (2026-12-06)")


class Raise(_Strict):
    """17, 87: Experience spent to raise a characteristic (PS, MD, ...), a weapon or shield held, a skill,
    language or spell, to `to`. `cost` is what was spent: the GM's chart times the race multiplier (6.x) when
    the file leaves it out, else the GM's figure as typed."""

    raise_: Id = Field(alias="raise")
    to: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]
    cost: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)] | None = None
    note: Name | None = None
    date: Name | None = Field(None, description="when, as the player writes it (2026-12-06)")


def _entry_kind(value: Any) -> str:
    """An entry with `award` is an award; any other, a raise (whose own keys its messages then name)."""
    award = isinstance(value, Award) or (isinstance(value, dict) and "award" in value)
    return f"{UNION_TAG}award" if award else f"{UNION_TAG}raise"


#: One entry of the ledger: its member chosen by its keys, so a mistake is told once, as that member's.
Entry = Annotated[
    Annotated[Award, Tag(f"{UNION_TAG}award")] | Annotated[Raise, Tag(f"{UNION_TAG}raise")],
    Discriminator(_entry_kind),
]


class Item(_Strict):
    name: Id
    rank: Rank | None = Field(None, description="no rank = unranked; 0 is Rank 0")
    increase: Literal["strength", "rank"] | None = Field(
        None, description="18.5 (with optional: [18.5]): the system of increased damage; strength unless rank"
    )

    _increase_in_any_case = field_validator("increase", mode="before")(_lower)


class Override(_Strict):
    """A GM's ruling on one value the rules compute: the value to use and why. `computed` is what the rules
    give, written by chargen beside it (worked out again on every build)."""

    value: Annotated[StrictInt, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
    reason: Name
    computed: Annotated[StrictInt, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)] | None = None


class Ability(_Strict):
    """A skill (48-62) or language (49) with its Rank."""

    name: Name
    rank: Rank = Field(0, description="no rank = Rank 0")


class MagicAbility(_Strict):
    """A talent, spell or ritual (34-47); `kind` may be left to the table when the table lists it."""

    name: Name
    rank: Rank = Field(0, description="no rank = Rank 0")
    kind: Literal["talent", "spell", "ritual"] | None = None

    _kind_in_any_case = field_validator("kind", mode="before")(_lower)


def _number(value: Any) -> Any:
    """A weight is a number: one message for what is none (not one for each kind of number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("should be a number of pounds")
    return value


class Gear(_Strict):
    """Equipment beyond arms and armor, as the player enters it (weight in pounds, each)."""

    name: Name
    weight: Annotated[StrictInt | StrictFloat, BeforeValidator(_number), Field(ge=0, le=10_000)] | None = None
    count: Annotated[StrictInt, Field(ge=1, le=10_000)] = 1


class Points(_Strict):
    total: Count
    maximum: Count | None = None


class RulesetUsed(_Strict):
    """A ruleset the file was made with: its name and the first 16 hex digits of its SHA-256."""

    name: Id
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]


class CharacterInput(_Strict):
    """A character file. The first block is what a player or GM chooses or rolled; the rest is derived
    and recomputed on `build` (a file chargen wrote gives back the same character)."""

    schema_version: Literal[1] = 1
    name: Name | None = None
    player: Name | None = Field(None, description="who plays the character")
    campaign: Name | None = Field(None, description="the campaign the character plays in")
    seed: Seed | None = Field(None, description="seed of the RNG that rolled the dice not given")
    rules: list[RulesetUsed] | None = Field(
        None,
        max_length=MAX_ENTRIES,
        description="the rulesets (house rules) the file was made with, in order: build and validate use them",
    )
    archetype: Id | None = Field(None, description="allocation/equipment archetype for rolled characters")
    strategy: Id | None = Field(
        None,
        description="deprecated: the old name of `archetype`, still read",
        json_schema_extra={"deprecated": True},
    )
    gender: GenderId | None = None
    race: Id | None = None
    race_attempts: list[Id] | None = Field(
        None, min_length=1, max_length=MAX_ENTRIES, description="6.3: races tried, in order"
    )
    race_type: Id | None = None
    hand: HandId | None = None
    aspect: Id | None = None
    standing: Standing | None = Field(
        None,
        description="a played character as it stands, its creation unknown: {characteristics, "
        "experience_bank, experience_total, silver_pennies}",
    )
    points: Points | None = None
    allocation: Allocation | None = None
    optional: list[Id] = Field(
        default_factory=list,
        max_length=MAX_ENTRIES,
        description="optional characteristics to roll and optional rules to use, e.g. [PB, 18.5]",
    )
    rolls: Rolls = Field(default_factory=Rolls)
    weapons: list[Item] = Field(default_factory=list, max_length=MAX_ENTRIES)
    armor: Id | None = None
    shield: Item | None = None
    unarmed_rank: Rank | None = Field(None, description="Rank in Unarmed Combat (21)")
    equipment_given: StrictBool = False
    equipment: list[Gear] = Field(
        default_factory=list, max_length=MAX_ENTRIES, description="what else is carried, with weights"
    )
    skills: list[Ability] = Field(
        default_factory=list, max_length=MAX_ENTRIES, description="48-62: skills and Ranks"
    )
    languages: list[Ability] = Field(
        default_factory=list, max_length=MAX_ENTRIES, description="49: languages and Ranks"
    )
    college: Id | None = Field(None, description="34-47: the college of magic")
    spells: list[MagicAbility] = Field(
        default_factory=list, max_length=MAX_ENTRIES, description="talents, spells and rituals"
    )
    abilities_given: StrictBool | None = Field(
        None, description="true when the skills, languages and magic were given (an NPC's), not bought (8.6)"
    )
    # Derived: written by chargen, recomputed on build, compared by validate.
    characteristics: dict[str, int] | None = None
    modifiers: dict[str, dict[str, int]] | None = None
    tmr: int | None = None
    experience_multiplier: float | None = None
    life_span: Name | None = Field(None, description="Section IV (8): the life span the race table gives")
    starting_age: Name | None = Field(
        None, description="Section IV (8): the starting age the race table gives"
    )
    racial_talents: list[Id] | None = Field(
        None,
        max_length=MAX_ENTRIES,
        description="6.4-6.9: the talents the race grants (the elf's Witchsight), not bought",
    )
    heritage: dict[str, JsonValue] | None = None
    experience_points: int | None = None
    starting_silver: int | None = None
    silver_pennies: int | None = None
    combat: dict[str, JsonValue] | None = None
    experience_bank: int | None = None
    experience_total: int | None = Field(None, description="12: 8.5's Experience and every award, in all")
    overrides: dict[Id, Override] | None = Field(
        None,
        max_length=MAX_ENTRIES,
        description="the GM's values in place of the rules' own, by name as `chargen explain` takes it "
        "(defense, weapons.broadsword.strike_chance, experience_bank): {value, reason}",
    )
    notes: list[Name] | None = Field(
        None, max_length=MAX_ENTRIES, description="the player's notes (chargen adds its own)"
    )
    advancement: list[Entry] | None = Field(
        None,
        max_length=MAX_ENTRIES,
        description="12, 17, 87: what happened in play, in order: {award, note} and {raise, to, cost, note}",
    )

    @model_validator(mode="after")
    def _one_archetype(self) -> "CharacterInput":
        """`strategy` is the old spelling of `archetype`: read into it (both given, they must agree)."""
        if self.strategy is not None:
            if self.archetype is not None and self.archetype != self.strategy:
                raise ValueError(
                    f"{OLD_ARCHETYPE_KEY} (the old name of {ARCHETYPE_KEY}) says {self.strategy!r} but "
                    f"{ARCHETYPE_KEY} says {self.archetype!r}"
                )
            self.archetype = self.strategy
        return self

    @property
    def archetype_key(self) -> str:
        """The key the file named its archetype under (`strategy` in older files), for messages."""
        return OLD_ARCHETYPE_KEY if self.strategy is not None else ARCHETYPE_KEY

    @field_validator("gender", "hand", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        """`Male`, ` Left ` mean male and left."""
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("weapons", "skills", "languages", "spells", mode="before")
    @classmethod
    def _bare_names(cls, value: Any) -> Any:
        """`weapons: [broadsword, dagger]` (or `weapons: broadsword, dagger`) is a list of unranked weapons;
        `languages: [dwarvish]`, a list of languages at Rank 0, as skills and magic."""
        if isinstance(value, str) and value.strip():
            value = [part for part in value.split(",") if part.strip()]
        if isinstance(value, list):
            return [{"name": item} if isinstance(item, str) else item for item in value]
        return value

    @field_validator("optional", mode="before")
    @classmethod
    def _rule_numbers(cls, value: Any) -> Any:
        """`optional: [18.5]`: YAML reads a rule number as a float; it is the code "18.5". A code is read in
        any case (`pb` is PB), as the tables write them."""
        if isinstance(value, list):
            return [
                str(item)
                if isinstance(item, float)
                else item.strip().upper()
                if isinstance(item, str)
                else item
                for item in value
            ]
        return value

    @field_validator("shield", mode="before")
    @classmethod
    def _bare_shield_name(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @field_validator("race_attempts")
    @classmethod
    def _different_races(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and len(set(value)) != len(value):
            raise ValueError("each attempt must be at a different race (6.3)")
        return value

    @model_validator(mode="after")
    def _beauty_needs_pb(self) -> "CharacterInput":
        # 5.5: Physical Beauty is rolled only when asked for; its dice alone do not add it.
        if self.rolls.beauty is not None and "PB" not in self.optional:
            raise ValueError(
                "rolls.beauty gives Physical Beauty's dice, but optional does not list PB (rule 5.5)"
            )
        return self


DERIVED_KEYS = (
    "points",
    "characteristics",
    "modifiers",
    "tmr",
    "experience_multiplier",
    "life_span",
    "starting_age",
    "racial_talents",
    "heritage",
    "experience_points",
    "starting_silver",
    "silver_pennies",
    "combat",
    "experience_bank",
    "experience_total",
    "notes",
)


def dump_document(character: Character, fmt: str) -> str:
    """The character file text: YAML (default) or JSON, byte-identical for the same character."""
    document = to_document(character)
    if fmt == "json":
        return indented(document) + "\n"
    return dump_yaml(document)


def json_schema() -> dict[str, Any]:
    schema = CharacterInput.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "chargen character file"
    return schema
