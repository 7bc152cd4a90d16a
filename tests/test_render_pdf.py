"""The PDF record, read back: text, pages, paper, repeatability, and what it may load."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pypdf
import pytest
import yaml

from chargen.render.errors import RenderError
from chargen.tables import Tables
from tests import render_fixtures
from tests.render_fixtures import REPO, build_text, crowded, human, named, record_pdf, rolled
from tests.render_fixtures.fields import expected_fields
from tests.render_fixtures.pdf_text import pdf_fields, pdf_words

pytestmark = pytest.mark.slow  # PDFs

POINTS_PER_INCH = 72


def read(pdf: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(pdf))


def font_names(reader: pypdf.PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        resources: Any = page["/Resources"]
        for font in resources.get_object()["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/"))
    return names


def text_of(reader: pypdf.PdfReader) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture(scope="module")
def typical_pdf() -> bytes:
    return record_pdf(human())


def test_pdf_shows_name_weapons_aspect_and_seed(typical_pdf: bytes) -> None:
    reader = read(typical_pdf)
    text = text_of(reader)
    front = reader.pages[0].extract_text()
    assert "Rolf the Barbarian" in front
    assert "Broadsword" in front and "Dagger" in front
    assert "unranked" in front
    assert "Winter Stars" in text
    assert "seed 42" in text


def test_typical_character_fits_two_letter_pages(typical_pdf: bytes) -> None:
    reader = read(typical_pdf)
    assert 1 <= len(reader.pages) <= 2
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_a4_pages_are_a4() -> None:
    reader = read(record_pdf(human(), paper="a4"))
    assert 1 <= len(reader.pages) <= 2
    box = reader.pages[0].mediabox
    assert (
        round(float(box.width) / POINTS_PER_INCH * 25.4),
        round(float(box.height) / POINTS_PER_INCH * 25.4),
    ) == (210, 297)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crowded_character_flows_onto_more_pages_with_nothing_lost(tables: Tables, paper: str) -> None:
    character = crowded()
    pdf = record_pdf(character, paper=paper)
    reader = read(pdf)
    assert 2 <= len(reader.pages) <= 4
    text = text_of(reader)
    compact = "".join(text.split())
    assert "Honorificabilitudinitatibus" in compact
    assert "".join(character["name"].split()) in compact
    names = [tables.weapons[line["name"]].name for line in character["combat"]["weapons"]]
    assert all(name in text for name in names)
    for ability in tables.races["shape-changer"].abilities:
        assert "".join(ability.split())[:40] in compact
    wanted = expected_fields(character, tables)
    assert pdf_fields(pdf, list(wanted)) == wanted


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_mostly_empty_last_page_is_filled_with_ruled_lines(tmp_path: Path, paper: str) -> None:
    """The crowded record's third page holds little: its last pencil boxes (Languages, Notes) get the
    lines that fill it, measured on the laid-out page through WeasyPrint's public Page.anchors
    (chargen.render.pdf._spare_lines), so the colophon below them sits low on the page, and the record
    keeps its page count. A GM's copy of the template without the marks gets no more lines."""
    ours = (REPO / "templates" / "record.html.j2").read_text(encoding="utf-8")
    unmarked = "\n".join(line for line in ours.splitlines() if "{% if marks %}" not in line)
    assert len(unmarked.splitlines()) == len(ours.splitlines()) - 2
    (tmp_path / "unmarked.html.j2").write_text(unmarked, encoding="utf-8")
    plain = record_pdf(crowded(), paper=paper, template=tmp_path / "unmarked.html.j2")
    filled = record_pdf(crowded(), paper=paper)
    assert len(read(filled).pages) == len(read(plain).pages) == 3
    height = float(read(filled).pages[-1].mediabox.height)

    def colophon_top(
        pdf: bytes,
    ) -> float:  # the colophon ends the record: its words are the last above the margin
        words = [w for w in pdf_words(pdf) if w.page == 2 and w.y1 < height - 0.5 * POINTS_PER_INCH]
        return max(w.y0 for w in words)

    assert colophon_top(plain) < height / 2  # unfilled, the content ends in the top half
    assert colophon_top(filled) > height - 1.5 * POINTS_PER_INCH  # filled, within about two lines of the end


def test_long_weapon_list_repeats_the_table_header() -> None:
    data = yaml.safe_load(render_fixtures.text("crowded"))
    data["weapons"] = data["weapons"] * 4  # forty weapons: two pages of them
    reader = read(record_pdf(build_text(json.dumps(data), "forty.json")))
    pages = [page.extract_text() for page in reader.pages]
    # Damage (D10...) is printed only in the rows of the weapons table.
    pages_with_weapons = [page for page in pages if "D10" in page]
    assert len(pages_with_weapons) >= 2
    assert all("Strike Chance" in page for page in pages_with_weapons)


def test_same_character_same_bytes_across_processes(typical_pdf: bytes) -> None:
    assert record_pdf(human()) == typical_pdf
    code = (
        "import sys; from tests.render_fixtures import human, record_pdf; "
        "sys.stdout.buffer.write(record_pdf(human()))"
    )
    other = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, check=True)
    assert other.stdout == typical_pdf


def test_pdf_metadata_has_no_dates(typical_pdf: bytes) -> None:
    metadata: dict[str, Any] = dict(read(typical_pdf).metadata or {})
    assert "/CreationDate" not in metadata and "/ModDate" not in metadata
    assert metadata.get("/Title", "").startswith("Rolf the Barbarian")
    assert str(metadata.get("/Creator", "")).startswith("chargen ")


def test_hostile_name_prints_as_text() -> None:
    name = '<img src="http://example.com/x"></style><script>x</script>'
    text = text_of(read(record_pdf(named(name))))
    assert '<img src="http://example.com/x">' in "".join(text.splitlines())


@pytest.mark.parametrize(
    "choices",
    [
        {},
        {"race": "giant"},
        {"race": "shape-changer", "gender": "female", "optional": ["PB"]},
        {"race": "elf"},
    ],
)
def test_rolled_characters_render(tables: Tables, choices: dict[str, object]) -> None:
    character = rolled(7, **choices)
    pdf = record_pdf(character)
    reader = read(pdf)
    assert 1 <= len(reader.pages) <= 2
    front = reader.pages[0].extract_text()
    assert " ".join(character["name"].split()) in " ".join(front.split())
    wanted = expected_fields(character, tables)
    assert pdf_fields(pdf, list(wanted)) == wanted
    assert {word.text for word in pdf_words(pdf) if word.page == 0} >= {"PS", "MD", "AG", "EN", "FT", "PC"}


# --- what a template may load -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "markup",
    [
        '<img src="http://example.com/x.png">',
        '<link rel="stylesheet" href="https://example.com/x.css">',
        '<link rel="stylesheet" href="/etc/passwd">',
        '<img src="../../../../../../../etc/hostname">',
        '<style>@import url("file:///etc/hostname");</style>',
        "<style>@font-face { font-family: X; src: url(ftp://example.com/x.woff); } p { font-family: X; }</style>",
    ],
)
def test_template_may_not_load_anything_outside_the_package(tmp_path: Path, markup: str) -> None:
    template = tmp_path / "mine.html"
    template.write_text(f"<html><head>{markup}</head><body><p>{{{{ sheet.name }}}}</p></body></html>")
    with pytest.raises(RenderError) as caught:
        record_pdf(human(), template=template)
    # Named by the template when the page is read before WeasyPrint (URLs that leave the machine).
    assert str(caught.value).removeprefix(f"{template}: ").startswith("the record may not load ")


def test_template_may_use_the_package_fonts_and_stylesheet(tmp_path: Path) -> None:
    template = tmp_path / "mine.html"
    template.write_text(
        '<html><head><link rel="stylesheet" href="record.css"><style>{{ stylesheet }}'
        "@font-face { font-family: Mine; src: url(fonts/EBGaramond12-Italic.woff); }"
        "p { font-family: Mine; }</style></head><body><p>{{ sheet.name }}</p></body></html>"
    )
    reader = read(record_pdf(human(), template=template))
    assert "Rolf the Barbarian" in text_of(reader)
    assert any(name.endswith("+Mine-Italic") for name in font_names(reader))  # fonts/ may be loaded


#: Three weapons, leather and a shield: a front page the Wounds box just fits.
KIT = (
    "weapons: [{name: broadsword, rank: 4}, {name: dagger, rank: 1}, {name: short-bow, rank: 1}]\n"
    "armor: leather\nshield: {name: large-round-shield, rank: 1}\n"
)
AS_IT_STANDS = (
    "name: Old Hand\ngender: male\nrace: human\nhand: right\nstanding:\n"
    "  characteristics: {PS: 18, MD: 16, AG: 15, EN: 17, MA: 8, WP: 12, PC: 11, FT: 20}\n"
    "  silver_pennies: 40\n"
)
CREATED = "name: Old Hand\ngender: male\nrace: human\nhand: right\nseed: 3\n" + (
    "allocation: {PS: 18, MD: 16, AG: 15, EN: 17, MA: 8, WP: 12}\n"
)
RULED_INITIATIVES = "overrides:\n" + "".join(
    f"  weapons.{weapon}.initiative: {{value: 7, reason: a GM's}}\n"
    for weapon in ("broadsword", "dagger", "short-bow")
)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize(
    "text",
    [AS_IT_STANDS + KIT, CREATED + KIT + RULED_INITIATIVES],
    ids=["as-it-stands-note", "ruled-initiatives"],
)
def test_a_note_under_the_characteristics_or_an_initiative_leaves_no_box_alone_on_a_page(
    text: str, paper: str
) -> None:
    """The note under a character's Characteristics as it stands, and a ruled Initiative's note under its
    cell, each lengthen the front page: counted, the Wounds box moves on with the rest (two pages), not
    alone onto a third."""
    character = build_text(text, "kit.yaml")
    pdf = record_pdf(character, paper=paper)
    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == 2


@pytest.mark.parametrize("seed", [2, 4])
@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("fillable", [False, True])
def test_a_record_with_physical_beauty_is_two_pages(seed: int, paper: str, fillable: bool) -> None:
    """5.5's Physical Beauty adds a row to the Characteristics box: on Letter it pushed the Wounds box
    alone onto a third page, unless the front page gives it a line less."""
    character = build_text(f"seed: {seed}\noptional: [PB]\n", "beauty.yaml")
    assert "PB" in character["characteristics"]
    pdf = record_pdf(character, paper=paper, fillable=fillable)
    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == 2
