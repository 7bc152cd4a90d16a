"""Steps 5.1, 5.2 and 5.5: Characteristic Points, their allocation, optional characteristics."""

from __future__ import annotations

import random
from collections.abc import Mapping

from chargen.character_file import Allocation
from chargen.dice import Dice
from chargen.errors import InputError, KeyPath, Problem, shown
from chargen.rules.allocation import (
    allocation_problems,
    point_row_for_roll,
    point_row_for_total,
)
from chargen.tables import Tables
from chargen.tables.schema import Archetype, PointRow


def characteristic_points(
    allocation: Allocation | None, dice: Dice, tables: Tables, points_total: int | None = None
) -> PointRow:
    """5.1: the 2D10 row; or, without the roll, the row of the points the allocation adds up to (or the
    points total the file states)."""
    generation = tables.characteristics.point_generation
    if "points" not in dice.given:
        path: KeyPath = ()
        if allocation is not None:
            total, path, what = sum(allocation.model_dump().values()), ("allocation",), "the six add up to "
        elif points_total is not None:
            total, path, what = points_total, ("points", "total"), ""
        else:
            total, what = 0, ""
        if allocation is not None or points_total is not None:
            row = point_row_for_total(generation.rows, total)
            if row is None:
                totals = sorted(r.points for r in generation.rows)
                raise InputError(
                    Problem(
                        path, f"{what}{total}, outside the {totals[0]} to {totals[-1]} points", "5.1", total
                    )
                )
            return row
    roll = dice.roll("points", generation.dice, generation.rule)
    return tables.index.point_rows.get(roll) or point_row_for_roll(generation.rows, roll)


def checked_allocation(allocation: Allocation, row: PointRow, tables: Tables) -> dict[str, int]:
    """5.2: the player's allocation, refused with every rule it breaks."""
    values = allocation.model_dump()
    problems = allocation_problems(
        values,
        row.points,
        row.maximum,
        tables.characteristics.minimum_value,
        tables.characteristics.allocation_limits,
    )
    if problems:
        raise InputError([Problem(("allocation",), problem, value=values) for problem in problems])
    return values


#: No value near the maximum may be raised.
NONE_RAISABLE = (False, False, False)


def allocate_by_favours(
    row: PointRow, favours: Mapping[str, float], rng: random.Random, tables: Tables
) -> dict[str, int]:
    """5.2 for a rolled character: hand out the points one at a time to the characteristic furthest below its
    share (weights jittered by the RNG), never breaking the 5.2 place limits."""
    codes = list(tables.characteristics.primaries)
    minimum, maximum = tables.characteristics.minimum_value, row.maximum
    weights = [favours.get(code, 0.0) ** 2 * rng.uniform(0.75, 1.33) + 0.05 for code in codes]
    spare = row.points - minimum * len(codes)
    share = sum(weights)
    target = [minimum + spare * weight / share for weight in weights]
    near = maximum - 2  # only values reaching maximum-2 or above meet the 5.2 place limits
    # Each characteristic starts at its whole share, kept below maximum-2 where no place limit applies;
    # the points left over are handed out one at a time, checked against 5.2.
    values = [max(minimum, min(int(share_of), near - 1)) for share_of in target]
    raisable = tables.index.raisable(maximum, len(codes))
    # How many values sit at the maximum, maximum-1 and maximum-2, kept up to date as points go out.
    at_max, one_below, two_below = (sum(value == maximum - below for value in values) for below in range(3))
    # A value above the maximum (a house table's minimum past it) breaks 5.2 whatever else is raised.
    over = any(value > maximum for value in values)
    for _ in range(row.points - sum(values)):
        allowed = NONE_RAISABLE if over else raisable[at_max, one_below, two_below]
        best = -1
        best_gap = best_weight = 0.0
        for index, value in enumerate(values):
            below = maximum - value
            if below <= 0 or (below <= 3 and not allowed[below - 1]):
                continue
            gap = target[index] - value
            # The largest gap below the share wins; the larger weight breaks a tie; the first breaks the rest.
            if best < 0 or gap > best_gap or (gap == best_gap and weights[index] > best_weight):
                best, best_gap, best_weight = index, gap, weights[index]
        if best < 0:  # pragma: no cover - the property tests show every row can be filled
            raise InputError(f"allocation: cannot place {row.points} points under rule 5.2")
        below = maximum - values[best]
        if below == 1:
            at_max, one_below = at_max + 1, one_below - 1
        elif below == 2:
            one_below, two_below = one_below + 1, two_below - 1
        elif below == 3:
            two_below += 1
        values[best] += 1
    return dict(zip(codes, values, strict=True))


def archetype_allocation(
    row: PointRow, archetype: Archetype, rng: random.Random, tables: Tables
) -> dict[str, int]:
    return allocate_by_favours(row, archetype.favours, rng, tables)


def optional_characteristics(wanted: list[str], dice: Dice, tables: Tables) -> dict[str, int]:
    """5.5: each optional characteristic asked for (by code) or whose dice the file gives, rolled by its dice.
    An optional rule's code (18.5) may stand beside them; the rule's own step reads it."""
    values: dict[str, int] = {}
    known = [item.code for item in tables.characteristics.optional]
    rules = [tables.combat.damage_increase.code]
    for code in wanted:
        if code not in known and code not in rules:
            raise InputError(
                Problem(
                    ("optional",),
                    f"{shown(code)} is neither an optional characteristic ({', '.join(known)}) nor an "
                    f"optional rule ({', '.join(rules)})",
                    "5.5",
                    code,
                )
            )
    for item in tables.characteristics.optional:
        if item.code in wanted or item.roll_key in dice.given:
            spec = item.dice
            rolled = dice.each(item.roll_key, [spec.sides] * spec.count, item.rule)
            values[item.code] = sum(rolled) + spec.modifier
    return values
