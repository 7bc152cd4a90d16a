"""The fillable Character Record (issue 33): which parts of the record change in play, and the name of the
PDF form field each gets. The template only places the fields; every name is made here.

A name says what the field holds (`endurance_current`, `endurance_box_12`, `wounds_2_grievous`, `notes_3`);
a batch PDF prefixes each record's names (`npc007_notes_3`), so every name is unique in the file. Lines of
a ruled box are numbered from 1, top down; a box's number is the point it stands for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from chargen.render.sheet import Item, Sheet
from chargen.render.tracks import Track

#: The Experience & Money lines a player keeps up, by their label on the record, and their fields.
PURSE_FIELDS = {
    "Experience Points": "experience_points",
    "Experience Point Bank": "experience_bank",
    "Silver Pennies": "silver_pennies",
}

#: Each ruled box's field name, and what each cell of one of its lines holds ("" for the line's first).
BLANK_BOXES = {
    "wounds": ("wounds", ("endurance", "fatigue", "grievous")),
    "carried": ("equipment", ("",)),
    "skills": ("skills", ("", "rank")),
    "languages": ("languages", ("", "rank")),
    "notes": ("notes", ("",)),
}


def with_fields(sheet: Sheet, prefix: str = "") -> Sheet:
    """The sheet with a form field named for every value that changes in play, `prefix` before each name."""
    blank = {
        box: _lines(prefix + name, cells, sheet.blank_lines.get(box, 0))
        for box, (name, cells) in BLANK_BOXES.items()
    }
    magic_cells = ("", "rank", *(_slug(column) for column in sheet.magic.columns))
    blank["magic"] = _lines(prefix + "spells", magic_cells, sheet.blank_lines.get("magic", 0))
    return replace(
        sheet,
        fillable=True,
        tracks=[_track(track, prefix) for track in sheet.tracks],
        experience=[_purse(item, prefix) for item in sheet.experience],
        blank_fields=blank,
        college_field="" if sheet.magic.college else prefix + "college",
    )


def _lines(name: str, cells: tuple[str, ...], count: int) -> list[list[str]]:
    return [
        [f"{name}_{line}" + (f"_{cell}" if cell else "") for cell in cells] for line in range(1, count + 1)
    ]


def _track(track: Track, prefix: str) -> Track:
    """The current value's field, and a checkbox per point (3.4, 3.7)."""
    name = prefix + _slug(track.label)
    boxes = [replace(box, form_field=f"{name}_box_{box.number}") for box in track.boxes]
    return replace(track, form_field=f"{name}_current", boxes=boxes)


def _purse(item: Item, prefix: str) -> Item:
    name = PURSE_FIELDS.get(item.label)
    return replace(item, form_field=prefix + name) if name else item


def _slug(text: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", text.lower())) or "column"
