"""What a player types at a step, read: the dice they rolled, and the 5.2 room left while they allocate."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from chargen.errors import InputError
from chargen.rules.allocation import within_limits
from chargen.tables.schema import AllocationLimits
from chargen.walkthrough.walk import Face

_NUMBERS = re.compile(r"[\s,+]+")


def dice_entry(
    text: str, sides: Sequence[int], rule: str, face: Face, *, total: bool = False
) -> list[int] | None:
    """The dice typed at a step (None for a bare Enter: chargen rolls). One number per die; where the rule
    reads a total (`total`), one number, the total, is enough. A D100 showing `00` (or 0) is 100."""
    if not text.strip():
        return None
    parts = [part for part in _NUMBERS.split(text.strip()) if part]
    dice = dice_named(sides)
    if not all(part.isdigit() for part in parts):
        enter = face.says(", or Enter to roll", ", or press Roll the dice for me")
        raise InputError(f"{text.strip()[:40]!r}: enter the {dice} you rolled as numbers{enter}")
    values = [int(part) for part in parts]
    if total and len(values) == 1:
        low, high = len(sides), sum(sides)
        if not low <= values[0] <= high:
            raise InputError(f"{values[0]} is not a {dice} total ({low}-{high}); rule {rule}")
        return values
    if len(values) != len(sides):
        raise InputError(f"{text.strip()[:40]!r}: enter {len(sides)} dice ({dice}); rule {rule}")
    read = [side if value == 0 and side == 100 else value for value, side in zip(values, sides, strict=True)]
    for value, side in zip(read, sides, strict=True):
        if not 1 <= value <= side:
            raise InputError(f"{value} is not a D{side} roll (1-{side}); rule {rule}")
    return [sum(read)] if total else read


def near_places(limits: AllocationLimits, maximum: int) -> list[tuple[int, int]]:
    """5.2's places at and just below the maximum: each value with how many characteristics may sit at it
    (before the bonus places a character with none at the maximum gets)."""
    at_maximum = limits.at_maximum_low if maximum in limits.low_maximums else limits.at_maximum
    return [(maximum, at_maximum), (maximum - 1, limits.one_below), (maximum - 2, limits.two_below)]


def limits_told(limits: AllocationLimits, maximum: int) -> str:
    """5.2's limit near the maximum, with its numbers."""
    places = near_places(limits, maximum)
    told = ", ".join(f"{count} at {value}" for value, count in places[:-1])
    told = f"at most {told} and {places[-1][1]} at {places[-1][0]}"
    if limits.bonus_without_maximum:
        bonus = limits.bonus_without_maximum
        told += f" ({bonus} more at {places[1][0]} and at {places[2][0]} with none at {maximum})"
    return told


def pennies(amount: int | None) -> str:
    """A price or a purse as a player reads it: `1 Silver Penny`, `40 Silver Pennies`, or no price."""
    if amount is None:
        return "no price on the chart"
    return f"{amount} Silver Penn{'y' if amount == 1 else 'ies'}"


def loss(code: str, points: int) -> str:
    """What armour or a shield takes off a characteristic: `AG \u22122`, or `no AG loss`."""
    return f"{code} \u2212{points}" if points else f"no {code} loss"


def listed(values: Sequence[object]) -> str:
    """`5`, `5 and 4`, `3, 4, 2 and 5`: values as a sentence lists them."""
    words = [str(value) for value in values]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def dice_named(sides: Sequence[int]) -> str:
    """`D100`, `2D10`, `D5 and D10`."""
    if len(set(sides)) > 1:
        return " and ".join(f"D{side}" for side in sides)
    return f"{len(sides)}D{sides[0]}" if len(sides) > 1 else f"D{sides[0]}"


def can_finish(
    placed: Mapping[str, int], left: int, slots: int, maximum: int, minimum: int, limits: AllocationLimits
) -> bool:
    """5.2: whether `left` points can still go into `slots` characteristics, each minimum..maximum, without
    breaking the place limits near the maximum. Values below maximum-2 are alike to the limits, so it is
    enough to try how many of the rest sit at maximum, maximum-1 and maximum-2."""
    low_top = maximum - 3
    for at_max in range(slots + 1):
        for one_below in range(slots - at_max + 1):
            for two_below in range(slots - at_max - one_below + 1):
                low = slots - at_max - one_below - two_below
                rest = left - at_max * maximum - one_below * (maximum - 1) - two_below * (maximum - 2)
                if not low * minimum <= rest <= low * max(low_top, minimum):
                    continue
                values = dict(placed)
                tiers = [maximum] * at_max + [maximum - 1] * one_below + [maximum - 2] * two_below
                values.update({f"_{index}": value for index, value in enumerate(tiers)})
                if within_limits(values, maximum, limits):
                    return True
    return False


def lawful_values(
    placed: Mapping[str, int], points: int, slots: int, maximum: int, minimum: int, limits: AllocationLimits
) -> list[int]:
    """The values the next characteristic may take so that the rest can still be allocated (5.2)."""
    left = points - sum(placed.values())
    return [
        value
        for value in range(minimum, maximum + 1)
        if can_finish({**placed, "_next": value}, left - value, slots - 1, maximum, minimum, limits)
    ]
