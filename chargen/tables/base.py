"""Building blocks of the table schemas: characteristic codes, entries, bands read by a die."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, PlainSerializer, model_validator

from chargen.dice import DiceSpec
from chargen.errors import shown
from chargen.vocabulary import EIGHT, PRIMARIES

PRIMARY_CODES = PRIMARIES
MODIFIABLE_CODES = (*EIGHT, "TMR")


def _primary(code: str) -> str:
    if code not in PRIMARY_CODES:
        raise ValueError(f"{code!r} is not a primary characteristic ({', '.join(PRIMARY_CODES)})")
    return code


def _modifiable(code: str) -> str:
    if code not in MODIFIABLE_CODES:
        raise ValueError(
            f"{code!r} is not a characteristic a race or gender modifies ({', '.join(MODIFIABLE_CODES)})"
        )
    return code


Primary = Annotated[str, AfterValidator(_primary)]
Modifiable = Annotated[str, AfterValidator(_modifiable)]


#: The most dice, and sides of a die, a table may name: the book's largest is D100 (a GM's D1000 is
#: welcome); past these a roll takes seconds (100000000D2: 14 s a character) and a table's row check
#: builds every result (D1000000000000: out of memory).
MAX_DICE = 100
MAX_SIDES = 10_000


def _dice(text: object) -> DiceSpec:
    spec = text if isinstance(text, DiceSpec) else DiceSpec.parse(text)  # type: ignore[arg-type]
    if spec.count > MAX_DICE or spec.sides > MAX_SIDES or abs(spec.modifier) > MAX_SIDES * MAX_DICE:
        raise ValueError(
            f"{shown(str(text))}: at most {MAX_DICE} dice of at most {MAX_SIDES:,} sides (and a modifier "
            f"of at most {MAX_SIDES * MAX_DICE:,})"
        )
    return spec


#: Dice notation in a table (`dice: D100`), parsed once when the tables load by chargen.dice.
DiceNotation = Annotated[DiceSpec, BeforeValidator(_dice), PlainSerializer(str)]


def _single(spec: DiceSpec) -> DiceSpec:
    if spec.count != 1 or spec.modifier:
        raise ValueError(f"{spec} is not a single die (such as D10): each of these rolls is read alone")
    return spec


#: One die read alone (6.2's D5 and D10, 6.3's D100 per attempt).
SingleDie = Annotated[DiceNotation, AfterValidator(_single)]


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Band(Entry):
    """A row read by a die or a value falling between low and high, inclusive."""

    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> Band:
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    def holds(self, value: int) -> bool:
        return self.low <= value <= self.high


class ValueBand(Band):
    value: int


class WholeTableError(ValueError):
    """A problem a check of a whole table finds (a cycle between its formulas) that lies at one of `places`,
    key paths in the table: told where a ruleset last set one of them, else at the first."""

    def __init__(self, message: str, places: tuple[tuple[str | int, ...], ...]) -> None:
        super().__init__(message)
        self.places = places
