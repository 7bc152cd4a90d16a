"""The fillable Character Record: which parts of the record change in play, and the name of the
PDF form field each gets. The template only places the fields; every name is made here.

A template gets `form` beside `sheet`: None for the printed record, else a Form whose names follow the
sheet's own lists (the tracks, the Experience & Money lines, the ruled boxes' blank lines). A name says
what the field holds (`endurance_current`, `endurance_box_12`, `wounds_2_grievous`, `notes_3`); a batch PDF
prefixes each record's names (`npc007_notes_3`), so every name is unique in the file. Lines of a ruled box
are numbered from 1, top down; a track box's number is the point it stands for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chargen.errors import InputError
from chargen.render.sheet import Sheet


def without_pdf() -> InputError:
    """--fillable with no record PDF to write: its fields are the PDF's, so alone it would make nothing."""
    return InputError("--fillable: makes the PDF's form fields; give --pdf FILE too")


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


@dataclass(frozen=True)
class TrackFields:
    current: str  # the current value, beside the starting one
    boxes: list[str]  # a checkbox per box of the track, in the track's order


@dataclass(frozen=True)
class Form:
    tracks: list[TrackFields]  # one per sheet.tracks
    experience: list[str]  # one per sheet.experience line, "" where the line gets no field
    blank: dict[str, list[list[str]]]  # each ruled box's blank lines: a name per cell of each line
    college: str  # the College's, "" when the record prints one


def form_fields(sheet: Sheet, prefix: str = "") -> Form:
    """The names of the sheet's form fields, `prefix` before each."""
    blank = {
        box: _lines(prefix + name, cells, sheet.blank_lines.get(box, 0))
        for box, (name, cells) in BLANK_BOXES.items()
    }
    magic_cells = ("", "rank", *(_slug(column) for column in sheet.magic.columns))
    blank["magic"] = _lines(prefix + "spells", magic_cells, sheet.blank_lines.get("magic", 0))
    tracks = []
    for track in sheet.tracks:  # 3.4, 3.7: a box per point
        name = prefix + _slug(track.label)
        # A box is named for the point it stands for (the first box the highest), whatever number the
        # record prints in it (what is left once it is ticked, chargen.render.tracks).
        points = range(len(track.boxes), 0, -1)
        tracks.append(TrackFields(f"{name}_current", [f"{name}_box_{point}" for point in points]))
    return Form(
        tracks=tracks,
        experience=[
            prefix + PURSE_FIELDS[item.label] if item.label in PURSE_FIELDS else ""
            for item in sheet.experience
        ],
        blank=blank,
        college="" if sheet.magic.college else prefix + "college",
    )


def _lines(name: str, cells: tuple[str, ...], count: int) -> list[list[str]]:
    return [
        [f"{name}_{line}" + (f"_{cell}" if cell else "") for cell in cells] for line in range(1, count + 1)
    ]


def _slug(text: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", text.lower())) or "column"
