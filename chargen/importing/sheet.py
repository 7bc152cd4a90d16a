"""A character of Roll20's DragonQuest sheet as the VTT Enhancement Suite exports it (chargen's own Roll20
export is one): {"schema_version": 3, "type": "character", "character": {"name", "attribs": [...], ...}},
or the character object alone, as the suite's older exports wrote it. Read into its attributes by name and
its repeating sections' rows, in the order the sheet shows them."""

from __future__ import annotations

import re
from dataclasses import dataclass

import orjson

from chargen.errors import InputError, Problem, shown

#: repeating_<section>_<row id>_<name>: a row id has no "_" (Roll20's own ids and chargen's alike).
ROW = re.compile(r"^repeating_([a-z]+)_(-?[^_]+)_(.+)$")
#: Roll20's attribute holding a section's row order.
ORDER = "_reporder_repeating_"
#: The most attributes a character may have: far more than the sheet has inputs for a large character.
MAX_ATTRIBUTES = 20_000
#: The longest text an attribute may hold (a Bio is not read; a note is a paragraph or two).
MAX_TEXT = 100_000


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of a repeating section: its id and its values by their short names (`name`, `rank`)."""

    section: str
    row_id: str
    values: dict[str, str]

    def text(self, name: str) -> str:
        return self.values.get(name, "").strip()

    def attribute(self, name: str) -> str:
        """The row's attribute as the sheet names it, for messages."""
        return f"repeating_{self.section}_{self.row_id}_{name}"


@dataclass(frozen=True, slots=True)
class SheetCharacter:
    """The sheet's character: its name, its plain attributes and its rows by section."""

    name: str
    values: dict[str, str]
    rows: dict[str, list[SheetRow]]

    def text(self, name: str) -> str:
        return self.values.get(name, "").strip()

    def section(self, name: str) -> list[SheetRow]:
        return self.rows.get(name, [])


def read_sheet(text: str, source: str) -> SheetCharacter:
    """The character in `text`; anything else refused in one line naming `source`."""
    try:
        document = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise InputError(Problem(label=source, message=f"not JSON ({error})")) from None
    body = document.get("character", document) if isinstance(document, dict) else None
    if not isinstance(body, dict) or not isinstance(body.get("attribs"), list):
        raise InputError(
            Problem(
                label=source,
                message="not a Roll20 character: the VTT Enhancement Suite's export holds "
                '{"character": {"name", "attribs": [...]}}',
            )
        )
    attributes = body["attribs"]
    if len(attributes) > MAX_ATTRIBUTES:
        raise InputError(
            Problem(label=source, message=f"{len(attributes)} attributes, over {MAX_ATTRIBUTES}")
        )
    values = dict(_attribute(item, index, source) for index, item in enumerate(attributes))
    name = body.get("name")
    return SheetCharacter(
        name=_checked_text(name, "name", source) if name is not None else "",
        values={key: value for key, value in values.items() if not ROW.match(key)},
        rows=_rows(values),
    )


def _attribute(item: object, index: int, source: str) -> tuple[str, str]:
    """An attribute's name and current value, as text (Roll20 keeps numbers and text alike)."""
    name = item.get("name") if isinstance(item, dict) else None
    if not isinstance(item, dict) or not isinstance(name, str):
        raise InputError(
            Problem(label=f"{source}: attribs[{index}]", message="not an attribute {name, current}")
        )
    value = item.get("current", "")
    if isinstance(value, bool) or not isinstance(value, str | int | float | None):
        raise InputError(Problem(label=f"{source}: {name[:40]}", message=f"{shown(value)} is not a value"))
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:  # 15.0 is 15; 1e32 stays
        value = int(value)
    return name, _checked_text("" if value is None else str(value), name, source)


def _checked_text(value: object, name: str, source: str) -> str:
    where = f"{source}: {name[:40]}"
    if not isinstance(value, str):
        raise InputError(Problem(label=where, message=f"{shown(value)} is not text"))
    if len(value) > MAX_TEXT:
        raise InputError(Problem(label=where, message=f"{len(value):,} characters, over {MAX_TEXT:,}"))
    return value


def _rows(values: dict[str, str]) -> dict[str, list[SheetRow]]:
    """Each section's rows in the sheet's order: those its _reporder_ lists first, the rest by id (as
    Roll20 sorts them)."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for key, value in values.items():
        match = ROW.match(key)
        if match:
            section, row_id, name = match.groups()
            found.setdefault(section, {}).setdefault(row_id.lower(), {})[name] = value
    rows = {}
    for section, by_id in found.items():
        listed = [part.strip().lower() for part in values.get(ORDER + section, "").split(",")]
        order = [row_id for row_id in dict.fromkeys(listed) if row_id in by_id]
        order += sorted(row_id for row_id in by_id if row_id not in order)
        rows[section] = [SheetRow(section, row_id, by_id[row_id]) for row_id in order]
    return rows
