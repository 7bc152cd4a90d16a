"""A played character's record: the History box (12, 17, 87) words each advancement entry of the file, the
bank after it and the Experience total beside the bank; a long ledger keeps the box to its lines; a
character not played has no box. The Roll20 and Foundry exports carry the same."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest

from chargen import api
from chargen.character_file import dump_document
from chargen.export import FORMATS, export_document, schema
from chargen.model import Character
from chargen.render import render_html
from chargen.render.build import build_sheet
from chargen.render.page_fit import HISTORY_LINES, HISTORY_WHEN_CHARS
from chargen.tables import Tables, load_tables
from tests.test_export import attribs
from tests.test_ledger import played
from tests.test_ledger_rules import CHART

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
#: Rolf after his first adventure: awarded 500, his Broadsword raised a Rank and his PS by one, the costs
#: the GM's, as the file gives them.
PLAYED = (
    ROLF
    + """advancement:
  - {award: 500, note: The barrow of Kell, date: "2026-11-02"}
  - {raise: broadsword, to: 4, cost: 400, note: trained with Bors}
  - {raise: PS, to: 23, cost: 100}
"""
)


def awarded(count: int, when: str = "") -> str:
    """Rolf with `count` awards of 10, each noted with its number (after `when`, where given)."""
    lines = [f"  - {{award: 10, note: '{when}{number}'}}" for number in range(1, count + 1)]
    return ROLF + "advancement:\n" + "\n".join(lines) + "\n"


class _Box(HTMLParser):
    """The History box's rows as a reader sees them: each row's cells' text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.kinds: list[str] = []
        self._inside = False
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section":
            self._inside = "history" in classes
        elif self._inside and tag == "tr" and classes:
            self.rows.append([])
            self.kinds.append(classes[0])
        elif self._inside and tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "section":
            self._inside = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _items(html: str, box: str) -> dict[str, str]:
    """A box's label/value lines, by label."""
    section = html.split(f'<section class="box {box}">', 1)[1].split("</section>", 1)[0]
    found = re.findall(r"<dt>([^<]*)</dt>(?:<input[^>]*>)?<dd>([^<]*)", section)
    return {label: value.strip() for label, value in found}


@pytest.fixture(scope="module")
def unplayed(tables: Tables) -> Character:
    return api.build(ROLF, "rolf.yaml", tables=tables)


@pytest.fixture(scope="module")
def bank(unplayed: Character) -> int:
    """Rolf's bank before play: his Ranks are given, nothing bought, so his Experience Points (8.6)."""
    assert unplayed.experience_bank is None and unplayed.experience_points == 120
    return unplayed.experience_points


def test_each_entry_is_a_line_of_the_history_with_the_bank_after_it(
    tables: Tables, unplayed: Character, bank: int
) -> None:
    html = render_html(api.build(PLAYED, "rolf.yaml", tables=tables), tables)
    assert _Box(html).rows == [
        ["2026-11-02 \u00b7 The barrow of Kell", "Awarded", "+500", "", str(bank + 500)],
        ["trained with Bors", "Broadsword Rank 3 \u2192 4", "\u2212400", "as given", str(bank + 100)],
        ["\u2014", "Physical Strength 22 \u2192 23", "\u2212100", "as given", str(bank)],
    ]
    experience = _items(html, "purse")
    assert experience["Experience Point Bank"] == str(bank)
    assert experience["Experience total"] == str(unplayed.experience_points + 500)
    assert experience["Experience Points"] == str(unplayed.experience_points)


def test_a_weapon_used_unranked_and_a_skill_learned_have_no_rank_before(tables: Tables, bank: int) -> None:
    text = ROLF + (
        "advancement:\n"
        "  - {award: 400}\n"
        "  - {raise: dagger, to: 1, cost: 150}\n"
        "  - {raise: healer, to: 0, cost: 120, note: taught by the abbess}\n"
        "  - {raise: unarmed combat, to: 1, cost: 50}\n"
    )
    rows = _Box(render_html(api.build(text, "rolf.yaml", tables=tables), tables)).rows
    assert [row[1:] for row in rows] == [
        ["Awarded", "+400", "", str(bank + 400)],
        ["Dagger unranked \u2192 Rank 1", "\u2212150", "as given", str(bank + 250)],
        ["Healer learned at Rank 0", "\u2212120", "as given", str(bank + 130)],
        ["Unarmed Combat unranked \u2192 Rank 1", "\u221250", "as given", str(bank + 80)],
    ]


def test_a_cost_from_the_gms_chart_says_so() -> None:
    """The test's chart (tests/rulesets/experience-chart.yaml, not the book's): the halfling of seed 7
    raises PS 16 to 17 for its 100 times his race's 1.1."""
    charted = load_tables(None, [str(CHART)])
    halfling = dump_document(api.roll(seed=7), "yaml")
    made = api.build(played(halfling, "{award: 200}", "{raise: PS, to: 17}"), tables=charted)
    rows = _Box(render_html(made, charted)).rows
    assert rows[1] == ["\u2014", "Physical Strength 16 \u2192 17", "\u2212110", "chart \u00d7 race", "202"]


def test_a_character_not_played_has_no_history_box(tables: Tables, unplayed: Character) -> None:
    html = render_html(unplayed, tables)
    assert _Box(html).rows == [] and "History" not in html and ".history" not in html
    assert "Experience total" not in _items(html, "purse")


@pytest.mark.parametrize(("count", "earlier"), [(HISTORY_LINES, 0), (HISTORY_LINES + 1, 2), (40, 21)])
def test_a_long_ledger_shows_its_latest_entries_and_sums_the_earlier(
    tables: Tables, bank: int, count: int, earlier: int
) -> None:
    """20 one-line entries fill the box; one more, and the first line sums the entries the box has no
    room for, which takes a line itself: 19 are shown."""
    box = _Box(render_html(api.build(awarded(count), "rolf.yaml", tables=tables), tables))
    assert len(box.rows) == min(count, HISTORY_LINES)
    if not earlier:
        assert box.kinds == ["award"] * count
        return
    assert box.kinds == ["earlier"] + ["award"] * (HISTORY_LINES - 1)
    assert box.rows[0] == [
        f"{earlier} earlier entries: in the character file",
        f"{earlier} awards, 0 raises",
        f"+{10 * earlier}",
        "",
        str(bank + 10 * earlier),
    ]
    assert box.rows[1][0] == str(earlier + 1) and box.rows[-1] == [
        str(count),
        "Awarded",
        "+10",
        "",
        str(bank + 10 * count),
    ]


@pytest.mark.parametrize("extra", [0, 1])
def test_an_entry_whose_note_wraps_takes_its_lines_of_the_box(tables: Tables, extra: int) -> None:
    """18 one-line entries and one of two lines fill the box; a character more on the long one's note
    makes it three lines, and the box holds the latest entries that fit beside the line summing the rest:
    the long one and 16 others."""
    long_note = "x" * (2 * HISTORY_WHEN_CHARS + extra)
    text = awarded(HISTORY_LINES - 2) + f"  - {{award: 10, note: '{long_note}'}}\n"
    box = _Box(render_html(api.build(text, "rolf.yaml", tables=tables), tables))
    if not extra:
        assert box.kinds == ["award"] * (HISTORY_LINES - 1)
        return
    assert box.kinds == ["earlier"] + ["award"] * 17
    assert box.rows[0][0] == "2 earlier entries: in the character file" and box.rows[-1][0] == long_note


def test_the_history_takes_its_room_from_the_ruled_skills_and_magic(
    tables: Tables, unplayed: Character
) -> None:
    before = build_sheet(unplayed, tables, "t").blank_lines
    after = build_sheet(api.build(awarded(1), "rolf.yaml", tables=tables), tables, "t").blank_lines
    # its line, and three for the table's heading and the box's frame: Skills down to its least, two lines
    assert (before["skills"], after["skills"]) == (6, 2)
    assert (before["magic"], after["magic"]) == (3, 2)
    assert {key: after[key] for key in ("languages", "notes", "wounds", "carried")} == {
        key: before[key] for key in ("languages", "notes", "wounds", "carried")
    }


def test_the_exports_carry_the_bank_the_total_and_every_entry(
    tables: Tables, unplayed: Character, bank: int
) -> None:
    played = api.build(awarded(40, "Adventure "), "rolf.yaml", tables=tables)
    plain, _ = attribs(played, tables)
    assert (plain["exp"], plain["exptot"]) == (str(bank + 400), str(unplayed.experience_points + 400))
    bio = export_document(played, tables, "roll20")["character"]["bio"]
    foundry = export_document(played, tables, "foundry")["system"]
    assert foundry["biography"] == bio
    entries = re.findall(r"<li>(Adventure \d+: [^<]*)</li>", bio)
    assert entries[0] == f"Adventure 1: Awarded, +10; bank {bank + 10}"
    assert len(entries) == 40 and entries[-1] == f"Adventure 40: Awarded, +10; bank {bank + 400}"
    for fmt in FORMATS:  # still what each target takes
        jsonschema.Draft202012Validator(schema(fmt)).validate(export_document(played, tables, fmt))
    derived = foundry["attributes"]["derived"]
    assert derived["experience_bank"]["value"] == bank + 400
    assert derived["experience_total"]["value"] == unplayed.experience_points + 400


def test_the_exports_of_a_character_not_played_carry_no_history(
    tables: Tables, unplayed: Character, bank: int
) -> None:
    plain, _ = attribs(unplayed, tables)
    assert (plain["exp"], plain["exptot"]) == (str(bank), str(unplayed.experience_points))
    assert "History" not in export_document(unplayed, tables, "roll20")["character"]["bio"]
    assert (
        "experience_total"
        not in export_document(unplayed, tables, "foundry")["system"]["attributes"]["derived"]
    )


class _Grid(HTMLParser):
    """The Characteristics box's table as a reader sees it: the heading's and each row's cells' text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._inside = False
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self._inside = "characteristics" in (dict(attrs).get("class") or "").split()
        elif self._inside and tag == "tr":
            self.rows.append([])
        elif self._inside and tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "section":
            self._inside = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_the_characteristics_add_up_with_what_play_raised(tables: Tables) -> None:
    """17, 87: a raised characteristic's row adds up on the record (allocated, race, gender, raised)."""
    grid = _Grid(render_html(api.build(PLAYED, "rolf.yaml", tables=tables), tables))
    assert grid.rows[0] == ["Characteristic", "Allocated", "Race", "Gender", "Raised", "Value"]
    assert grid.rows[1] == ["PS", "Physical Strength", "22", "\u2014", "\u2014", "+1", "23"]
    assert grid.rows[2][5] == "\u2014"  # MD: not raised
    awards_only = _Grid(render_html(api.build(awarded(2), "rolf.yaml", tables=tables), tables))
    assert awards_only.rows[0] == ["Characteristic", "Allocated", "Race", "Gender", "Value"]


OLD_HAND = (
    "name: Old Hand\ngender: male\nrace: elf\nhand: right\nstanding:\n"
    "  characteristics: {PS: 18, MD: 16, AG: 15, EN: 17, MA: 8, WP: 12, PC: 11, FT: 20}\n  silver_pennies: 40\n"
)


def _characteristics_box(page: str) -> tuple[list[list[str]], list[str]]:
    """The Characteristics box as a person reads it: each row's cells, and the fine print under them."""
    from tests.render_fixtures.fields import parse_html

    box = parse_html(page).find_all("section", "characteristics")[0]
    rows = [[cell.text() for cell in row.children if not isinstance(cell, str)] for row in box.find_all("tr")]
    return rows[1:], [note.text() for note in box.find_all("p", "fine")]


def test_a_character_as_it_stands_says_its_values_hold_race_and_gender(tables: Tables) -> None:
    rows, notes = _characteristics_box(render_html(api.build(OLD_HAND, tables=tables), tables))
    assert rows[0] == [
        "PS",
        "Physical Strength",
        "\u2014",
        "\u22121",
        "\u2014",
        "18",
    ]  # the elf's -1 is in 18
    assert notes == [
        "As it stands: each value starts from its file's, the race's and gender's modifiers already in it; "
        "the allocation (5.2) is not known."
    ]
    rows, notes = _characteristics_box(render_html(api.build(ROLF, tables=tables), tables))
    assert rows[0][-1] == "22" and notes == []  # a created character's rows add up: no such note
