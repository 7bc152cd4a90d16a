"""A fillable record as PDF readers draw it: poppler (Evince, Okular, pdftoppm) and pdfium (Chrome,
pypdfium2). Every checkbox has an appearance for on and for off and a default appearance (/DA), every text
field a /DA, and the form asks no reader to make appearances of its own (/NeedAppearances); filled, every
tick and typed value is drawn, inside its field, by both; each field lies on paper the record leaves blank."""

from __future__ import annotations

import re
import subprocess
from io import BytesIO
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from chargen.render.form import form_fields
from tests.render_fixtures import build, record_pdf
from tests.test_fillable import caster, filled

pytestmark = pytest.mark.slow  # PDFs

#: Pixels a point: both readers draw at 72 dpi, so a point of the page is a pixel.
DPI = 72


def widgets(pdf: bytes) -> list[tuple[int, Any]]:
    """Each field's widget and the page it is on."""
    reader = PdfReader(BytesIO(pdf))
    return [
        (number, annotation.get_object())
        for number, page in enumerate(reader.pages)
        for annotation in page.get("/Annots", [])
    ]


def box(pdf: bytes, widget: Any, number: int) -> tuple[int, int, int, int]:
    """A widget's /Rect in the pixels of its page drawn at 72 dpi (origin top left)."""
    height = float(PdfReader(BytesIO(pdf)).pages[number].mediabox.height)
    x0, y0, x1, y1 = (float(value) for value in widget["/Rect"])
    return round(min(x0, x1)), round(height - max(y0, y1)), round(max(x0, x1)), round(height - min(y0, y1))


def poppler(pdf: bytes, folder: Path, stem: str) -> list[Image.Image]:
    (folder / f"{stem}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", f"{stem}.pdf", stem], cwd=folder, check=True)
    return [Image.open(path).convert("L") for path in sorted(folder.glob(f"{stem}-*.png"))]


def pdfium(pdf: bytes) -> list[Image.Image]:
    document = pypdfium2.PdfDocument(pdf)
    document.init_forms()  # draw the form's widgets, as a viewer does
    return [page.render(scale=DPI / 72, may_draw_forms=True).to_pil().convert("L") for page in document]


@pytest.fixture(scope="module", params=["human", "caster"])
def fillable(request: pytest.FixtureRequest) -> bytes:
    character = caster() if request.param == "caster" else build(request.param)
    return record_pdf(character, fillable=True)


def test_each_field_carries_its_appearances_and_no_reader_is_asked_to_make_them(fillable: bytes) -> None:
    form = PdfReader(BytesIO(fillable)).trailer["/Root"]["/AcroForm"]
    assert "/NeedAppearances" not in form
    fonts = form["/DR"]["/Font"]
    for _, widget in widgets(fillable):
        font, size = re.fullmatch(r"(/\S+) ([0-9.]+) Tf 0 g", str(widget["/DA"])).groups()  # type: ignore[union-attr]
        assert font in fonts, widget["/T"]
        if widget["/FT"] == "/Btn":
            states = set(widget["/AP"]["/N"])
            assert "/Off" in states and len(states) == 2, widget["/T"]
            assert widget["/AS"] == "/Off" and widget["/MK"]["/CA"] == "4"
            assert widget["/AP"]["/N"]["/Off"].get_object().get_data() == b""  # off draws nothing
        else:
            assert widget["/FT"] == "/Tx" and float(size) > 0


def _values(pdf: bytes) -> dict[str, str]:
    """A tick in every other checkbox, and a short value in every text field."""
    found = {}
    for index, (_, widget) in enumerate(widgets(pdf)):
        name = str(widget["/T"])
        if widget["/FT"] == "/Btn":
            if index % 2 == 0:
                (found[name],) = [state for state in widget["/AP"]["/N"] if state != "/Off"]
        else:
            found[name] = "W8"
    return found


@pytest.mark.parametrize("reader", ["poppler", "pdfium"])
def test_every_tick_and_value_is_drawn_inside_its_field(fillable: bytes, reader: str, tmp_path: Path) -> None:
    values = _values(fillable)
    done = filled(fillable, values)
    if reader == "poppler":
        empty, full = poppler(fillable, tmp_path, "empty"), poppler(done, tmp_path, "filled")
    else:
        empty, full = pdfium(fillable), pdfium(done)
    assert len(empty) == len(full)
    inside = [Image.new("L", page.size, 0) for page in empty]
    for number, widget in widgets(fillable):
        x0, top, x1, bottom = box(fillable, widget, number)
        name = str(widget["/T"])
        drawn = ImageChops.difference(empty[number], full[number]).crop((x0, top, x1, bottom))
        ink = drawn.point(lambda level: 255 if level > 60 else 0).getbbox()
        assert (ink is not None) == (name in values), (reader, name)
        inside[number].paste(255, (x0 - 1, top - 1, x1 + 1, bottom + 1))
    for number, (one, other) in enumerate(zip(empty, full, strict=True)):
        changed = ImageChops.difference(one, other).point(lambda level: 255 if level > 60 else 0)
        outside = ImageChops.subtract(changed, inside[number])
        assert outside.getbbox() is None, (reader, number, outside.getbbox())


def test_each_text_field_lies_on_blank_paper(fillable: bytes, tmp_path: Path) -> None:
    """A text field covers nothing the record prints (a label, a heading, a value): what is typed is
    read on its own. (A checkbox lies on its track box, whose printed number it ticks.)"""
    pages = poppler(fillable, tmp_path, "empty")
    for number, widget in widgets(fillable):
        if widget["/FT"] != "/Tx":
            continue
        x0, top, x1, bottom = box(fillable, widget, number)
        under = pages[number].crop((x0 + 2, top + 2, x1 - 2, bottom - 2))  # not the rules beside it
        assert under.point(lambda level: 255 if level < 160 else 0).getbbox() is None, widget["/T"]


def test_field_names_are_unique_whatever_a_gms_columns_are_called() -> None:
    """A ruleset's magic columns named alike once lower-cased ("Range", "range"), like the Rank's own
    cell ("Rank") or in Greek ("Εμβέλεια", "Διάρκεια") still give every cell its own name."""
    from dataclasses import replace

    import chargen
    from chargen.render.build import build_sheet
    from tests.render_fixtures import tables

    sheet = build_sheet(build("human"), tables(), chargen.__version__)
    columns = ["Rank", "Range", "range", "Εμβέλεια", "Διάρκεια"]
    sheet = replace(
        sheet, magic=replace(sheet.magic, columns=columns), blank_lines={**sheet.blank_lines, "magic": 3}
    )
    form = form_fields(sheet)
    names = [
        *(name for track in form.tracks for name in (track.current, *track.boxes)),
        *(name for name in form.experience if name),
        *(cell for lines in form.blank.values() for line in lines for cell in line),
        form.college,
    ]
    assert len(names) == len(set(names))
    assert form.blank["magic"][0] == [
        "spells_1",
        "spells_1_rank",
        *(f"spells_1_column_{n}" for n in range(1, 6)),
    ]


def test_a_batch_pdfs_form_is_made_whole_too(tmp_path: Path) -> None:
    """The batch gathers each record's fields into one /AcroForm: it keeps their fonts and asks no reader
    to make appearances; PDFium draws a tick in a box of the second NPC's record."""
    from click.testing import CliRunner

    from chargen.cli import cli

    out = tmp_path / "npcs.pdf"
    result = CliRunner().invoke(
        cli, ["batch", "-n", "2", "--seed", "5", "--pdf", str(out), "--fillable", "-q"]
    )
    assert result.exit_code == 0, result.output
    pdf = out.read_bytes()
    form = PdfReader(BytesIO(pdf)).trailer["/Root"]["/AcroForm"]
    assert "/NeedAppearances" not in form and {"/Helv", "/ZaDb"} <= set(form["/DR"]["/Font"])
    second = [(number, widget) for number, widget in widgets(pdf) if str(widget["/T"]).startswith("npc2_")]
    number, widget = next((n, w) for n, w in second if w["/FT"] == "/Btn")
    (on,) = [state for state in widget["/AP"]["/N"] if state != "/Off"]
    empty, ticked = pdfium(pdf)[number], pdfium(filled(pdf, {str(widget["/T"]): on}))[number]
    x0, top, x1, bottom = box(pdf, widget, number)
    assert ImageChops.difference(empty, ticked).crop((x0, top, x1, bottom)).getbbox() is not None
