"""Representative records rendered to PNG and looked at the way a person would: page
counts, nothing drawn outside the page's margins, no box whose content spills past its frame, and numerals
that line up (lining, not old-style).

The page pictures come from pdftoppm (poppler-utils, installed in CI); the frames from WeasyPrint's own
layout boxes of the same HTML."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from chargen import api
from chargen.model import Character
from chargen.render import render_pdf
from chargen.render.build import build_sheet
from chargen.tables import Tables, load_tables
from tests.test_record_history import PLAYED, awarded
from tests.test_skills_record import ADEPT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)"),
]  # PDFs

FIGHTER_WEAPONS = [
    "dagger",
    "main-gauche",
    "short-sword",
    "falchion",
    "scimitar",
    "rapier",
    "sabre",
    "broadsword",
    "estoc",
    "hand-axe",
    "battle-axe",
    "mace",
    "war-hammer",
    "quarterstaff",
]
FIGHTER = f"""
name: Brand of the Fourteen Blades
race: human
gender: male
seed: 5
allocation: {{PS: 20, MD: 20, AG: 18, EN: 16, MA: 5, WP: 9}}
points: {{total: 88, maximum: 23}}
weapons: [{", ".join(FIGHTER_WEAPONS)}]
armor: leather
equipment_given: true
"""


def representatives() -> dict[str, Character]:
    return {
        "plain human": api.roll(seed=11, race="human"),
        "elf adept": api.build(ADEPT, "adept.yaml"),
        "giant": api.roll(seed=7, race="giant"),
        "14-weapon fighter": api.build(FIGHTER, "fighter.yaml"),
        "played": api.build(PLAYED, "rolf.yaml"),
        "played 40 times": api.build(awarded(40, "Adventure "), "rolf.yaml"),
    }


#: Pages each record may take: two for a record whose front fits, three when the weapons run on, or
#: when a History of 20 lines leaves no room on page two for the boxes after it.
PAGES = {
    "plain human": 2,
    "elf adept": 2,
    "giant": 2,
    "14-weapon fighter": 3,
    "played": 2,
    "played 40 times": 3,
}
CASES = [(who, paper) for who in PAGES for paper in ("letter", "a4")]
DPI = 60


def pictures(pdf: bytes, folder: Path, dpi: int = DPI) -> list[Image.Image]:
    (folder / "record.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", str(folder / "record.pdf"), str(folder / "page")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return [Image.open(path).convert("L") for path in sorted(folder.glob("page-*.png"))]


@pytest.fixture(scope="module")
def characters() -> dict[str, Character]:
    return representatives()


@pytest.mark.parametrize(("who", "paper"), CASES)
def test_pages_and_margins_as_a_person_sees_them(
    characters: dict[str, Character], tables: Tables, tmp_path: Path, who: str, paper: str
) -> None:
    pages = pictures(render_pdf(characters[who], tables, paper=paper), tmp_path)
    assert len(pages) == PAGES[who]
    width, height = (8.5, 11) if paper == "letter" else (210 / 25.4, 297 / 25.4)
    for number, page in enumerate(pages, 1):
        # the page box is the paper (pdftoppm rounds a fraction of a pixel up)
        assert abs(page.width - width * DPI) < 1 and abs(page.height - height * DPI) < 1
        # The page's margins are 0.45in (top) and 0.5in (sides): nothing is drawn in the outer 0.4in on
        # the top and sides (the folio line sits in the bottom margin, on purpose).
        band = round(0.4 * DPI)
        for name, area in {
            "top": (0, 0, page.width, band),
            "left": (0, 0, band, page.height),
            "right": (page.width - band, 0, page.width, page.height),
        }.items():
            darkest = page.crop(area).getextrema()[0]
            assert darkest > 245, f"{who} {paper} page {number}: ink in the {name} margin"
        # No page is mostly empty: ink reaches into the lower half of every page (a record whose weapons run
        # on to a third page rules its last boxes down that page).
        if number < len(pages) or len(pages) > 2:
            lower = page.crop((0, page.height // 2, page.width, page.height - round(0.6 * DPI)))
            assert lower.getextrema()[0] < 128, f"{who} {paper} page {number} is half empty"


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _frames(document: Any) -> Iterator[tuple[str, Any]]:
    for page in document.pages:
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            classes = (element.get("class") or "").split() if element is not None else []
            if "box" in classes and box.element_tag == "section":
                yield " ".join(classes), box


@pytest.mark.parametrize(("who", "paper"), CASES)
def test_no_box_spills_past_its_frame(
    characters: dict[str, Character], tables: Tables, who: str, paper: str
) -> None:
    document = _laid_out(characters[who], tables, paper)
    checked = 0
    for name, frame in _frames(document):
        left = frame.border_box_x()
        right = left + frame.border_width()
        for inner in _boxes(frame):
            if inner is frame or not hasattr(inner, "width") or inner.width is None:
                continue
            start, end = inner.position_x, inner.position_x + inner.margin_width()
            assert left - 0.5 <= start and end <= right + 0.5, (
                f"{who} {paper}: {inner.element_tag} in {name} runs from {start:.1f} to {end:.1f}, "
                f"outside its frame {left:.1f}-{right:.1f}"
            )
            checked += 1
    assert checked > 300


def _laid_out(character: Character, tables: Tables, paper: str) -> Any:
    """WeasyPrint's layout of the record, as render_pdf lays it out."""
    from chargen.render import _page, pdf

    engine = pdf._engine()
    page = _page(character, tables, paper, None, standalone=False)
    return engine.weasyprint.HTML(string=page, base_url=pdf._base_url()).render(
        stylesheets=[engine.fonts, engine.layout], font_config=engine.font_config
    )


def _ruled_rows(document: Any) -> Iterator[tuple[int, str, Any]]:
    """(page index, box name, the box's row of blank lines) for each pencil box."""
    for number, page in enumerate(document.pages):
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            classes = (element.get("class") or "").split() if element is not None else []
            if "pencil" in classes and box.element_tag == "section":
                rows = [row for row in _boxes(box) if type(row).__name__ == "TableRowBox"]
                yield (
                    number,
                    classes[-1],
                    [row for row in rows if "blank" in (row.element.get("class") or "")],
                )


def _rules_seen(page: Image.Image, row: Any, dpi: int) -> int:
    """Horizontal rules a person sees down the blank row's first column, the header's rule above excluded."""
    scale = dpi / 96  # WeasyPrint's layout is in CSS pixels
    x = round((row.position_x + 6) * scale)
    top, bottom = round(row.position_y * scale) + 3, round((row.position_y + row.height) * scale) + 2
    dark = [page.getpixel((x, y)) < 230 for y in range(top, bottom)]
    return sum(1 for above, here in zip([False, *dark], dark, strict=False) if here and not above)


@pytest.mark.parametrize(("who", "paper"), CASES)
def test_each_pencil_box_shows_its_blank_lines(
    characters: dict[str, Character], tables: Tables, tmp_path: Path, who: str, paper: str
) -> None:
    """The blank lines are one table row ruled by CSS: it is as tall as the sheet's count of
    lines, and the picture shows that many rules, as the one-row-per-line tables did."""
    wanted = build_sheet(characters[who], tables, "t").blank_lines
    document = _laid_out(characters[who], tables, paper)
    pages = pictures(document.write_pdf(), tmp_path, dpi=100)
    seen = {}
    for number, name, rows in _ruled_rows(document):
        assert len(rows) == 1, f"{who} {paper}: {name} has {len(rows)} rows of blank lines"
        assert abs(rows[0].height - wanted[name] * 15.5 * 96 / 72) < 0.01, f"{who} {paper}: {name}"
        seen[name] = _rules_seen(pages[number], rows[0], 100)
    assert seen == {name: wanted[name] for name in ("wounds", "skills", "magic", "languages", "notes")}


def _ink_height(image: Image.Image) -> int:
    box = Image.eval(image, lambda value: 255 if value < 128 else 0).getbbox()
    return 0 if box is None else box[3] - box[1]


def _css_rule(page: str, selector: str) -> str:
    return page.split(f"\n{selector} {{", 1)[1].split("}", 1)[0]


@pytest.mark.parametrize("stylesheet", ["record.css", "roster.css"])
def test_every_number_is_set_in_lining_figures(stylesheet: str) -> None:
    from chargen.render.html import read_asset

    assert "font-variant-numeric: lining-nums tabular-nums;" in _css_rule(
        "\n" + read_asset(stylesheet), "html"
    )
    assert "oldstyle-nums" not in read_asset(stylesheet)


def test_eleven_stands_as_tall_as_capitals(tmp_path: Path) -> None:
    """With the record's numeral setting a 1 reaches the height of a capital I: `11` no longer reads `II`'s
    small-capital look (the font's default old-style 1 is as short as a lower-case letter)."""
    from chargen.render import pdf

    engine = pdf._engine()
    heights = {}
    for setting in ("lining-nums", "oldstyle-nums"):
        for text in ("11", "II"):
            style = (
                f"p {{ font-family: 'Record Garamond'; font-size: 60pt; font-variant-numeric: {setting}; }}"
            )
            document = engine.weasyprint.HTML(string=f"<style>{style}</style><p>{text}</p>").render(
                stylesheets=[engine.fonts], font_config=engine.font_config
            )
            folder = tmp_path / f"{setting}-{text}"
            folder.mkdir()
            heights[setting, text] = _ink_height(pictures(document.write_pdf(), folder)[0])
    assert abs(heights["lining-nums", "11"] - heights["lining-nums", "II"]) <= 2
    assert heights["oldstyle-nums", "11"] < heights["oldstyle-nums", "II"] - 5  # the check can fail


#: Rolled characters whose front page once spilled its Wounds box onto an otherwise empty page: three
#: weapons with two-handed damage lines under the book's rules, and house-combat's longer formulas and
#: ten combat boxes.
CROWDED_FRONTS = [((), 5), ((), 29), (("house-combat",), 5), (("house-combat",), 13), (("house-combat",), 21)]


@pytest.mark.parametrize(("rules", "seed"), CROWDED_FRONTS)
def test_a_crowded_front_page_leaves_no_page_half_empty(
    tmp_path: Path, rules: tuple[str, ...], seed: int
) -> None:
    tables = load_tables(None, rules)
    pages = pictures(render_pdf(api.roll(seed=seed, tables=tables), tables), tmp_path)
    assert len(pages) == 2
    for number, page in enumerate(pages[:-1], 1):
        lower = page.crop((0, page.height // 2, page.width, page.height - round(0.6 * DPI)))
        assert lower.getextrema()[0] < 128, f"{rules} seed {seed}: page {number} is half empty"
