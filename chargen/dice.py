"""Dice: each roll comes from the player's own dice when the input gives it, else from a seeded RNG.

Every die used is recorded under its key, so the record rebuilds the same character. A seeded
`random.Random` is always passed in; the global random module is never used.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


class CountingRandom(random.Random):
    """A seeded random.Random that counts its draws: every method of Random draws through random() or
    getrandbits(), so a count above zero means the RNG was used. The same numbers as random.Random(seed);
    cheaper to ask than comparing the whole generator state before and after."""

    def __init__(self, seed: int) -> None:
        self.draws = 0
        super().__init__(seed)

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.draws += 1
        return super().getrandbits(k)


@dataclass
class Dice:
    """Hands out rolls: the given ones first (checked against the die), otherwise fresh ones from `rng`."""

    rng: random.Random
    given: Mapping[str, object] = field(default_factory=dict)
    record: dict[str, GivenRoll] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rng = self.rng
        self._initial: int | tuple[object, ...] = (
            rng.draws if isinstance(rng, CountingRandom) else rng.getstate()
        )

    @property
    def used_rng(self) -> bool:
        """Whether anything drew from the RNG (then the seed belongs in the file): read off the RNG itself
        (its draw count, or its whole state), so no step can forget to say so."""
        if isinstance(self.rng, CountingRandom):
            return self.rng.draws != self._initial
        return self.rng.getstate() != self._initial

    def _fresh(self, sides: int) -> int:
        return self.rng.randint(1, sides)

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
            value = self.rng.randint(1, spec.sides) + spec.modifier
            for _ in range(spec.count - 1):
                value += self.rng.randint(1, spec.sides)
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
            checked = [self._fresh(side) for side in sides]
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
            value = self._fresh(sides)
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
        return self.rng.choice(options)
