"""82.9: the Agility lost for the weight carried, when a GM has filled the table (tables/characteristics.yaml
weight_carried). The rules text has no such table, so by default nothing is lost and the record says so."""

from __future__ import annotations

from chargen.generation.decisions import Decisions
from chargen.rules.characteristics import read_band
from chargen.rules.combat import armor_weight
from chargen.tables import Tables


def pounds_carried(decided: Decisions, tables: Tables) -> float:
    """The weapons, armor (18.1's weight for the race's size and gender), shield and equipment the file lists."""
    equipment = decided.kit.equipment
    pounds = sum(tables.weapons[item.name].weight or 0 for item in equipment.weapons)
    if equipment.armor is not None:
        size = tables.races[decided.born.race.race].size
        armor = tables.armor[equipment.armor]
        pounds += armor_weight(armor, size, decided.born.gender, tables.armor_file)
    if equipment.shield is not None and equipment.shield.name in tables.shields:
        pounds += tables.shields[equipment.shield.name].weight
    pounds += sum((gear.weight or 0) * gear.count for gear in decided.spec.equipment)
    return pounds


def agility_lost(decided: Decisions, tables: Tables) -> int:
    """The filled table's Agility loss for the pounds carried (rounded down to whole pounds); 0 while empty."""
    rows = tables.characteristics.weight_carried.rows
    if not rows:
        return 0
    band = read_band(rows, int(pounds_carried(decided, tables)))
    return band.value if band is not None else max(rows, key=lambda row: row.high).value
