"""The 5.2 guidance of `chargen new`: the values it allows for the next characteristic are exactly those
after which the rest can still be allocated lawfully (checked against a search of every completion)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.rules.allocation import allocation_problems
from chargen.tables import load_tables
from chargen.walkthrough.entries import can_finish, dice_entry
from chargen.walkthrough.walk import TERMINAL

TABLES = load_tables()
LIMITS = TABLES.characteristics.allocation_limits
MINIMUM = TABLES.characteristics.minimum_value
MAXIMA = sorted({row.maximum for row in TABLES.characteristics.point_generation.rows})


def _searched(placed: list[int], left: int, slots: int, maximum: int) -> bool:
    for rest in itertools.product(range(MINIMUM, maximum + 1), repeat=slots):
        values = [*placed, *rest]
        named = {str(i): v for i, v in enumerate(values)}
        if sum(rest) == left and not allocation_problems(named, sum(values), maximum, MINIMUM, LIMITS):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_can_finish_agrees_with_a_search_of_every_completion(data: st.DataObject) -> None:
    maximum = data.draw(st.sampled_from(MAXIMA))
    slots = data.draw(st.integers(1, 2))
    near_the_top = st.integers(maximum - 2, maximum)  # where the 5.2 place limits bite
    value = near_the_top | st.integers(MINIMUM, maximum)
    placed = data.draw(st.lists(value, min_size=6 - slots, max_size=6 - slots))
    left = data.draw(
        st.integers(slots * (maximum - 2), slots * maximum)
        | st.integers(slots * MINIMUM - 2, slots * maximum + 2)
    )
    if allocation_problems({str(i): v for i, v in enumerate(placed)}, sum(placed), maximum, MINIMUM, LIMITS):
        return  # the walk never gets here: each placed value was allowed when given
    named = {str(i): v for i, v in enumerate(placed)}
    assert can_finish(named, left, slots, maximum, MINIMUM, LIMITS) == _searched(placed, left, slots, maximum)


def test_a_d100_entered_as_00_is_100_and_other_dice_are_checked() -> None:
    assert dice_entry("00", [100], "7.1", TERMINAL) == [100]
    assert dice_entry("", [100], "7.1", TERMINAL) is None
    assert dice_entry("4 5", [10, 10], "5.1", TERMINAL, total=True) == [9]
    assert dice_entry("9", [10, 10], "5.1", TERMINAL, total=True) == [9]


def test_the_preview_shows_the_values_placed_before_all_six_are() -> None:
    from chargen.walkthrough import new_walk

    walk = new_walk(load_tables(), seed=3)
    walk.answer("")  # the concept: any
    walk.answer("9")  # 5.1: 88 points, maximum 23
    walk.answer("23")  # PS
    walk.answer("6")  # MD
    shown = walk.preview().allocation
    assert (shown["PS"], shown["MD"]) == (23, 6)  # not the fixed preview dice's values
    assert sum(shown.values()) == 88 and not allocation_problems(
        shown,
        88,
        23,
        walk.tables.characteristics.minimum_value,
        walk.tables.characteristics.allocation_limits,
    )
    walk.back()
    assert walk.preview().allocation["PS"] == 23 and walk.preview().allocation["MD"] != 6
