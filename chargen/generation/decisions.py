"""What each generation step decided, handed from the pipeline to the derived values.

Slotted dataclasses, not frozen: a roll makes one of each and nothing changes them after, and a frozen
dataclass stores each field through object.__setattr__, a cost on every roll (docs/performance.md).
Modifiers and Abilities, kept and shared between rolls, are frozen."""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen.character_file import CharacterInput
from chargen.dice import GivenRoll
from chargen.generation.equipment import Equipment
from chargen.generation.heritage import Heritage
from chargen.model import MagicRanked, Modifier, Ranked
from chargen.tables.schema import PointRow
from chargen.vocabulary import EIGHT

#: The codes race and gender modify: the eight characteristics and TMR (6.1, 6.4-6.9).
MODIFIED = (*EIGHT, "TMR")


@dataclass(slots=True)
class Points:
    """5.1-5.2: the archetype followed (if any), the Characteristic Points row and the allocation."""

    archetype: str | None
    row: PointRow
    allocation: dict[str, int]


@dataclass(slots=True)
class RaceResult:
    """6.3: the race, and the races tried in order up to the first success (None: set outright)."""

    race: str
    attempts: list[str] | None


@dataclass(slots=True)
class Birthrights:
    """6.1-6.3, 6.6, 6.9, 7.1."""

    gender: str
    hand: str
    race: RaceResult
    race_type: str | None
    aspect: str


@dataclass(frozen=True, slots=True)
class Modifiers:
    """6.1, 6.4-6.9: what race (with its type) and gender add, by characteristic code (and TMR); `each`
    and `total` hold every code the record lists, worked out once (`Modifiers.of`)."""

    race: dict[str, int]
    gender: dict[str, int]
    each: dict[str, Modifier]
    total: dict[str, int]

    @classmethod
    def of(cls, race: dict[str, int], gender: dict[str, int]) -> Modifiers:
        each = {code: Modifier(race.get(code, 0), gender.get(code, 0)) for code in MODIFIED}
        total = {code: item.race + item.gender for code, item in each.items()}
        return cls(race=race, gender=gender, each=each, total=total)


@dataclass(slots=True)
class Kit:
    """8.7: what the character carries, whether it was given, and what it cost."""

    equipment: Equipment
    given: bool
    cost: int


@dataclass(frozen=True, slots=True)
class Abilities:
    """The skills, college and magic an NPC is given (`given`: True, so 8.6 charges nothing), or
    those a rolled character buys (with the Experience Point Bank 8.6 leaves); an empty
    Abilities for everyone else (a file's own are added after the derived values)."""

    skills: tuple[Ranked, ...] = ()
    college: str | None = None
    spells: tuple[MagicRanked, ...] = ()
    given: bool | None = None
    experience_bank: int | None = None


NO_ABILITIES = Abilities()


@dataclass(slots=True, kw_only=True)
class Decisions:
    """Every step's outcome, in the book's order, before the derived values are worked out."""

    spec: CharacterInput
    seed: int | None
    points: Points
    optional: dict[str, int]
    born: Birthrights
    heritage: Heritage
    modifiers: Modifiers
    kit: Kit
    name: str
    rolls: dict[str, GivenRoll]
    abilities: Abilities = NO_ABILITIES
    # 17, 87: what the file's ledger raised each characteristic by (chargen.generation.ledger), by code.
    raised: dict[str, int] = field(default_factory=dict)
