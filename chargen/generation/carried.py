"""82.9: the Agility lost for the weight carried, when a GM has filled the table (tables/characteristics.yaml
weight_carried). The rules text has no such table, so by default nothing is lost and the record says so."""

from __future__ import annotations

from chargen.rules.characteristics import read_band
from chargen.rules.combat import armor_weight
from chargen.tables import Tables


def pounds_of(
    weapons: list[str],
    armor: str | None,
    shield: str | None,
    gear: list[float],
    race_and_gender: tuple[str, str],
    tables: Tables,
) -> float:
    """The pounds carried: weapons, armor for the race's size and gender (18.1), shield and other gear."""
    pounds = sum(tables.weapons[name].weight or 0 for name in weapons)
    if armor is not None:
        size = tables.races[race_and_gender[0]].size
        pounds += armor_weight(tables.armor[armor], size, race_and_gender[1], tables.armor_file)
    if shield is not None and shield in tables.shields:
        pounds += tables.shields[shield].weight
    return pounds + sum(gear)


def agility_lost_at(pounds: float, tables: Tables) -> int:
    """82.9's Agility loss for `pounds` carried, read from the filled table (0 while it is empty)."""
    rows = tables.characteristics.weight_carried.rows
    if not rows:
        return 0
    band = read_band(rows, int(pounds))
    return band.value if band is not None else max(rows, key=lambda row: row.high).value
