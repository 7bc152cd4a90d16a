"""Reading the character mapping and formatting its numbers the way the record prints them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chargen.render.errors import RenderError

MINUS = "\u2212"
DASH = "\u2014"


class Reader:
    """Dotted-path access to the character mapping; a missing required key names its path."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def opt(self, path: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in path.split("."):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, Sequence) and not isinstance(node, str) and part.isdigit():
                index = int(part)
                if index >= len(node):
                    return default
                node = node[index]
            else:
                return default
        return default if node is None else node

    def get(self, path: str) -> Any:
        value = self.opt(path)
        if value is None:
            raise RenderError(f"character file has no {path}")
        return value

    def list(self, path: str) -> list[Any]:
        value = self.opt(path, [])
        if not isinstance(value, list):
            raise RenderError(f"character file field {path} must be a list, not {value!r}")
        return value


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
