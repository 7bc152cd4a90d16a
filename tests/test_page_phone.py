"""The page at 390 px and the printed sheet: at a phone's width the record's weapons
table and the HTML roster show every column without scrolling sideways (Chromium, driven by Playwright at a
390 px viewport); on a three-page record the Equipment box is never split leaving an empty stub at the top
of the next page (the PDF's own text positions, read with pdftotext)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.render_fixtures import build_text, crowded, human, record_html, record_pdf, roster_html, text
from tests.serve_support import FLAGS as ARGS
from tests.test_render_browser import chromium  # noqa: F401 (the fixture)

pytestmark = pytest.mark.slow  # a server or a browser

PHONE = {"width": 390, "height": 844}

#: What sticks out at the page's width: elements wider than the viewport, scrolled boxes hiding content,
#: and cells or texts cut by a box that clips them.
CUT = """() => {
  const width = document.documentElement.clientWidth, found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.className ? "." + String(el.className).replace(/ /g, ".") : "");
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    if (style.display === "none" || box.width === 0) continue;
    if (box.right > width + 0.5) found.push(name(el) + " ends at " + Math.round(box.right));
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1)
      found.push(name(el) + " hides " + (el.scrollWidth - el.clientWidth) + " px");
    const clip = el.parentElement && el.parentElement.closest(".card");
    if (clip && (el.tagName === "TD" || el.tagName === "TH")) {
      const edge = clip.getBoundingClientRect();
      if (box.right > edge.right + 0.5 || box.bottom > edge.bottom + 0.5) found.push(name(el) + " cut by its card");
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: width, found: found};
}"""

#: Each weapon card's values as a person reads them: the heading shown before each value, and the value.
WEAPON_CELLS = """() => Array.from(document.querySelectorAll(".weapons tbody tr")).map(row =>
  Array.from(row.querySelectorAll("td")).map(td => {
    const box = td.getBoundingClientRect();
    return [getComputedStyle(td, "::before").content, td.textContent.trim(), box.right <= 390.5 && box.width > 0];
  }))"""


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:  # noqa: F811
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        yield launched
        launched.close()


def _at_phone_width(browser: Any, tmp_path: Path, page_html: str, name: str) -> Any:
    path = tmp_path / f"{name}.html"
    path.write_text(page_html, encoding="utf-8")
    page = browser.new_page(viewport=PHONE)
    page.goto(path.as_uri())
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)  # for a person to look at
    return page


@pytest.mark.parametrize("which", ["human", "crowded"])
def test_the_record_fits_a_phone_with_every_weapon_column(browser: Any, tmp_path: Path, which: str) -> None:
    character = human() if which == "human" else crowded()
    page = _at_phone_width(browser, tmp_path, record_html(character), which)
    report = page.evaluate(CUT)
    assert (report["scroll"], report["width"]) == (390, 390)
    assert report["found"] == []
    rows = page.evaluate(WEAPON_CELLS)
    assert len(rows) == len(character["combat"]["weapons"]) + 1  # and Unarmed
    headings = [
        "Rank",
        "Strike Chance",
        "Damage",
        "Initiative",
        "Range",
        "Class",
        "Use",
        "Endurance damage",
        "Grievous Injury",
    ]
    for row in rows:
        assert [content for content, _, _ in row[1:]] == [f'"{heading}"' for heading in headings]
        assert all(seen for _, _, seen in row)
    first = character["combat"]["weapons"][0]
    assert rows[0][0][1] == page.evaluate(
        "document.querySelector('.weapons tbody td.text').textContent.trim()"
    )
    assert rows[0][8][1].startswith(first["endurance_damage"] or "—")  # Endurance damage, read on the page
    page.close()


def test_the_html_roster_fits_a_phone_with_def_and_init(browser: Any, tmp_path: Path) -> None:
    characters = [human(), crowded()]
    page = _at_phone_width(browser, tmp_path, roster_html(characters), "roster")
    report = page.evaluate(CUT)
    assert report["scroll"] == 390
    assert report["found"] == []
    headings = page.evaluate(
        "Array.from(document.querySelectorAll('.card table.stats tr:first-child th')).map(th => th.textContent)"
    )
    assert (headings.count("Def"), headings.count("Init")) == (2, 2)  # shown, and not cut (CUT)
    page.close()


def _with_equipment(count: int) -> Any:
    data = yaml.safe_load(text("crowded"))
    data["equipment"] = [{"name": f"Item {index}", "weight": 1} for index in range(count)]
    return build_text(yaml.safe_dump(data, sort_keys=False), "crowded.yaml")


def _first_word_tops(pdf: bytes, tmp_path: Path) -> list[float]:
    """The top of the first word of each page, in points, as pdftotext reads the PDF."""
    path = tmp_path / "record.pdf"
    path.write_bytes(pdf)
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True)
    pages = html.stdout.split("<page ")[1:]
    tops = []
    for page in pages:
        word = re.search(r'<word xMin="[\d.]+" yMin="([\d.]+)"', page)
        assert word is not None
        tops.append(float(word.group(1)))
    return tops


@pytest.mark.parametrize("count", [12, 13, 14, 15])
def test_no_equipment_box_leaves_an_empty_stub_on_the_next_page(tmp_path: Path, count: int) -> None:
    """The crowded record with 12 to 15 things carried: its third page begins at the top of the page with
    its first box's heading (with 14, the Equipment box once ended in a stub of blank lines up there)."""
    pdf = record_pdf(_with_equipment(count))
    tops = _first_word_tops(pdf, tmp_path)
    assert len(tops) == 3
    assert abs(tops[2] - tops[1]) < 3, tops  # page 3's first text stands where page 2's does
