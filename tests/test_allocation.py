"""Rule 5.2 as properties: the validator accepts exactly the allocations the rule allows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.rules.allocation import allocation_problems, within_limits
from chargen.tables import load_tables

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
