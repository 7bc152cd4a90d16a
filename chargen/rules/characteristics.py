"""Secondary characteristics and the modifiers of race and gender (rules 5.3-5.6, 6.1, 6.3-6.9)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from chargen.tables.schema import FatigueTable, TmrTable, ValueBand


def read_band(rows: Iterable[ValueBand], value: int) -> ValueBand | None:
    return next((row for row in rows if row.holds(value)), None)


@dataclass(slots=True)  # made every roll, never changed (chargen.generation.decisions: why not frozen)
class FatigueReading:
    """5.3's reading."""

    value: int
    beyond_table: bool  # the Endurance ran past the printed 5.3 rows (a giant's)


#: A band look-up precompiled from a table's rows (chargen.tables.index): what read_band gives for a value.
BandReader = Callable[[int], ValueBand | None]


def fatigue_from_endurance(
    endurance: int, table: FatigueTable, read: BandReader | None = None
) -> FatigueReading:
    """Rule 5.3 on the race- and gender-modified Endurance; past the printed rows the table's step goes on."""
    row = read(endurance) if read is not None else read_band(table.rows, endurance)
    if row is not None:
        return FatigueReading(row.value, beyond_table=False)
    lowest = min(table.rows, key=lambda band: band.low)
    if endurance < lowest.low:
        return FatigueReading(lowest.value, beyond_table=True)
    beyond = table.beyond
    return FatigueReading(beyond.base + (endurance - beyond.from_value) // beyond.step, beyond_table=True)


def tmr_from_agility(
    modified_agility: int,
    table: TmrTable,
    racial_modifier: int,
    read: BandReader | None = None,
    average: int | None = None,
) -> int:
    """Rule 5.6: TMR read from modified Agility, plus the racial TMR modifier; never below the minimum. A
    giant type's `average` TMR (14.1) takes the place of the human average: the chart's value moves it up
    or down as it moves from the human's (Cloud Giant, modified Agility 19: 13 + (6 - 5) = 14)."""
    row = tmr_chart_row(modified_agility, table, read)
    value = row.value if average is None else average + row.value - table.average
    return max(table.minimum, value + racial_modifier)


def tmr_chart_row(modified_agility: int, table: TmrTable, read: BandReader | None = None) -> ValueBand:
    """5.6's chart row at a modified Agility; off the printed rows, the nearest end row."""
    row = read(modified_agility) if read is not None else read_band(table.rows, modified_agility)
    if row is None:
        lowest = min(table.rows, key=lambda band: band.low)
        row = lowest if modified_agility < lowest.low else max(table.rows, key=lambda band: band.high)
    return row


def perception(base: int, racial_modifier: int) -> int:
    """Rule 5.4: Perception begins at 8, modified by race."""
    return base + racial_modifier


def modified_characteristics(
    allocation: Mapping[str, int], *modifier_sets: Mapping[str, int]
) -> dict[str, int]:
    """Rules 6.1 and 6.4-6.9: the allocated primaries plus every race and gender modifier."""
    result = dict(allocation)
    for modifiers in modifier_sets:
        for code, amount in modifiers.items():
            if code in result:
                result[code] += amount
    return result


def combined_modifiers(*modifier_sets: Mapping[str, int]) -> dict[str, int]:
    """The sum of several modifier sets (a giant's common and type modifiers)."""
    total: dict[str, int] = {}
    for modifiers in modifier_sets:
        for code, amount in modifiers.items():
            total[code] = total.get(code, 0) + amount
    return total
