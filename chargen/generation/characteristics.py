"""Steps 5.1, 5.2 and 5.5: Characteristic Points, their allocation, optional characteristics."""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import inf

from chargen.character_file import Allocation
from chargen.dice import Dice
from chargen.errors import InputError, KeyPath, Problem, shown
from chargen.rules.allocation import (
    allocation_problems,
    places_allowed,
    places_at_maximum,
    point_row_for_roll,
    point_row_for_total,
)
from chargen.tables import Tables
from chargen.tables.index import Raisable, raisable_table
from chargen.tables.memo import per_tables
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

#: The RNG's jitter on an archetype's favours, one factor per primary (drawn when the points are rolled).
Jitter = tuple[float, ...]


def allocation_jitter(rng: random.Random, tables: Tables) -> Jitter:
    """The draws 5.2's archetype allocation makes, taken with the 5.1 roll so the dice keep their order while
    the allocation itself waits for the race and gender modifiers (6.x)."""
    draw, low, span = rng.random, 0.75, 1.33 - 0.75  # random.uniform(0.75, 1.33), without its call each
    return tuple([low + span * draw() for _ in tables.characteristics.primaries])


def archetype_allocation(
    row: PointRow, archetype_id: str, jitter: Jitter, modifiers: Mapping[str, int], tables: Tables
) -> dict[str, int]:
    """5.2 for a rolled character or NPC: first the PS and MD its most preferred weapon needs for a Rank
    (20.2, counted after the race and gender `modifiers`), then its favours. A weapon no lawful allocation
    reaches is passed over for the next one listed; with none reachable, favours alone."""
    codes = tables.characteristics.primaries
    weights = favour_weights(tables.archetypes[archetype_id], jitter, tables)
    plain = favours_allocation(row, weights, tables)
    for floors in aims(archetype_id, modifiers.get("PS", 0), modifiers.get("MD", 0), row.maximum, tables):
        if all(value >= floor for value, floor in zip(plain, floors, strict=True)):
            break  # the favours alone reach it: a character changes only where the aim forces it
        aimed = _lifted(row, plain, weights, floors, tables)
        if aimed is not None:
            return dict(zip(codes, aimed, strict=True))
    return dict(zip(codes, plain, strict=True))


def favour_weights(archetype: Archetype, jitter: Jitter, tables: Tables) -> list[float]:
    """Each primary's weight in the allocation: its favour squared, jittered, never quite zero."""
    favours = archetype.favours
    codes = tables.characteristics.primaries
    return [favours.get(code, 0.0) ** 2 * factor + 0.05 for code, factor in zip(codes, jitter, strict=True)]


def favours_allocation(row: PointRow, weights: list[float], tables: Tables) -> list[int]:
    """5.2 by the favours alone: each primary's share of the points by its (jittered) weight."""
    minimum = tables.characteristics.minimum_value
    spare, share = row.points - minimum * len(weights), sum(weights)
    target = [minimum + spare * weight / share for weight in weights]
    values = _spend_by_weights(row, weights, target, [minimum] * len(weights), tables)
    if values is None:  # pragma: no cover - the property tests show every row can be filled
        raise InputError(f"allocation: cannot place {row.points} points under rule 5.2")
    return values


def _lifted(
    row: PointRow, plain: list[int], weights: list[float], floors: list[int], tables: Tables
) -> list[int] | None:
    """5.2 with floors: the favours' allocation lifted to them, the points taken back one at a time from the
    value furthest above its share of what the lifted values leave (never below its own floor); where that
    breaks the place limits, the points handed out afresh. None: no lawful allocation keeps the floors."""
    minimum, maximum = tables.characteristics.minimum_value, row.maximum
    values = plain[:]
    spare, share = row.points, 0.0
    for index, floor in enumerate(floors):
        if values[index] < floor:
            values[index] = floor
            spare -= floor
        else:
            spare, share = spare - minimum, share + weights[index]
    if spare < 0 or not share:
        return None
    target = [minimum + spare * weight / share for weight in weights]
    for _ in range(sum(values) - row.points):
        best, most = -1, -inf
        for index, value in enumerate(values):
            if value > floors[index] and value - target[index] > most:
                best, most = index, value - target[index]
        if best < 0:
            return None
        values[best] -= 1
    at_max, one_below, two_below = (values.count(maximum - below) for below in range(3))
    if max(values) <= maximum and _lawful(at_max, one_below, two_below, maximum, tables):
        return values
    return _spend_by_weights(row, weights, _shares(row.points, minimum, weights, floors), floors, tables)


@per_tables(4096)
def aims(
    archetype_id: str, strength: int, dexterity: int, maximum: int, tables: Tables
) -> tuple[list[int], ...]:
    """The lowest allocated value of each primary that lets the character hold a Rank (20.2) in each of the
    archetype's weapons, in its order of preference, given the race and gender's PS and MD modifiers;
    weapons with no Rank or out of reach of the maximum left out. Worked out once per Tables for each."""
    minimum = tables.characteristics.minimum_value
    found = []
    for item in tables.archetypes[archetype_id].weapons:
        weapon = tables.weapons[item.name]
        if weapon.max_rank is None:
            continue
        needs = {"PS": weapon.ps - strength, "MD": weapon.md - dexterity}
        floors = [max(minimum, needs.get(code, minimum)) for code in tables.characteristics.primaries]
        if max(floors) <= maximum:
            found.append(floors)
    return tuple(found)


@per_tables(1024)
def raisable_places(maximum: int, places: int, tables: Tables) -> Raisable:
    """5.2's place limits for a Point Generation row's maximum, as a table (chargen.tables.index
    .raisable_table), worked out once per Tables: the allocation search asks it for every point it hands
    out."""
    return raisable_table(maximum, tables.characteristics.allocation_limits, places)


def _spend_by_weights(
    row: PointRow, weights: list[float], target: list[float] | None, floors: list[int], tables: Tables
) -> list[int] | None:
    """5.2: hand out the points one at a time to the characteristic furthest below its `target` share, never
    breaking the 5.2 place limits, none below its floor. None: no target, or the floors leave no lawful way."""
    if target is None:
        return None
    maximum = row.maximum
    near = maximum - 2  # only values reaching maximum-2 or above meet the 5.2 place limits
    # Each characteristic starts at its whole share (or its floor), kept below maximum-2 where no place limit
    # applies; the points left over are handed out one at a time, checked against 5.2.
    values = [
        max(floor, min(int(share_of), near - 1)) for share_of, floor in zip(target, floors, strict=True)
    ]
    spent = _largest_remainders(values, target, weights, row.points - sum(values), maximum - 4)
    if spent is not None:
        return spent
    return _spend_one_at_a_time(row, weights, target, values, tables)


def _largest_remainders(
    values: list[int], target: list[float], weights: list[float], left: int, highest: int
) -> list[int] | None:
    """What `_spend_one_at_a_time` gives, in one sort, in the usual case: each value its whole share (no
    floor or cap moved it), all at most `highest` (maximum-4, so one point more meets no 5.2 place limit),
    and fewer points left than values. Each point then goes to a value still at its whole share (a raised
    one falls below its share, so it is never raised twice), the largest fraction first, the larger weight
    on a tie, then the first. None: not the usual case."""
    if not 0 <= left < len(values):
        return None
    for value, share_of in zip(values, target, strict=True):
        if value > highest or not 0.0 <= share_of - value < 1.0:
            return None
    # Ascending by (minus the gap, minus the weight); the sort is stable, so the first stays first on a tie.
    order = sorted(range(len(values)), key=lambda index: (values[index] - target[index], -weights[index]))
    spent = values[:]
    for index in order[:left]:
        spent[index] += 1
    return spent


def _spend_one_at_a_time(
    row: PointRow, weights: list[float], target: list[float], values: list[int], tables: Tables
) -> list[int] | None:
    """5.2's points handed out one at a time to the value furthest below its share (the larger weight on a
    tie, then the first), checking the place limits as values near the maximum."""
    values = values[:]
    maximum = row.maximum
    # How many values sit at the maximum, maximum-1 and maximum-2, kept up to date as points go out.
    at_max, one_below, two_below, over = _counts_near_maximum(values, maximum)
    if at_max + one_below + two_below and not _lawful(at_max, one_below, two_below, maximum, tables):
        return None
    raisable = raisable_places(maximum, len(values), tables)
    allowed = NONE_RAISABLE if over else raisable[at_max, one_below, two_below]
    for _ in range(row.points - sum(values)):
        best = _furthest_below_share(values, target, weights, maximum, allowed)
        if best < 0:
            return None
        below = maximum - values[best]
        values[best] += 1
        if below > 3:
            continue  # the counts, and so what may be raised, stay as they were: most points go this way
        at_max, one_below, two_below = _counts_after_raise(below, at_max, one_below, two_below)
        allowed = NONE_RAISABLE if over else raisable[at_max, one_below, two_below]
    return values if sum(values) == row.points else None


def _counts_near_maximum(values: list[int], maximum: int) -> tuple[int, int, int, bool]:
    """How many values sit at the maximum, maximum-1 and maximum-2, and whether one is above the maximum
    (a house table's minimum past it), which breaks 5.2 whatever is raised."""
    near = maximum - 2
    at_max = one_below = two_below = 0
    over = False
    for value in values:
        if value >= near:
            over = over or value > maximum
            at_max += value == maximum
            one_below += value == maximum - 1
            two_below += value == near
    return at_max, one_below, two_below, over


def _furthest_below_share(
    values: list[int],
    target: list[float],
    weights: list[float],
    maximum: int,
    allowed: tuple[bool, bool, bool],
) -> int:
    """The value to raise next among those 5.2's place limits let rise (-1: none may)."""
    best, best_gap, best_weight = -1, -inf, 0.0
    for index, value in enumerate(values):
        below = maximum - value
        if below <= 3 and (below <= 0 or not allowed[below - 1]):
            continue
        gap = target[index] - value
        # The largest gap below the share wins; the larger weight breaks a tie; the first breaks the rest.
        if gap > best_gap or (gap == best_gap and weights[index] > best_weight):
            best, best_gap, best_weight = index, gap, weights[index]
    return best


def _counts_after_raise(below: int, at_max: int, one_below: int, two_below: int) -> tuple[int, int, int]:
    """The counts at the maximum, maximum-1 and maximum-2 after a value `below` (1-3) under the maximum
    gained a point."""
    if below == 1:
        return at_max + 1, one_below - 1, two_below
    if below == 2:
        return at_max, one_below + 1, two_below - 1
    return at_max, one_below, two_below + 1


def _lawful(at_max: int, one_below: int, two_below: int, maximum: int, tables: Tables) -> bool:
    """5.2's place limits for these counts at the maximum, maximum-1 and maximum-2."""
    limits = tables.characteristics.allocation_limits
    return places_allowed(at_max, one_below, two_below, places_at_maximum(maximum, limits), limits)


def _shares(points: int, minimum: int, weights: list[float], floors: list[int]) -> list[float] | None:
    """Each characteristic's share of the points by weight, a floor above its share holding it there and the
    others sharing what is left (None: the floors and minimums take more than the points)."""
    held = [False] * len(weights)
    while True:
        spare, share = points, 0.0
        for index, weight in enumerate(weights):
            if held[index]:
                spare -= floors[index]
            else:
                spare, share = spare - minimum, share + weight
        if spare < 0:
            return None
        target = [
            float(floors[index]) if held[index] else minimum + spare * weight / share
            for index, weight in enumerate(weights)
        ]
        short = [index for index, value in enumerate(target) if value < floors[index]]
        if not short:
            return target
        for index in short:
            held[index] = True


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
