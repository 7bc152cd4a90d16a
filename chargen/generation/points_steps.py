"""5.1-5.2, the pipeline's first steps: the row of Characteristic Points and how they are spent (the
player's allocation, checked, or an archetype's)."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.character_file import CharacterInput
from chargen.dice import Dice
from chargen.errors import InputError, Problem
from chargen.generation import characteristics
from chargen.generation.decisions import Modifiers, Points
from chargen.names import unknown_name
from chargen.tables import Tables
from chargen.tables.schema import PointRow


def points_row(spec: CharacterInput, dice: Dice, tables: Tables) -> PointRow:
    """5.1: the row of Characteristic Points the dice give (or the file's allocation or points add up to)."""
    stated_total = spec.points.total if spec.points is not None else None
    return characteristics.characteristic_points(spec.allocation, dice, tables, stated_total)


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class RolledPoints:
    """5.1 and what 5.2 draws: the row, and the player's allocation (checked) or the archetype's jitter. An
    archetype's allocation is made by `allocation_step` once the race and gender modifiers are known."""

    archetype: str | None
    row: PointRow
    allocation: dict[str, int] | None
    jitter: characteristics.Jitter = ()


def points_step(spec: CharacterInput, row: PointRow, dice: Dice, tables: Tables) -> RolledPoints:
    """5.2 on the 5.1 row: the player's allocation (checked), or the archetype's draws for one."""
    archetype = spec.archetype
    if archetype is not None and archetype not in tables.archetypes:
        raise unknown_name(
            (spec.archetype_key,), archetype, tables.archetypes, "an archetype (tables/archetypes.yaml)"
        )
    allocation: dict[str, int] | None = None
    jitter: characteristics.Jitter = ()
    if spec.allocation is not None:
        allocation = characteristics.checked_allocation(spec.allocation, row, tables)
    else:
        if archetype is None:
            # A rolled player character follows an adventurer's archetype, never a trade (tables/archetypes.yaml).
            archetype = dice.choice(tables.index.adventurers)
        jitter = characteristics.allocation_jitter(dice.rng, tables)
    if spec.points is not None:
        stated_maximum = spec.points.maximum if spec.points.maximum is not None else row.maximum
        if (spec.points.total, stated_maximum) != (row.points, row.maximum):
            raise InputError(
                Problem(
                    ("points",),
                    f"file says {spec.points.total} (maximum {spec.points.maximum}) but the rolls give "
                    f"{row.points} (maximum {row.maximum})",
                    "5.1",
                    spec.points.total,
                )
            )
    return RolledPoints(archetype, row, allocation, jitter)


def allocation_step(rolled: RolledPoints, modifiers: Modifiers, tables: Tables) -> Points:
    """5.2: the player's allocation as given, or the archetype's, aimed at its weapons' PS and MD as race and
    gender modify them (6.x)."""
    allocation = rolled.allocation
    if allocation is None and rolled.archetype is not None:
        allocation = characteristics.archetype_allocation(
            rolled.row, rolled.archetype, rolled.jitter, modifiers.total, tables
        )
    assert allocation is not None  # points_step gives one or the other
    return Points(rolled.archetype, rolled.row, allocation)
