"""Rule 5.2 as properties: the validator accepts exactly the allocations the rule allows."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.generation.characteristics import (
    _largest_remainders,
    _spend_one_at_a_time,
    aims,
    archetype_allocation,
    favour_weights,
    favours_allocation,
)
from chargen.generation.equipment import weapon_order
from chargen.rules.allocation import allocation_problems, within_limits
from chargen.tables import load_tables
from chargen.tables.schema import Archetype, PointRow

TABLES = load_tables()
LIMITS = TABLES.characteristics.allocation_limits
ROWS = TABLES.characteristics.point_generation.rows


def obeys_5_2(values: list[int], points: int, maximum: int) -> bool:
    """5.2 read directly from the book, as a search over the places near the maximum.

    Places: one at the maximum (two when it is 19 or 20); two at maximum-1 and three at maximum-2; with
    none at the maximum one more of each; and "either or both of his two" maximum-1 places may hold a
    maximum-2 value instead.
    """
    if sum(values) != points or any(not 5 <= value <= maximum for value in values):
        return False
    at_max = values.count(maximum)
    one_below = values.count(maximum - 1)
    two_below = values.count(maximum - 2)
    if at_max > (2 if maximum in (19, 20) else 1):
        return False
    extra = 1 if at_max == 0 else 0
    # Try every way of seating the maximum-1 values: some in the extra place, the rest in the two base places.
    for in_extra in range(extra + 1):
        in_base = one_below - in_extra
        if in_extra <= one_below and 0 <= in_base <= 2:
            spare_base = 2 - in_base
            if two_below <= 3 + extra + spare_base:
                return True
    return False


allocations = st.lists(st.integers(min_value=3, max_value=27), min_size=6, max_size=6)


@pytest.mark.slow  # every order of many allocations
@settings(max_examples=3000)
@given(values=allocations, row=st.sampled_from(ROWS))
def test_validator_matches_the_rule(values: list[int], row: object) -> None:
    named = dict(zip(("PS", "MD", "AG", "EN", "MA", "WP"), values, strict=True))
    accepted = not allocation_problems(named, row.points, row.maximum, 5, LIMITS)  # type: ignore[attr-defined]
    assert accepted == obeys_5_2(values, row.points, row.maximum)  # type: ignore[attr-defined]


@st.composite
def near_the_maximum(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """Allocations crowded near the maximum, where the place limits matter, summing to their own row."""
    row = draw(st.sampled_from(ROWS))
    values = draw(st.lists(st.integers(row.maximum - 3, row.maximum), min_size=6, max_size=6))
    return values, sum(values), row.maximum


@pytest.mark.slow  # every order of many allocations
@settings(max_examples=3000)
@given(case=near_the_maximum())
def test_place_limits_match_the_rule(case: tuple[list[int], int, int]) -> None:
    values, points, maximum = case
    named = dict(zip(("PS", "MD", "AG", "EN", "MA", "WP"), values, strict=True))
    problems = allocation_problems(named, points, maximum, 5, LIMITS)
    assert (not problems) == obeys_5_2(values, points, maximum)
    assert within_limits(named, maximum, LIMITS) == obeys_5_2(values, points, maximum)


def test_the_books_limits_on_concrete_cases() -> None:
    # "a character could have six characteristics equal to two less than the maximum" (if the sum allowed).
    assert within_limits(dict.fromkeys("ABCDEF", 17), 19, LIMITS)
    # With none at the maximum, one maximum-1 value takes the extra place; both base places still transfer.
    assert within_limits({"A": 18, "B": 17, "C": 17, "D": 17, "E": 17, "F": 17}, 19, LIMITS)
    # With one at the maximum there is no extra place: a third maximum-1 value is too many.
    assert not within_limits({"A": 23, "B": 22, "C": 22, "D": 22, "E": 5, "F": 5}, 23, LIMITS)
    # Three at the maximum are too many even at 19 or 20.
    assert not within_limits({"A": 20, "B": 20, "C": 20, "D": 5, "E": 5, "F": 5}, 20, LIMITS)
    # Every place taken: one at the maximum, two at maximum-1, three at maximum-2.
    assert within_limits({"A": 23, "B": 22, "C": 22, "D": 21, "E": 21, "F": 21}, 23, LIMITS)


# --- an archetype's allocation, aimed at its weapons ------------------------------------------------------

CODES = ("PS", "MD", "AG", "EN", "MA", "WP")
LEVELS = ("free", 2, 1, 0)  # a value at or below maximum-3, or exactly maximum-2, maximum-1, maximum


def reachable(floors: dict[str, int], points: int, maximum: int) -> bool:
    """Whether some allocation obeying 5.2 (the reference above) keeps every value at or over its floor:
    tried for every way of seating the six near the maximum, the free ones filled from their floors up."""
    for levels in itertools.product(LEVELS, repeat=len(CODES)):
        values, free = [], []
        for code, level in zip(CODES, levels, strict=True):
            low = max(5, floors.get(code, 5))
            if level == "free":
                if low > maximum - 3:
                    break
                values.append(low)
                free.append(len(values) - 1)
            else:
                if maximum - level < low:
                    break
                values.append(maximum - level)
        else:
            left = points - sum(values)
            for index in free:
                step = min(left, maximum - 3 - values[index])
                values[index] += step
                left -= step
            if left == 0 and obeys_5_2(values, points, maximum):
                return True
    return False


def weapon_floors(archetype: Archetype, modifiers: dict[str, int]) -> list[tuple[str, dict[str, int]]]:
    """Each rankable weapon the archetype lists, with the allocated PS and MD it asks (20.2 less 6.x)."""
    floors = []
    for item in archetype.weapons:
        weapon = TABLES.weapons[item.name]
        if weapon.max_rank is not None:
            floors.append((item.name, {"PS": weapon.ps - modifiers["PS"], "MD": weapon.md - modifiers["MD"]}))
    return floors


ARMED = sorted(name for name, kind in TABLES.archetypes.items() if kind.weapons)


@settings(max_examples=300, deadline=None)
@given(
    row=st.sampled_from(ROWS),
    name=st.sampled_from(ARMED),
    jitter=st.lists(st.floats(0.75, 1.33), min_size=6, max_size=6),
    strength=st.sampled_from([-5, -3, -2, 0, 2, 8, 10, 19]),
    dexterity=st.sampled_from([-1, 0, 1, 3, 4]),
)
def test_the_allocation_aims_at_the_first_weapon_it_can_reach(
    row: PointRow, name: str, jitter: list[float], strength: int, dexterity: int
) -> None:
    archetype = TABLES.archetypes[name]
    modifiers = {"PS": strength, "MD": dexterity}
    allocation = archetype_allocation(row, name, tuple(jitter), modifiers, TABLES)
    assert not allocation_problems(allocation, row.points, row.maximum, 5, LIMITS)
    weights = favour_weights(archetype, tuple(jitter), TABLES)
    plain = dict(zip(CODES, favours_allocation(row, weights, TABLES), strict=True))
    aimed = next(
        (
            (weapon, floors)
            for weapon, floors in weapon_floors(archetype, modifiers)
            if reachable(floors, row.points, row.maximum)
        ),
        None,
    )
    if aimed is None:
        assert allocation == plain  # nothing to aim at: the favours alone
        return
    weapon, floors = aimed
    assert all(allocation[code] >= floor for code, floor in floors.items()), (weapon, floors, allocation)
    if all(plain[code] >= floor for code, floor in floors.items()):
        assert allocation == plain  # the favours reach it alone: nothing changes
    # The kit leads with it (the first weapon the character may rank).
    modified = {code: allocation[code] + modifiers.get(code, 0) for code in CODES}
    assert weapon_order(archetype, modified, TABLES)[0].name == weapon


def test_a_weapon_out_of_reach_is_passed_over() -> None:
    """A halfling woman (PS -5) knight on a maximum of 20 needs PS 21 for a lance, 22 for a hand-and-a-half
    sword and 21 for a mace: none is reachable, so the favours alone spend the points. A dwarf (PS +2) knight
    reaches the lance."""
    knight = TABLES.archetypes["knight"]
    row = next(row for row in ROWS if row.maximum == 20)
    jitter = (1.0,) * 6
    weak = {"PS": -5, "MD": 4}
    assert aims("knight", weak["PS"], weak["MD"], row.maximum, TABLES) == ()
    plain = favours_allocation(row, favour_weights(knight, jitter, TABLES), TABLES)
    assert list(archetype_allocation(row, "knight", jitter, weak, TABLES).values()) == plain
    dwarf = archetype_allocation(row, "knight", jitter, {"PS": 2, "MD": 0}, TABLES)
    assert dwarf["PS"] >= 16 - 2 and dwarf["MD"] >= 18


@pytest.mark.slow  # every order of many allocations
@settings(max_examples=3000, deadline=None)
@given(
    row=st.sampled_from(ROWS),
    weights=st.lists(
        st.one_of(st.sampled_from([0.05, 0.5, 1.05, 2.0]), st.floats(0.05, 3.0)), min_size=6, max_size=6
    ),
    floors=st.lists(st.sampled_from([5, 5, 5, 9, 12, 16]), min_size=6, max_size=6),
)
def test_the_one_sort_spends_the_points_as_one_at_a_time_does(
    row: PointRow, weights: list[float], floors: list[int]
) -> None:
    """5.2's shares: wherever the one-sort shortcut answers, it gives the very values the point-by-point
    loop gives (ties on the gap and the weight included: the weights repeat on purpose)."""
    spare, share = row.points - 5 * 6, sum(weights)
    target = [5 + spare * weight / share for weight in weights]
    values = [max(floor, min(int(part), row.maximum - 3)) for part, floor in zip(target, floors, strict=True)]
    left = row.points - sum(values)
    shortcut = _largest_remainders(values, target, weights, left, row.maximum - 4)
    if shortcut is not None:
        assert shortcut == _spend_one_at_a_time(row, weights, target, values, TABLES)


def test_the_one_sort_answers_the_usual_case_only() -> None:
    """The shortcut declines a value moved off its whole share, one near the maximum, or too many points."""
    target, weights = [10.5, 10.5, 10.5, 10.5, 10.5, 10.5], [1.0] * 6
    assert _largest_remainders([10] * 6, target, weights, 3, 16) == [11, 11, 11, 10, 10, 10]
    assert _largest_remainders([11, 10, 10, 10, 10, 10], target, weights, 2, 16) is None  # a floor moved one
    assert _largest_remainders([10] * 6, target, weights, 3, 9) is None  # too near the maximum
    assert _largest_remainders([10] * 6, target, weights, 6, 16) is None  # more points than values


def test_on_an_equal_fraction_the_larger_weight_has_the_point() -> None:
    row = next(row for row in ROWS if row.points == 85)
    values, target = [14, 15, 14, 14, 13, 14], [14.5, 15.5, 14.25, 14.25, 13.25, 14.25]
    weights = [1.0, 2.0, 1.0, 1.0, 1.0, 1.0]
    raised = [14, 16, 14, 14, 13, 14]
    assert _largest_remainders(values, target, weights, 1, row.maximum - 4) == raised
    assert _spend_one_at_a_time(row, weights, target, values, TABLES) == raised
