"""Dice: each roll comes from the player's own dice when the input gives it, else from a seeded RNG.

Every die used is recorded under its key, so the record rebuilds the same character. A seeded
`random.Random` is always passed in; the global random module is never used.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from chargen.errors import InputError, Problem, shown

_DICE = re.compile(r"^(?P<count>[1-9][0-9]*)?D(?P<sides>[1-9][0-9]*)(?P<modifier>[+-][0-9]+)?$")
T = TypeVar("T")
#: A given roll as a character file holds it: one number, or several dice kept apart.
GivenRoll = int | list[int]


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """Parsed `NdS+M` notation (the book's 4D5+3, 2D10, D100). The one parser of dice notation: the tables
    hold DiceSpec values (parsed when they load), and every step rolls the spec as written."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceSpec:
        match = _DICE.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"{text!r} is not dice notation (such as D100, 2D10 or 4D5+3)")
        return cls(int(match["count"] or 1), int(match["sides"]), int(match["modifier"] or 0))

    @property
    def low(self) -> int:
        """The smallest result: every die showing 1."""
        return self.count + self.modifier

    @property
    def high(self) -> int:
        """The largest result: every die showing its highest face."""
        return self.count * self.sides + self.modifier

    def __str__(self) -> str:
        count = str(self.count) if self.count > 1 else ""
        modifier = f"{self.modifier:+d}" if self.modifier else ""
        return f"{count}D{self.sides}{modifier}"


class Unrolled(Exception):
    """A die a step would roll with no seed to roll it (the file's seed was found wrong): the step is not
    run (chargen.all_problems), and no problem is made up from dice the file did not mean."""


class NoSeed(random.Random):
    """The generator of a file whose seed was found wrong: every draw is Unrolled. (random() and
    getrandbits() are the two methods the random module documents for a generator of one's own.)"""

    def random(self) -> float:
        raise Unrolled

    def getrandbits(self, k: int, /) -> int:
        raise Unrolled


class Dice:
    """Hands out rolls: the given ones first (checked against the die), otherwise fresh ones from the RNG.

    `used_rng` says whether anything drew from the RNG (then the seed belongs in the file). Every draw goes
    through this object: its own dice, or `dice.rng`, which marks the RNG used when a step takes it, so no
    step can forget to say so (and nobody compares the generator's whole state, which is slow)."""

    __slots__ = ("_rng", "given", "record", "used_rng")

    def __init__(
        self,
        rng: random.Random,
        given: Mapping[str, object] | None = None,
        record: dict[str, GivenRoll] | None = None,
    ) -> None:
        self._rng = rng
        self.given: Mapping[str, object] = given if given is not None else {}
        self.record: dict[str, GivenRoll] = record if record is not None else {}
        self.used_rng = False

    @property
    def rng(self) -> random.Random:
        """The RNG itself, for a step that draws in its own way (5.2's jitter, 6.3's sample)."""
        self.used_rng = True
        return self._rng

    @staticmethod
    def _problem(
        where: str | tuple[str, int], value: object, message: str, rule: str | None = None
    ) -> Problem:
        """A problem with a given roll, at `rolls.KEY` (or `rolls.KEY[i]`)."""
        path = ("rolls", where) if isinstance(where, str) else ("rolls", *where)
        return Problem(path=path, message=f"{shown(value)} {message}", rule=rule, value=value)

    def _check(
        self, where: str | tuple[str, int], value: object, low: int, high: int, die: str, rule: str
    ) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(self._problem(where, value, f"is not a {die} roll ({low}-{high})", rule))
        return value

    def roll(self, key: str, spec: DiceSpec, rule: str) -> int:
        """A roll as the table writes it (D100, 5.1's 2D10, 2D50): the dice read as their total plus any
        modifier, recorded as that result."""
        if key in self.given:
            value = self._check(key, self.given[key], spec.low, spec.high, str(spec), rule)
        else:
            # Each die is randrange(sides) + 1: the very draw randint(1, sides) makes, one call fewer.
            self.used_rng = True
            draw, sides = self._rng.randrange, spec.sides
            value = spec.modifier + spec.count
            for _ in range(spec.count):
                value += draw(sides)
        self.record[key] = value
        return value

    def each(self, key: str, sides: list[int], rule: str) -> list[int]:
        """Several dice kept apart ([D5, D10] for 6.2, [D5]*4 for Physical Beauty), recorded as a list."""
        if key in self.given:
            values = self.given[key]
            if not isinstance(values, list) or len(values) != len(sides):
                names = ", ".join(f"D{side}" for side in sides)
                raise InputError(
                    self._problem(key, values, f"should be a list of {len(sides)} dice [{names}]", rule)
                )
            checked = [
                self._check((key, index), value, 1, side, f"D{side}", rule)
                for index, (value, side) in enumerate(zip(values, sides, strict=True))
            ]
        else:
            self.used_rng = True
            draw = self._rng.randrange
            checked = [draw(side) + 1 for side in sides]
        self.record[key] = checked
        return checked

    def nth(self, key: str, index: int, sides: int, rule: str) -> int:
        """The index-th die of a list that grows one roll at a time (one D100 per race attempt, 6.3)."""
        given = self.given.get(key)
        if given is not None and not isinstance(given, list):
            raise InputError(self._problem(key, given, f"should be a list of D{sides} rolls", rule))
        if given is not None and index < len(given):
            value = self._check((key, index), given[index], 1, sides, f"D{sides}", rule)
        else:
            self.used_rng = True
            value = self._rng.randrange(sides) + 1
        rolled = self.record.setdefault(key, [])
        assert isinstance(rolled, list)
        rolled.append(value)
        return value

    def unused(self) -> list[Problem]:
        """Given rolls that the generation never read: a sign of a mistaken file."""
        problems = []
        for key, value in self.given.items():
            if key not in self.record:
                problems.append(self._problem(key, value, "was given but no step uses it"))
            elif isinstance(value, list) and len(value) > len(recorded := self.record[key]):  # type: ignore[arg-type]
                extra = value[len(recorded) :]  # type: ignore[arg-type]
                problems.append(self._problem(key, extra, "given beyond the rolls used"))
        return problems

    def choice(self, options: Sequence[T]) -> T:
        """A choice the player would make (not a die): drawn from the RNG, its result stored by the caller."""
        self.used_rng = True
        return self._rng.choice(options)

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """`count` different options in the order drawn (6.3's race attempts)."""
        self.used_rng = True
        return self._rng.sample(options, count)
