"""The record's word on how its values were reached: the configuration each figure assumes where the record
mixes them (a pike and a shield, 17.5 and 20), the GM's values marked through build, file, record and
exports, and --explain's workings in HTML (closed <details>, linked from each value) and PDF (a page)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from chargen import api
from chargen.character_file import dump_document
from chargen.export.foundry import actor_json
from chargen.export.roll20 import character_json
from chargen.render import render_html, render_pdf
from chargen.rules import combat as rules
from chargen.tables import Tables
from tests.render_fixtures.fields import Node, parse_html

TESTS = Path(__file__).parent
PIKE = (TESTS / "pike-and-shield.yaml").read_text(encoding="utf-8")
ROLF = (TESTS / "examples" / "rolf.yaml").read_text(encoding="utf-8")
RULINGS = """
overrides:
  defense: {value: 27, reason: the boss of his shield}
  experience_bank: {value: 250, reason: awarded for the siege}
"""
ROLF_SKILLED = ROLF + "skills: [{name: ranger, rank: 0}]\n"


def stats(page: str) -> dict[str, tuple[str, str]]:
    """Each stat of the Combat box as a person reads it: label -> (value, its note)."""
    found = {}
    for box in parse_html(page).find_all("section", "combat"):
        for stat in box.find_all("div", "stat"):
            note = stat.find_all("span", "note")
            value = stat.find_all("span", "value") or stat.find_all("a", "value")
            found[stat.find_all("span", "label")[0].text()] = (
                value[0].text(),
                note[0].text() if note else "",
            )
    return found


def weapon_rows(page: str) -> dict[str, tuple[str, str]]:
    """Each weapon line: name -> (Strike Chance, what its cell says of how the shield is held)."""
    table = parse_html(page).find_all("section", "weapons")[0]
    rows = {}
    for row in table.find_all("tbody")[0].find_all("tr"):
        cells = row.find_all("td")
        held = cells[2].find_all("span", "note")
        rows[cells[0].text()] = (cells[2].text(skip="note"), held[0].text() if held else "")
    return rows


def test_the_pike_and_shield_record_states_each_configuration(tables: Tables) -> None:
    page = render_html(api.build(PIKE, "pike-and-shield.yaml", tables=tables), tables)
    combat = stats(page)
    defense, defense_note = combat["Defense"]
    dexterity, dexterity_note = combat["Manual Dexterity"]
    agility = int(combat["Agility"][0])
    assert defense_note == "Pike in both hands, shield slung (20); 15 with it (17.5)"
    assert dexterity_note == "modified; shield prepared (17.5); 17 slung (20)"
    assert weapon_rows(page) == {
        "Pike": ("70", "slung: MD 17"),
        "Short Sword": ("63", ""),  # with the modified MD the Combat box gives, the shield prepared
        "Unarmed": ("27", ""),
    }
    # Nothing contradicts: each figure is the rules' on the configuration it states.
    shield = tables.shields["large-round-shield"]
    assert int(defense) == agility  # slung: no shield in Defense
    assert rules.defense(agility, shield, 1, tables.combat) == 15  # prepared, as the note says
    assert int(dexterity) == 17 - shield.manual_dexterity_loss  # prepared
    assert rules.strike_chance(tables.weapons["pike"], 17, 2, tables.combat, 17, 20) == 70  # slung: MD 17
    short_sword = tables.weapons["short-sword"]
    assert rules.strike_chance(short_sword, int(dexterity), 1, tables.combat, 17, 20) == 63  # prepared
    breakage = next(item for item in parse_html(page).find_all("div", "item") if "Breakage" in item.text())
    assert breakage.find_all("dd")[0].text(skip="note") == "42"  # 3 x modified MD 14: prepared
    assert "shield prepared (17.5); 51 slung (20)" in breakage.text()


def test_a_record_holding_one_configuration_says_nothing_more(tables: Tables) -> None:
    # Rolf: a broadsword and a shield, the shield prepared for every figure: no configuration line.
    page = render_html(api.build(ROLF, "rolf.yaml", tables=tables), tables)
    assert "prepared" not in page and "slung" not in page


def test_the_gms_values_survive_build_file_record_and_exports(tables: Tables) -> None:
    built = api.build(ROLF_SKILLED + RULINGS, "rolf.yaml", tables=tables)
    assert (built.combat.defense, built.experience_bank) == (27, 250)
    text = dump_document(built, "yaml")
    assert "defense: {value: 27, reason: the boss of his shield, computed: 24}" in text
    again = api.build(text, "rolf-full.yaml", tables=tables)
    assert dump_document(again, "yaml") == text  # the file rebuilds itself, rulings and all
    assert api.checked(text, "rolf-full.yaml", tables=tables) == (
        [],
        [
            "rolf-full.yaml:100:12: overrides.defense: note: the GM's 27 in place of the rules' 24: "
            "the boss of his shield",
            "rolf-full.yaml:101:20: overrides.experience_bank: note: the GM's 250 in place of the rules' 20: "
            "awarded for the siege",
        ],
    )
    page = render_html(again, tables)
    assert stats(page)["Defense"] == ("27", "the GM's; the rules give 24")
    bank = next(item for item in parse_html(page).find_all("div", "item") if "Point Bank" in item.text())
    assert bank.text() == "Experience Point Bank250 the GM's: awarded for the siege; the rules give 20 (8.6)"
    foundry = actor_json(again, tables)["system"]
    derived = foundry["attributes"]["derived"]
    assert (derived["defense"]["value"], derived["experience_bank"]["value"]) == (27, 250)
    for biography in (foundry["biography"], character_json(again, tables)["character"]["bio"]):
        assert "defense 27: the GM's (the boss of his shield); the rules give 24" in biography
        assert "experience_bank 250: the GM's (awarded for the siege); the rules give 20" in biography
    # Removing the rulings from the file gives the rules' values back.
    removed = api.build(text.split("overrides:")[0], "rolf-full.yaml", tables=tables)
    assert (removed.combat.defense, removed.experience_bank, removed.overrides) == (24, 20, None)
    assert "the GM's" not in render_html(removed, tables)


@pytest.mark.parametrize(
    ("ruled", "strike_note", "initiative_note"),
    [
        ("initiative", "", "the GM's; the rules give {initiative}"),
        ("strike_chance", "the GM's; the rules give {strike}", ""),
    ],
)
def test_a_ruled_weapon_value_is_marked_in_its_own_cell(
    tables: Tables, ruled: str, strike_note: str, initiative_note: str
) -> None:
    rules_line = api.build(ROLF, "rolf.yaml", tables=tables).combat.weapons[0]
    text = ROLF + f"overrides:\n  weapons.broadsword.{ruled}: {{value: 77, reason: a GM's ruling}}\n"
    page = render_html(api.build(text, "rolf.yaml", tables=tables), tables)
    cells = parse_html(page).find_all("section", "weapons")[0].find_all("tbody")[0].find_all("tr")[0]
    by_label = {cell.attrs.get("data-label", ""): cell for cell in cells.find_all("td")}
    notes = {
        label: " ".join(note.text() for note in by_label[label].find_all("span", "note"))
        for label in ("Strike Chance", "Initiative")
    }
    figures = {"strike": rules_line.strike_chance, "initiative": rules_line.initiative}
    assert notes == {
        "Strike Chance": strike_note.format(**figures),
        "Initiative": initiative_note.format(**figures),
    }
    assert by_label["Initiative" if ruled == "initiative" else "Strike Chance"].text(skip="note") == "77"


def test_a_typed_value_the_rules_give_otherwise_is_refused_with_the_hint(tables: Tables) -> None:
    try:
        api.build(ROLF_SKILLED + "experience_bank: 250\n", "rolf.yaml", tables=tables)
    except api.InputError as error:
        assert str(error) == (
            "rolf.yaml:13:18: experience_bank: file says 250 but the rules give 20; leave it out and build "
            "works it out, or keep a GM's value under overrides: with a reason"
        )
    else:
        raise AssertionError("experience_bank: 250 was taken")


def test_a_ruling_on_what_other_values_are_worked_from_is_refused(tables: Tables) -> None:
    text = ROLF + "overrides: {PS: {value: 25, reason: a giant's belt}, defence: {value: 3, reason: x}}\n"
    try:
        api.build(text, "rolf.yaml", tables=tables)
    except api.InputError as error:
        lines = error.lines if len(error.lines) > 1 else str(error).split("; rolf")
        assert any("overrides.PS: is worked into other values" in line for line in lines), lines
        assert any("overrides.defence: is not a value chargen works out" in line for line in lines), lines
    else:
        raise AssertionError("a ruling on PS was taken")


def test_a_ruled_strike_chance_reads_the_special_damage_chart_again(tables: Tables) -> None:
    ruled = ROLF + "overrides: {weapons.broadsword.strike_chance: {value: 90, reason: blessed}}\n"
    line = api.build(ruled, "rolf.yaml", tables=tables).combat.weapons[0]
    assert (line.strike_chance, line.endurance_damage, line.grievous_injury) == (90, "01-14", "01-05")


def details(page: str) -> dict[str, Node]:
    """Each working's <details>, by the id of its lines (what a value's link reaches, opening it)."""
    return {node.find_all("ul")[0].attrs["id"]: node for node in parse_html(page).find_all("details")}


def test_explain_in_html_opens_each_value_to_its_working_without_script(tables: Tables) -> None:
    character = api.build(ROLF, "rolf.yaml", tables=tables)
    assert "<details" not in render_html(character, tables)
    page = render_html(character, tables, explain=True)
    assert "<script" not in page
    found = details(page)
    defense = found["working-defense"]
    assert "open" not in defense.attrs  # closed until the reader opens it
    assert defense.find_all("summary")[0].text() == "Defense 24 = 12 + 4 \u00d7 3 (17.5)"
    links = {node.attrs["href"]: node.text() for node in parse_html(page).find_all("a", "worked")}
    assert links["#working-defense"] == "24"
    assert links["#working-weapons-broadsword-strike-chance"] == "64"
    assert all(href.removeprefix("#") in found for href in links)  # every link reaches its working


@pytest.mark.slow  # PDFs
def test_explain_in_pdf_adds_the_workings_page(tables: Tables) -> None:
    character = api.build(ROLF, "rolf.yaml", tables=tables)
    plain = PdfReader(io.BytesIO(render_pdf(character, tables)))
    explained = PdfReader(io.BytesIO(render_pdf(character, tables, explain=True)))
    assert len(explained.pages) > len(plain.pages)
    added = " ".join(page.extract_text() for page in explained.pages[len(plain.pages) - 1 :])
    assert "How each value was worked out".upper() in added.upper()
    assert "Defense 24 = 12 + 4 \u00d7 3 (17.5)" in added
    assert all("worked out" not in page.extract_text() for page in plain.pages)


def test_the_page_shows_the_gms_values_on_the_record_it_opens() -> None:
    from chargen.web.app import create_app, shared

    app = create_app()
    try:
        client = app.test_client()
        upload = (io.BytesIO((ROLF_SKILLED + RULINGS).encode()), "rolf.yaml")
        opened = client.post("/open", data={"file": upload}, content_type="multipart/form-data")
        assert opened.status_code == 303
        page = client.get("/open/record.html").get_data(as_text=True)
        assert stats(page)["Defense"] == ("27", "the GM's; the rules give 24")
    finally:
        shared(app).close()
