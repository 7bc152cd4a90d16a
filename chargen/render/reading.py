"""Formatting numbers the way the record prints them."""

from __future__ import annotations

from typing import Any

from chargen.render.errors import RenderError

MINUS = "\u2212"
DASH = "\u2014"


def num(value: Any) -> str:
    """A number as printed: ints plain, whole floats without '.0', negatives with a true minus sign."""
    if isinstance(value, bool):
        raise RenderError(f"expected a number, not {value!r}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("-", MINUS) if isinstance(value, int | float) else str(value)


def signed(value: Any) -> str:
    if value in (None, 0):
        return DASH
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"+{num(value)}" if value > 0 else num(value)
    return str(value)


def weight(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return DASH
    if isinstance(value, str):
        return value
    return f"{num(value)} lb"


def pounds(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None
