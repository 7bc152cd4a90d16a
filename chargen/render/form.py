"""The fillable Character Record: which parts of the record change in play, and the name of the
PDF form field each gets. The template only places the fields; every name is made here.

A template gets `form` beside `sheet`: None for the printed record, else a Form whose names follow the
sheet's own lists (the tracks, the Experience & Money lines, the ruled boxes' blank lines). A name says
what the field holds (`endurance_current`, `endurance_box_12` the box printed 12, `wounds_2_grievous`, `notes_3`); a batch PDF
prefixes each record's names (`npc007_notes_3`), so every name is unique in the file. Lines of a ruled box
are numbered from 1, top down; a track box's number is the one the record prints in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from io import BytesIO
from typing import TYPE_CHECKING

from chargen.errors import InputError
from chargen.render.sheet import Sheet

if TYPE_CHECKING:
    from pypdf import PdfWriter
    from pypdf.generic import DictionaryObject


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
    # A GM's columns by their place, never their heading: headings may repeat once lower-cased or slugged
    # ("Range" beside "range", "Rank" beside the Rank's own cell, or headings in Greek).
    columns = (f"column_{number}" for number in range(1, len(sheet.magic.columns) + 1))
    magic_cells = ("", "rank", *columns)
    blank["magic"] = _lines(prefix + "spells", magic_cells, sheet.blank_lines.get("magic", 0))
    tracks = []
    for track in sheet.tracks:  # 3.4, 3.7: a box per point
        name = prefix + _slug(track.label)
        # A box is named by the number the record prints in it: what is left once it is ticked
        # (chargen.render.tracks), the first box the highest, the last 0.
        tracks.append(TrackFields(f"{name}_current", [f"{name}_box_{box.number}" for box in track.boxes]))
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
    return "_".join(re.findall(r"[a-z0-9]+", text.lower())) or "track"


#: The form's fonts, PDF's standard ones every reader has (ISO 32000-1, 9.6.2.2): typed text in
#: Helvetica, a checkbox's mark in ZapfDingbats ("4" is its check mark, 12.7.4.2.3's /CA).
_FONTS = {"/Helv": "/Helvetica", "/ZaDb": "/ZapfDingbats"}
_TEXT_SIZE = re.compile(r"([0-9.]+)\s+Tf")
_FONT_NAME = re.compile(r"(/[^\s/]+)\s+[0-9.]+\s+Tf")


def finished(pdf: bytes) -> bytes:
    """The record's form made whole for every reader: each checkbox with an appearance for off beside
    WeasyPrint's for on and a default appearance (/DA), each text field's /DA in a font every reader
    has, and no /NeedAppearances, so a reader draws what the file holds (poppler ignores the on
    appearance of a box without /DA, and regenerates everything when asked to)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(BytesIO(pdf)))
    form = _dictionary(writer.root_object["/AcroForm"])
    fonts = DictionaryObject({NameObject(name): _standard_font(base) for name, base in _FONTS.items()})
    form[NameObject("/DR")] = DictionaryObject({NameObject("/Font"): fonts})
    form.pop("/NeedAppearances", None)
    fields = form["/Fields"]
    assert isinstance(fields, list)
    field_fonts: set[str] = set()
    for reference in fields:
        widget = _dictionary(reference)
        if widget.get("/FT") == "/Btn":
            _finish_checkbox(writer, widget)
        else:
            size = _TEXT_SIZE.search(str(widget.get("/DA", "")))
            field_fonts.update(_FONT_NAME.findall(str(widget.get("/DA", ""))))
            widget[NameObject("/DA")] = TextStringObject(f"/Helv {size[1] if size else '0'} Tf 0 g")
    _drop_fonts(writer, field_fonts)
    return _written(writer)


def _drop_fonts(writer: PdfWriter, names: set[str]) -> None:
    """The text fields' own font (templates' "Record Field", which no printed text uses) gone from the
    pages' resources: WeasyPrint embeds a field's font whole, and every field is drawn in Helvetica."""
    from pypdf.generic import NameObject

    for page in writer.pages:
        fonts = _dictionary(page["/Resources"]).get("/Font")
        if fonts is not None:
            for name in names:
                _dictionary(fonts).pop(NameObject(name), None)


def _written(writer: PdfWriter) -> bytes:
    """The file without an object nothing reaches: pypdf drops, in a pass, the objects no other object
    names, and a font's objects name each other in a chain (font, descendant, descriptor, font file),
    so passes are made until one drops nothing; copies pypdf made of one object are merged."""
    out = b""
    while True:
        writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
        buffer = BytesIO()
        writer.write(buffer)
        if len(buffer.getvalue()) == len(out):
            return out
        out = buffer.getvalue()


def _dictionary(value: object) -> DictionaryObject:
    """A PDF dictionary, followed through its reference if it is one."""
    from pypdf.generic import DictionaryObject, IndirectObject

    found = value.get_object() if isinstance(value, IndirectObject) else value
    assert isinstance(found, DictionaryObject)
    return found


def _standard_font(base: str) -> DictionaryObject:
    from pypdf.generic import DictionaryObject, NameObject

    font = {"/Type": "/Font", "/Subtype": "/Type1", "/BaseFont": base}
    if base == "/Helvetica":
        font["/Encoding"] = "/WinAnsiEncoding"
    return DictionaryObject({NameObject(key): NameObject(value) for key, value in font.items()})


def _finish_checkbox(writer: PdfWriter, widget: DictionaryObject) -> None:
    """An empty appearance for off, the size of the one for on; /DA and /MK's mark for a reader that
    draws the box itself."""
    from pypdf.generic import DictionaryObject, NameObject, StreamObject, TextStringObject

    normal = _dictionary(_dictionary(widget["/AP"])["/N"])
    (on,) = [name for name in normal if name != "/Off"]
    # A new stream the size of the one for on (a copy of it, emptied): pypdf's public way to add one.
    off = _dictionary(normal[on]).clone(writer, force_duplicate=True)
    assert isinstance(off, StreamObject)
    off.set_data(b"")
    off.pop("/Resources", None)
    normal[NameObject("/Off")] = off.indirect_reference
    widget[NameObject("/DA")] = TextStringObject("/ZaDb 0 Tf 0 g")
    mark = widget.setdefault(NameObject("/MK"), DictionaryObject())
    mark[NameObject("/CA")] = TextStringObject("4")
    widget[NameObject("/AS")] = NameObject("/Off")
