"""16.5 Knockout: the Strike Checks that knock the target out, as a figure for the record."""

from __future__ import annotations

from chargen.rules.combat import special_damage_row
from chargen.tables.abilities_schema import Knockout
from chargen.tables.combat_schema import SpecialDamageTable


def knockout_high(strike_chance: int, knockout: Knockout, chart: SpecialDamageTable) -> int | None:
    """16.5: the highest Strike Check that knocks out at this Strike Chance (None: none does). Read as
    record.yaml's knockout.reading says: off the 18.2 chart's Endurance column (the book's own rolls for
    "15% or less of the Modified Strike Chance"), or exactly (every roll at or under percent x chance / 100)."""
    if knockout.reading == "chart":
        row = special_damage_row(chart.rows, strike_chance)
        return row.endurance_high if row is not None else None
    high = strike_chance * knockout.percent // 100
    return high if high >= 1 else None
