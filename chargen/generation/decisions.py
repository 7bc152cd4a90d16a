"""What each generation step decided, handed from the pipeline to the derived values.

Plain classes with Final attributes rather than frozen dataclasses: this module is compiled with mypyc
(hatch_build.py), where a class with its own `__init__` is built and read in C, while a frozen dataclass is
still built by dataclasses' Python-level `__init__`. A roll makes five of these; mypy --strict keeps them
unchanged once made."""

from __future__ import annotations

from typing import Final

from chargen.character_file import CharacterInput
from chargen.dice import GivenRoll
from chargen.generation.equipment import Equipment
from chargen.generation.heritage import Heritage
from chargen.model import MagicRanked, Modifier, Ranked
from chargen.tables.schema import PointRow
from chargen.vocabulary import EIGHT

#: The codes race and gender modify: the eight characteristics and TMR (6.1, 6.4-6.9).
MODIFIED = (*EIGHT, "TMR")


class Points:
    """5.1-5.2: the archetype followed (if any), the Characteristic Points row and the allocation."""

    def __init__(self, archetype: str | None, row: PointRow, allocation: dict[str, int]) -> None:
        self.archetype: Final = archetype
        self.row: Final = row
        self.allocation: Final = allocation


class RaceResult:
    """6.3: the race, and the races tried in order up to the first success (None: set outright)."""

    def __init__(self, race: str, attempts: list[str] | None) -> None:
        self.race: Final = race
        self.attempts: Final = attempts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RaceResult) and (self.race, self.attempts) == (other.race, other.attempts)

    def __repr__(self) -> str:
        return f"RaceResult({self.race!r}, {self.attempts!r})"


class Birthrights:
    """6.1-6.3, 6.6, 6.9, 7.1."""

    def __init__(self, gender: str, hand: str, race: RaceResult, race_type: str | None, aspect: str) -> None:
        self.gender: Final = gender
        self.hand: Final = hand
        self.race: Final = race
        self.race_type: Final = race_type
        self.aspect: Final = aspect

    def _values(self) -> tuple[str, str, RaceResult, str | None, str]:
        return (self.gender, self.hand, self.race, self.race_type, self.aspect)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Birthrights) and self._values() == other._values()

    def __repr__(self) -> str:
        return f"Birthrights{self._values()!r}"


class Modifiers:
    """6.1, 6.4-6.9: what race (with its type) and gender add, by characteristic code (and TMR); `each`
    and `total` hold every code the record lists, worked out once."""

    def __init__(self, race: dict[str, int], gender: dict[str, int]) -> None:
        each = {code: Modifier(race.get(code, 0), gender.get(code, 0)) for code in MODIFIED}
        self.race: Final = race
        self.gender: Final = gender
        self.each: Final = each
        self.total: Final = {code: item.race + item.gender for code, item in each.items()}


class Kit:
    """8.7: what the character carries, whether it was given, and what it cost."""

    def __init__(self, equipment: Equipment, given: bool, cost: int) -> None:
        self.equipment: Final = equipment
        self.given: Final = given
        self.cost: Final = cost


class Abilities:
    """Issue 12: the skills, college and magic an NPC is given (`given`: True, so 8.6 charges nothing);
    an empty Abilities for everyone else (a file's own are added after the derived values)."""

    def __init__(
        self,
        skills: tuple[Ranked, ...] = (),
        college: str | None = None,
        spells: tuple[MagicRanked, ...] = (),
        given: bool | None = None,
    ) -> None:
        self.skills: Final = skills
        self.college: Final = college
        self.spells: Final = spells
        self.given: Final = given


NO_ABILITIES = Abilities()


class Decisions:
    """Every step's outcome, in the book's order, before the derived values are worked out."""

    def __init__(
        self,
        spec: CharacterInput,
        seed: int | None,
        points: Points,
        optional: dict[str, int],
        born: Birthrights,
        heritage: Heritage,
        modifiers: Modifiers,
        kit: Kit,
        name: str,
        rolls: dict[str, GivenRoll],
        abilities: Abilities = NO_ABILITIES,
    ) -> None:
        self.spec: Final = spec
        self.seed: Final = seed
        self.points: Final = points
        self.optional: Final = optional
        self.born: Final = born
        self.heritage: Final = heritage
        self.modifiers: Final = modifiers
        self.kit: Final = kit
        self.name: Final = name
        self.rolls: Final = rolls
        self.abilities: Final = abilities
