"""The character file: YAML (or JSON) in and out, its schema, and its exact key order on output."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from chargen.errors import InputError
from chargen.yamlio import Located, dump_yaml, format_path, load_located, parse_path

SCHEMA_VERSION = 1
PRIMARIES = ("PS", "MD", "AG", "EN", "MA", "WP")
Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
# Strict: a file says 14, not '14', 14.0 or true. Bounds keep every number near its rule's range; the rules
# themselves (the dice, the charts' maximum Ranks) are checked when the character is built.
Count = Annotated[StrictInt, Field(ge=0, le=10_000)]
Roll = Annotated[StrictInt, Field(ge=0, le=1_000)]
Rank = Annotated[StrictInt, Field(ge=0, le=100)]
Seed = Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]
#: How much of a refused value a message quotes.
QUOTE_LIMIT = 80


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Allocation(_Strict):
    """Rule 5.2: the six primaries as assigned, before race and gender modifiers."""

    PS: Count
    MD: Count
    AG: Count
    EN: Count
    MA: Count
    WP: Count


class Rolls(BaseModel):
    """Every die used. Optional characteristics add their own keys (`beauty` for Physical Beauty)."""

    model_config = ConfigDict(extra="allow")

    points: Roll | None = Field(None, description="5.1: the 2D10 total, 2-20")
    hand: list[Roll] | None = Field(None, description="6.2: [D5, D10]")
    race: list[Roll] | None = Field(None, description="6.3: one D100 per race attempt")
    race_type: Roll | None = Field(None, description="6.6/6.9: D10 for a giant's or shape-changer's type")
    aspect: Roll | None = Field(None, description="7.1: D100")
    social_status: Roll | None = Field(None, description="8.1: D100")
    birth_order: Roll | None = Field(None, description="8.2: D100")
    sibling_rank: Roll | None = Field(None, description="8.4: D10, legitimate children only")
    experience: Roll | None = Field(None, description="8.5: D100 for Experience Points")
    silver: Roll | None = Field(None, description="8.5: D100 for Silver Pennies")
    beauty: list[Roll] | None = Field(None, description="5.5: four D5 for Physical Beauty (4D5+3)")


class Item(_Strict):
    name: Id
    rank: Rank | None = Field(None, description="no rank = unranked; 0 is Rank 0")


class Points(_Strict):
    total: Count
    maximum: Count | None = None


class CharacterInput(_Strict):
    """A character file. The first block is what a player or GM chooses or rolled; the rest is derived
    and recomputed on `build` (a file chargen wrote gives back the same character)."""

    schema_version: Literal[1] = 1
    name: str | None = Field(None, min_length=1, max_length=500)
    seed: Seed | None = Field(None, description="seed of the RNG that rolled the dice not given")
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
    unarmed_rank: Rank | None = Field(None, description="Rank in Unarmed Combat (21)")
    equipment_given: StrictBool = False
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

    @field_validator("race_attempts")
    @classmethod
    def _different_races(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and len(set(value)) != len(value):
            raise ValueError("each attempt must be at a different race (6.3)")
        return value

    @model_validator(mode="after")
    def _beauty_needs_pb(self) -> CharacterInput:
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
    try:
        return CharacterInput.model_validate(located.data), located
    except ValidationError as error:
        problems = []
        for item in error.errors():
            loc = tuple(part for part in item["loc"] if not str(part).startswith("function-"))
            value = (
                f" (got {quote(item['input'])})"
                if item["type"] != "missing" and not isinstance(item["input"], dict | list)
                else ""
            )
            problems.append(f"{located.where(loc)}: {format_path(loc)}: {item['msg']}{value}")
        raise InputError(problems) from None


def quote(value: Any) -> str:
    """A refused value as a message shows it: repr, cut to QUOTE_LIMIT characters."""
    text = repr(value[: QUOTE_LIMIT + 1] if isinstance(value, str) else value)
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 3] + "..."


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
