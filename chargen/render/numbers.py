"""Formatting numbers the way the record prints them."""

from __future__ import annotations

MINUS = "\u2212"
DASH = "\u2014"


def num(value: int | float) -> str:
    """A number as printed: ints plain, whole floats without '.0', negatives with a true minus sign."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("-", MINUS)


def signed(value: int | float | None) -> str:
    """`+2`, or `-1` with a true minus sign; a dash for none or zero."""
    if not value:
        return DASH
    return f"+{num(value)}" if value > 0 else num(value)


def weight(value: int | float | None) -> str:
    return DASH if value is None else f"{num(value)} lb"


def pounds(value: int | float | None) -> float | None:
    return None if value is None else float(value)
