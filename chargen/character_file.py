"""The character file: YAML (or JSON) in and out, its schema, and its exact key order on output."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from chargen.errors import InputError
from chargen.yamlio import Located, dump_yaml, load_located, parse_path

SCHEMA_VERSION = 1
PRIMARIES = ("PS", "MD", "AG", "EN", "MA", "WP")
Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


def _printable(value: str) -> str:
    """A name is one line of text a YAML file can hold as it is: no control characters or line breaks."""
    if not value.isprintable():
        raise ValueError("holds a control character or line break; a name is one line of text")
    return value


Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500), AfterValidator(_printable)
]
#: Rolls read on percentile dice: a D100 showing `00` is 100 (6.3, 7.1, 8.1, 8.2, 8.5).
D100_ROLLS = ("race", "aspect", "social_status", "birth_order", "experience", "silver")


def _percentile(value: Any) -> Any:
    """`00` (or 0) on a D100 is 100, as players read the two dice."""
    if isinstance(value, str) and value.strip() in {"0", "00"}:
        return 100
    return 100 if value == 0 and not isinstance(value, bool) else value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Allocation(_Strict):
    """Rule 5.2: the six primaries as assigned, before race and gender modifiers."""

    @model_validator(mode="before")
    @classmethod
    def _codes_in_any_case(cls, data: Any) -> Any:
        """`ps: 15` is PS 15."""
        if isinstance(data, dict):
            return {
                key.strip().upper() if isinstance(key, str) else key: value for key, value in data.items()
            }
        return data

    PS: int
    MD: int
    AG: int
    EN: int
    MA: int
    WP: int


class Rolls(BaseModel):
    """Every die used. Optional characteristics add their own keys (`beauty` for Physical Beauty)."""

    model_config = ConfigDict(extra="allow")

    points: int | None = Field(None, description="5.1: the 2D10 total, 2-20")
    hand: list[int] | None = Field(None, description="6.2: [D5, D10]")
    race: list[int] | None = Field(None, description="6.3: one D100 per race attempt")
    race_type: int | None = Field(None, description="6.6/6.9: D10 for a giant's or shape-changer's type")
    aspect: int | None = Field(None, description="7.1: D100")
    social_status: int | None = Field(None, description="8.1: D100")
    birth_order: int | None = Field(None, description="8.2: D100")
    sibling_rank: int | None = Field(None, description="8.4: D10, legitimate children only")
    experience: int | None = Field(None, description="8.5: D100 for Experience Points")
    silver: int | None = Field(None, description="8.5: D100 for Silver Pennies")
    beauty: list[int] | None = Field(None, description="5.5: four D5 for Physical Beauty (4D5+3)")

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


class Item(_Strict):
    name: Id
    rank: int | None = Field(None, ge=0, description="no rank = unranked; 0 is Rank 0")


class Points(_Strict):
    total: int
    maximum: int | None = None


class CharacterInput(_Strict):
    """A character file. The first block is what a player or GM chooses or rolled; the rest is derived
    and recomputed on `build` (a file chargen wrote gives back the same character)."""

    schema_version: Literal[1] = 1
    name: Name | None = None
    seed: int | None = Field(None, ge=0, description="seed of the RNG that rolled the dice not given")
    strategy: Id | None = Field(None, description="allocation/equipment archetype for rolled characters")
    gender: Literal["male", "female"] | None = None
    race: Id | None = None
    race_attempts: list[Id] | None = Field(None, min_length=1, max_length=3)
    race_type: Id | None = None
    hand: Literal["right", "left", "ambidextrous"] | None = None
    aspect: Id | None = None
    points: Points | None = None
    allocation: Allocation | None = None
    optional: list[Id] = Field(
        default_factory=list, description="optional characteristics to roll, e.g. [PB]"
    )
    rolls: Rolls = Field(default_factory=Rolls)
    weapons: list[Item] = Field(default_factory=list)
    armor: Id | None = None
    shield: Item | None = None
    unarmed_rank: int | None = Field(None, ge=0, description="Rank in Unarmed Combat (21)")
    equipment_given: bool = False
    # Derived: written by chargen, recomputed on build, compared by validate.
    characteristics: dict[str, int] | None = None
    modifiers: dict[str, dict[str, int]] | None = None
    tmr: int | None = None
    experience_multiplier: float | None = None
    heritage: dict[str, Any] | None = None
    experience_points: int | None = None
    starting_silver: int | None = None
    silver_pennies: int | None = None
    combat: dict[str, Any] | None = None
    notes: list[str] | None = None

    @field_validator("gender", "hand", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        """`Male`, ` Left ` mean male and left."""
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("weapons", mode="before")
    @classmethod
    def _bare_weapon_names(cls, value: Any) -> Any:
        """`weapons: [broadsword, dagger]` (or `weapons: broadsword, dagger`) is a list of unranked weapons."""
        if isinstance(value, str) and value.strip():
            value = [part for part in value.split(",") if part.strip()]
        if isinstance(value, list):
            return [{"name": item} if isinstance(item, str) else item for item in value]
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


DERIVED_KEYS = (
    "points",
    "characteristics",
    "modifiers",
    "tmr",
    "experience_multiplier",
    "heritage",
    "experience_points",
    "starting_silver",
    "silver_pennies",
    "combat",
    "notes",
)


def parse_character(text: str, source: str) -> CharacterInput:
    """Read a YAML or JSON character file; every problem is reported with its key path and line:column."""
    return parse_located(text, source)[0]


def parse_located(text: str, source: str) -> tuple[CharacterInput, Located]:
    """parse_character, also returning where each key stands in the file (for later messages)."""
    located = load_located(text, source)
    if not isinstance(located.data, dict):
        raise InputError(f"{source}: a character file is a mapping of keys (name, gender, allocation, ...)")
    return character_input(located.data, located.where), located


def character_input(
    data: dict[str, Any], where: Callable[[Iterable[str | int]], str] | None = None
) -> CharacterInput:
    """The checked character; every problem in chargen's words with its key path (and, given `where`,
    the file and line:column), raised as one InputError."""
    from chargen.messages import rewritten

    try:
        return CharacterInput.model_validate(data)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            loc, message = rewritten(item, CharacterInput.model_fields)
            problems.append(f"{where(loc)}: {message}" if where else message)
        raise InputError(problems) from None


def dump_document(document: dict[str, Any], fmt: str) -> str:
    """The character file text: YAML (default) or JSON, byte-identical for the same document."""
    if fmt == "json":
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(document)


def json_schema() -> dict[str, Any]:
    schema = CharacterInput.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "chargen character file"
    return schema


def locate_problems(error: InputError, located: Located) -> InputError:
    """Prefix each `key.path: ...` problem with the file, line and column of that key."""
    problems = []
    for problem in error.problems:
        head, separator, _ = problem.partition(": ")
        path = parse_path(head) if separator and " " not in head else ()
        known = bool(path) and path[:1] in located.marks
        problems.append(f"{located.where(path)}: {problem}" if known else f"{located.source}: {problem}")
    return InputError(problems)
