"""Table look-ups precompiled: for every die result (or value) a table can be read at, the row it reads,
worked out once per Tables instead of scanning the rows on every roll (the hot path of a batch).

Built lazily by `Tables.index` from the checked tables; every answer is the one the row scan gives
(`row_for`, `read_band`, `point_row_for_roll`), and a result off the index falls back to that scan, so a
table error still reads as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from chargen.dice import DiceSpec
from chargen.rules.allocation import places_allowed, places_at_maximum
from chargen.tables.base import Band
from chargen.tables.schema import AllocationLimits, AllotmentRow, PointRow, ValueBand

#: A weapon line's Strike Chance, damage, damage modifier, two-handed damage, and endurance damage and
#: grievous injury ranges (chargen.generation.derived).
WeaponTerms = tuple[int, str, "int | None", "str | None", "str | None", "str | None"]
#: An unarmed line's Strike Chance, damage, and endurance damage and grievous injury ranges.
UnarmedTerms = tuple[int, str, "str | None", "str | None"]

if TYPE_CHECKING:
    from chargen.generation.decisions import Abilities, Modifiers
    from chargen.model import ArmorLine, UnarmedLine, WeaponLine
    from chargen.tables.loader import Tables

Key = TypeVar("Key")
#: For (at the maximum, at maximum-1, at maximum-2) counts: may a value at maximum-1, -2, -3 gain a point?
Raisable = dict[tuple[int, int, int], tuple[bool, bool, bool]]


class RollIndex(Generic[Key]):
    """The key of the row holding each result low..high of a table's die (the first row, as a scan finds)."""

    __slots__ = ("keys", "low", "pairs", "where")

    def __init__(self, pairs: Iterable[tuple[Key, Band]], low: int, high: int, where: str) -> None:
        self.pairs = list(pairs)
        self.low, self.where = low, where
        self.keys: list[Key | None] = [None] * (high - low + 1)
        for key, row in reversed(self.pairs):  # reversed: the first row holding a result wins
            for result in range(max(row.low, low), min(row.high, high) + 1):
                self.keys[result - low] = key

    def __call__(self, roll: int) -> Key:
        offset = roll - self.low
        found = self.keys[offset] if 0 <= offset < len(self.keys) else None
        if found is None:
            from chargen.tables.loader import row_for

            return row_for(self.pairs, roll, self.where)  # raises the table error a miss is
        return found


def by_dice(pairs: Iterable[tuple[Key, Band]], dice: DiceSpec, where: str) -> RollIndex[Key]:
    return RollIndex(pairs, dice.low, dice.high, where)


class BandIndex:
    """`read_band` precompiled: the first band holding each value between the lowest low and highest high;
    None outside them, as the scan gives."""

    __slots__ = ("bands",)

    def __init__(self, rows: Sequence[ValueBand]) -> None:
        low = min((row.low for row in rows), default=0)
        high = max((row.high for row in rows), default=-1)
        self.bands = RollIndex(((row, row) for row in rows), low, high, "")

    def __call__(self, value: int) -> ValueBand | None:
        offset = value - self.bands.low
        keys = self.bands.keys
        return keys[offset] if 0 <= offset < len(keys) else None


class TableIndex:
    """Every precompiled look-up of one Tables."""

    def __init__(self, tables: Tables) -> None:
        heritage = tables.heritage
        self.social_status = by_dice(
            heritage.social_status.rows.items(), heritage.social_status.dice, "heritage.social_status"
        )
        self.sibling_rank = by_dice(
            heritage.sibling_rank.rows.items(), heritage.sibling_rank.dice, "heritage.sibling_rank"
        )
        allotment = heritage.starting_allotment
        rows: list[AllotmentRow] = allotment.rows
        self.allotment = by_dice(enumerate(rows), allotment.dice, "heritage.starting_allotment")
        self.aspect = by_dice(tables.aspects.items(), tables.aspect_file.dice, "aspects")
        self.race_types = {
            race_id: by_dice(race.types.items(), race.type_dice, f"races.{race.name}.types")
            for race_id, race in tables.races.items()
            if race.types and race.type_dice is not None
        }
        #: 6.3: the races a rolled character may try for (the chance of any other is 100), in table order.
        self.rolled_races = [race_id for race_id, race in tables.races.items() if race.chance < 100]
        characteristics = tables.characteristics
        self.fatigue = BandIndex(characteristics.fatigue.rows)
        self.tmr = BandIndex(characteristics.tmr.rows)
        point_rows: dict[int, PointRow] = {}
        for row in characteristics.point_generation.rows:
            point_rows.setdefault(row.roll, row)  # the first row of a roll, as a scan finds
        self.point_rows = point_rows
        # A rolled player character's archetypes: the adventurers' (tables/archetypes.yaml), else any.
        self.adventurers = sorted(
            key for key, kind in tables.archetypes.items() if kind.adventurer
        ) or sorted(tables.archetypes)
        #: Modifiers by (race, race type, gender), filled by the generation as it meets them.
        self.modifiers: dict[tuple[str, str | None, str], Modifiers] = {}
        #: The abilities a rolled character buys, by (archetype, race, race type, 8.5 Experience),
        #: filled by the generation as it meets them (chargen.generation.abilities.bought_abilities).
        self.bought: dict[tuple[str, str, str | None, int], Abilities] = {}
        #: 8.6's price of an ability at a Rank by (ability, Rank, magic or not, the race's multiplier).
        self.prices: dict[tuple[str, int, bool, float], int | None] = {}
        #: The record's weapon and unarmed lines by what they read (chargen.generation.derived): filled as
        #: characters meet them, bounded by the few values a characteristic takes.
        self.weapon_lines: dict[tuple[str, int | None, int, int, int, int, int], WeaponLine] = {}
        self.unarmed_lines: dict[tuple[int | None, int, int, int, int, int], UnarmedLine] = {}
        #: What a new line shares with earlier ones: a weapon's Strike Chance, damage and special damage by
        #: (weapon, Rank, the MD it strikes with, MD, PS), unarmed combat's by (Rank, MD it strikes with,
        #: modified Agility, MD, PS), and the Initiative by (modified Agility, Perception, Rank): far more
        #: weapon lines find their terms here than find the whole line (docs/performance.md).
        self.weapon_terms: dict[tuple[str, int | None, int, int, int], WeaponTerms] = {}
        self.unarmed_terms: dict[tuple[int | None, int, int, int, int], UnarmedTerms] = {}
        self.initiatives: dict[tuple[int, int, int | None], int] = {}
        #: The armor line by (armor, race size, gender): a handful of each.
        self.armor_lines: dict[tuple[str, int, str], ArmorLine] = {}
        self._limits = characteristics.allocation_limits
        self._raisable: dict[tuple[int, int], Raisable] = {}

    def forget_lines(self) -> None:
        """Empty the weapon and unarmed lines kept so far, with the terms and Initiatives they share, and
        the abilities bought (chargen.generation.pipeline.forget_memos)."""
        self.weapon_lines.clear()
        self.unarmed_lines.clear()
        self.weapon_terms.clear()
        self.unarmed_terms.clear()
        self.initiatives.clear()
        self.bought.clear()

    def raisable(self, maximum: int, places: int) -> Raisable:
        """5.2's place limits for a Point Generation row's maximum, as a table: for how many values sit at
        the maximum, maximum-1 and maximum-2, whether one more point may go to a value now at maximum-1,
        maximum-2 or maximum-3 (the allocation search asks this for every point it hands out)."""
        table = self._raisable.get((maximum, places))
        if table is None:
            table = self._raisable[maximum, places] = raisable_places(maximum, self._limits, places)
        return table


def raisable_places(maximum: int, limits: AllocationLimits, places: int) -> Raisable:
    allowed_max = places_at_maximum(maximum, limits)

    def allowed(at_max: int, one_below: int, two_below: int) -> bool:
        return places_allowed(at_max, one_below, two_below, allowed_max, limits)

    table: Raisable = {}
    for at_max in range(places + 1):
        for one_below in range(places + 1 - at_max):
            for two_below in range(places + 1 - at_max - one_below):
                table[at_max, one_below, two_below] = (
                    one_below > 0 and allowed(at_max + 1, one_below - 1, two_below),
                    two_below > 0 and allowed(at_max, one_below + 1, two_below - 1),
                    allowed(at_max, one_below, two_below + 1),
                )
    return table
