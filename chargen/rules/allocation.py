"""Rule 5.2: assigning the Characteristic Points to the six primary characteristics."""

from __future__ import annotations

from collections.abc import Mapping

from chargen.tables.schema import AllocationLimits, PointRow


def point_row_for_roll(rows: list[PointRow], roll: int) -> PointRow:
    """Rule 5.1: the Point Generation row for a 2D10 total."""
    return next(row for row in rows if row.roll == roll)


def point_row_for_total(rows: list[PointRow], total: int) -> PointRow | None:
    """Rule 5.1 read backwards: the row whose Characteristic Points equal `total` (None: no such row)."""
    return next((row for row in rows if row.points == total), None)


def places_at_maximum(maximum: int, limits: AllocationLimits) -> int:
    """5.2: one characteristic may sit at a maximum above 20, two at a maximum of 19 or 20."""
    return limits.at_maximum_low if maximum in limits.low_maximums else limits.at_maximum


def allocation_problems(
    values: Mapping[str, int], points: int, maximum: int, minimum: int, limits: AllocationLimits
) -> list[str]:
    """Every way `values` breaks rule 5.2 for `points` and `maximum`; empty when it keeps the rule.

    The places near the maximum: `places_at_maximum` at the maximum; two at maximum-1; three at
    maximum-2. With none at the maximum, one more place at each of maximum-1 and maximum-2. Either or both
    of the two (base) maximum-1 places, when unused, may be taken at maximum-2 instead.
    """
    return [
        *_total_and_range_problems(values, points, maximum, minimum),
        *_place_problems(values, maximum, limits),
    ]


def _total_and_range_problems(
    values: Mapping[str, int], points: int, maximum: int, minimum: int
) -> list[str]:
    """5.2: all the points spent, each value between the minimum and the maximum."""
    problems: list[str] = []
    total = sum(values.values())
    if total != points:
        problems.append(
            f"the six add up to {total}, not the {points} Characteristic Points; rule 5.2 spends all"
        )
    for code, value in values.items():
        if value < minimum:
            problems.append(f"{code} {value} is below the minimum {minimum}; rule 5.2")
        elif value > maximum:
            problems.append(f"{code} {value} is above the maximum {maximum}; rule 5.2")
    return problems


def _place_problems(values: Mapping[str, int], maximum: int, limits: AllocationLimits) -> list[str]:
    """5.2's places near the maximum, each crowded one named with the values in it."""
    problems: list[str] = []

    def named(target: int) -> list[str]:
        return [f"{code} {value}" for code, value in values.items() if value == target]

    at_max, one_below, two_below = named(maximum), named(maximum - 1), named(maximum - 2)
    allowed_max = places_at_maximum(maximum, limits)
    if len(at_max) > allowed_max:
        problems.append(f"{_listing(at_max)} at the maximum {maximum}; rule 5.2 allows {_count(allowed_max)}")
    bonus = limits.bonus_without_maximum if not at_max else 0
    allowed_one_below = limits.one_below + bonus
    if len(one_below) > allowed_one_below:
        problems.append(
            f"{_listing(one_below)} at {maximum - 1} (maximum-1); rule 5.2 allows {_count(allowed_one_below)}"
        )
    unused_one_below = max(0, allowed_one_below - len(one_below))
    allowed_two_below = limits.two_below + bonus + min(limits.transferable_one_below, unused_one_below)
    if len(two_below) > allowed_two_below:
        problems.append(
            f"{_listing(two_below)} at {maximum - 2} (maximum-2); rule 5.2 allows {_count(allowed_two_below)} here"
        )
    return problems


def within_limits(values: Mapping[str, int], maximum: int, limits: AllocationLimits) -> bool:
    """The 5.2 place limits alone (no sum), fast: used while a strategy hands out points one by one."""
    at_max = one_below = two_below = 0
    for value in values.values():
        if value > maximum:
            return False
        if value == maximum:
            at_max += 1
        elif value == maximum - 1:
            one_below += 1
        elif value == maximum - 2:
            two_below += 1
    return places_allowed(at_max, one_below, two_below, places_at_maximum(maximum, limits), limits)


def places_allowed(
    at_max: int, one_below: int, two_below: int, allowed_max: int, limits: AllocationLimits
) -> bool:
    """5.2's place limits on how many values sit at the maximum, maximum-1 and maximum-2 (`allowed_max` is
    `places_at_maximum` for the row)."""
    if at_max > allowed_max:
        return False
    bonus = limits.bonus_without_maximum if not at_max else 0
    allowed_one_below = limits.one_below + bonus
    if one_below > allowed_one_below:
        return False
    transferable = min(limits.transferable_one_below, allowed_one_below - one_below)
    return two_below <= limits.two_below + bonus + transferable


def _listing(items: list[str]) -> str:
    """`PS 23 and EN 23 are both` / `PS 20, MD 20 and AG 20 are all`."""
    joined = ", ".join(items[:-1]) + " and " + items[-1]
    return f"{joined} are both" if len(items) == 2 else f"{joined} are all"


def _count(number: int) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    return words.get(number, str(number))
