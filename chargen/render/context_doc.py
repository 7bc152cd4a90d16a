"""The template context as docs/record.md documents it, written from the view model's own classes: a field
added to the Sheet (or to a row it holds) shows up here, and tests/test_record_template.py checks that
docs/record.md says the same."""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from typing import Any, get_type_hints


def _shown(kind: Any) -> str:
    text = getattr(kind, "__name__", None) if not hasattr(kind, "__args__") else None
    text = text or str(kind)
    return re.sub(r"\b[\w.]+\.(\w+)", r"\1", text).replace("typing.", "")


def _parts(kind: Any) -> list[Any]:
    """The view-model classes named in a field's type (the row class of a list, ...)."""
    found = [kind] if is_dataclass(kind) else []
    for argument in getattr(kind, "__args__", ()):
        found.extend(_parts(argument))
    return found


def context_reference() -> str:
    """`sheet` and every class it holds, one line per field, as Markdown list items."""
    from chargen.render.sheet import Sheet

    lines: list[str] = []
    queue: list[Any] = [Sheet]
    seen: set[Any] = set()
    while queue:
        kind = queue.pop(0)
        if kind in seen:
            continue
        seen.add(kind)
        hints = get_type_hints(kind)
        names = ", ".join(f"`{item.name}` ({_shown(hints[item.name])})" for item in fields(kind))
        lines.append(f"- `{kind.__name__}`: {names}")
        for item in fields(kind):
            queue.extend(_parts(hints[item.name]))
    return "\n".join(lines) + "\n"
