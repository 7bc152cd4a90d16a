"""The roster's cards with their Endurance and Fatigue tracks, looked at as a person would: a box to tick per
point, the Endurance box where 19 knocks the NPC out marked, and every card's content inside its frame on
letter and A4, even for a fire giant's Endurance 48 beside four weapons and a shield (the longest card).

The frames come from WeasyPrint's own layout boxes of the roster's HTML; the pages from pdftoppm."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.batch.roster_file import roster_pdf
from chargen.model import Character
from chargen.tables import Tables
from chargen.views import roster
from chargen.views.cards import CardTrack, RosterCard, roster_card
from tests.render_fixtures.fields import parse_html
from tests.test_record_visual import DPI, pictures
from tests.test_skills_record import ADEPT

pytestmark = pytest.mark.slow  # PDFs

#: The longest card: a fire giant (Endurance 23 + 25), four weapons, armor and a ranked shield.
GIANT = """
name: Thokk Hillbreaker Treetall of the Burning Crags
seed: 7
archetype: mercenary
gender: male
race: giant
race_attempts: [giant]
allocation: {PS: 22, MD: 17, AG: 11, EN: 23, MA: 5, WP: 10}
rolls: {points: 9, hand: [3, 7], race: [5], race_type: 2, aspect: 55, social_status: 50, birth_order: 40, sibling_rank: 4, experience: 60, silver: 70}
weapons:
  - {name: battle-axe, rank: 3}
  - {name: morningstar, rank: 2}
  - {name: crossbow, rank: 2}
  - {name: dagger, rank: 1}
armor: chainmail
shield: {name: large-round-shield, rank: 2}
equipment_given: true
"""


def _characters(tables: Tables) -> list[Character]:
    giant = api.build(GIANT, "giant.yaml", tables=tables)
    crowded = api.build(
        (Path(__file__).parent / "render_fixtures" / "crowded.yaml").read_text(encoding="utf-8"),
        "crowded.yaml",
        tables=tables,
    )
    adept = api.build(ADEPT, "adept.yaml", tables=tables)
    rolled = [api.roll(seed=seed, archetype="mercenary", equip="give", tables=tables) for seed in (1, 2, 3)]
    # Twelve cards: a full page of ten, then two on a second page.
    return [giant, crowded, adept, *rolled, giant, crowded, giant, adept, giant, *rolled[:1]]


@pytest.fixture(scope="module")
def cards(tables: Tables) -> list[RosterCard]:
    return [roster_card(number, character, tables) for number, character in enumerate(_characters(tables), 1)]


def _track(section: Any) -> tuple[int, list[int]]:
    """(boxes, 0-based places of the shaded ones) of a track."""
    boxes = section.find_all("i")
    return len(boxes), [place for place, box in enumerate(boxes) if "marked" in box.classes()]


def test_each_card_has_a_box_per_point_of_endurance_and_fatigue(
    cards: list[RosterCard], tables: Tables
) -> None:
    page = parse_html(roster.roster_html(cards, paper="letter", title="Test"))
    unconscious = tables.record.endurance.unconscious
    found = page.find_all("section", "card")
    assert len(found) == len(cards)
    for card, section in zip(cards, found, strict=True):
        endurance, fatigue = section.find_all("p", "track")
        assert endurance.find_all("span", "label")[0].text() == "EN"
        assert endurance.find_all("span", "value")[0].text() == str(card.characteristics["EN"])
        # ticked from the left, the box that leaves `unconscious` (19) has that many boxes after it
        assert _track(endurance) == (
            card.characteristics["EN"],
            [card.characteristics["EN"] - unconscious - 1],
        )
        assert fatigue.find_all("span", "label")[0].text() == "FT"
        assert fatigue.find_all("span", "value")[0].text() == str(card.characteristics["FT"])
        assert _track(fatigue) == (card.characteristics["FT"], [])
    assert cards[0].characteristics["EN"] == 48  # the giant's long track is really there


def test_the_boxes_stand_in_strips_of_five() -> None:
    """Every fifth box from the left ends a strip; the box where Endurance knocks out is marked."""
    assert CardTrack("Endurance", "EN", 12, 3).boxes == [  # the 9th tick leaves 3: unconscious (19)
        *("", "", "", "", "end"),
        *("", "", "", "marked", "end"),
        *("", ""),
    ]
    assert CardTrack("Fatigue", "FT", 11, None).boxes == [*(["", "", "", "", "end"] * 2), ""]
    assert CardTrack("Endurance", "EN", 8, 4).boxes == ["", "", "", "marked", "end", "", "", ""]


def _boxes(box: Any, *, into_clipped: bool = True) -> Iterator[Any]:
    """The box and its descendants; not inside a box that clips on purpose (a long name's ellipsis)
    unless `into_clipped`."""
    yield box
    if not into_clipped and box.style["overflow"] == "hidden":
        return
    for child in getattr(box, "children", ()):
        yield from _boxes(child, into_clipped=into_clipped)


def _layout(cards: list[RosterCard], paper: str) -> Any:
    from chargen.render import html, pdf

    engine = pdf._engine()
    page = roster._document(
        roster.paginate(cards), 2, paper=paper, title="Test", stylesheet=html.read_asset(roster.STYLESHEET)
    )
    return engine.weasyprint.HTML(string=page, base_url=pdf._base_url()).render(
        stylesheets=[engine.fonts], font_config=engine.font_config
    )


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_card_holds_its_content_inside_its_frame(cards: list[RosterCard], paper: str) -> None:
    """The card clips what overflows (overflow: hidden), so a spill would not show as ink outside it: it
    is found in the layout, box by box, against the card's border."""
    document = _layout(cards, paper)
    assert len(document.pages) == 2
    frames = [
        box
        for page in document.pages
        for box in _boxes(page._page_box)
        if box.element_tag == "section" and type(box).__name__ == "InlineBlockBox"
    ]
    assert len(frames) == len(cards)
    checked = 0
    for number, frame in enumerate(frames, 1):
        # inside the card's border line: its padding box, where overflow: hidden clips
        left = frame.border_box_x() + frame.border_left_width
        top = frame.border_box_y() + frame.border_top_width
        right = left + frame.padding_width()
        bottom = top + frame.padding_height()
        inside = (child for top_child in frame.children for child in _boxes(top_child, into_clipped=False))
        for inner in inside:
            if (
                inner is frame
                or getattr(inner, "width", None) is None
                or getattr(inner, "height", None) is None
            ):
                continue
            x, y = inner.position_x, inner.position_y
            where = f"card {number} ({paper}): {inner.element_tag}.{inner.element.get('class')}"
            assert left - 0.5 <= x and x + inner.margin_width() <= right + 0.5, (
                f"{where} leaves the frame sideways"
            )
            assert top - 0.5 <= y and y + inner.margin_height() <= bottom + 0.5, (
                f"{where} runs to {y + inner.margin_height() - top:.1f} of the card's {bottom - top:.1f}"
            )
            checked += 1
    assert checked > 500


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_roster_pages_as_a_person_sees_them(cards: list[RosterCard], tmp_path: Path, paper: str) -> None:
    pages = pictures(roster_pdf(cards, paper=paper, title="Test"), tmp_path)
    assert len(pages) == 2
    band = round(0.3 * DPI)  # the page margins are 0.4in and 0.45in: no ink in the outer 0.3in
    for number, page in enumerate(pages, 1):
        for name, area in {
            "top": (0, 0, page.width, band),
            "bottom": (0, page.height - band, page.width, page.height),
            "left": (0, 0, band, page.height),
            "right": (page.width - band, 0, page.width, page.height),
        }.items():
            assert page.crop(area).getextrema()[0] > 245, f"{paper} page {number}: ink in the {name} margin"
    # the full first page reaches its last row of cards: ink in its bottom tenth, above the margin
    first = pages[0]
    assert first.crop((0, round(first.height * 0.85), first.width, first.height - band)).getextrema()[0] < 128
