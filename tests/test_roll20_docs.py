"""Each statement of docs/roll20.md about what the DragonQuest sheet's workers do after an import, held
against the sheet's workers (tests/consumers/dqsheet.py): the load (`pagcalc`) after each kind of edit,
the two reasons a weapon's Strike Chance moves, what the closed panels' summary lines show, and
`change:mdcurr` joining text where Roll20 hands its workers numbers as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from chargen import api
from chargen.export.roll20_shown import sheet_load_loss, sheet_pounds
from chargen.model import Character
from chargen.render import lookup
from chargen.tables import Tables
from tests import test_roll20_sheet
from tests.consumers.dqsheet import ROW, Sheet, number, text
from tests.test_roll20_sheet import _attributes, _differences, _edits, _load_in_notes, documented_differences

ROLF = Path(__file__).resolve().parent / "examples" / "rolf.yaml"

pytestmark = pytest.mark.slow  # the docs' examples, each held against the sheet's workers for 50 characters


#: tests/test_roll20_sheet.py's characters: 50 NPCs of a mixed batch, and rolled characters.
characters = test_roll20_sheet.characters


def _imported(character: Character, tables: Tables) -> tuple[Sheet, dict[str, str]]:
    written = _attributes(character, tables)
    sheet = Sheet()
    sheet.import_silently(written)
    return sheet, written


def _rows(written: dict[str, str], section: str, name: str) -> list[str]:
    return [key for key in written if (match := ROW.match(key)) and match[1] == section and match[3] == name]


def test_editing_ps_alone_never_moves_the_load(characters: list[Character], tables: Tables) -> None:
    for character in characters:
        sheet, _ = _imported(character, tables)
        sheet.edit("ps")
        assert text(sheet.get("pagcalc")) == "0", character.name


def test_editing_the_money_alone_weighs_only_the_coins(characters: list[Character], tables: Tables) -> None:
    moved = 0
    for character in characters:
        sheet, _ = _imported(character, tables)
        sheet.edit("sp")
        coins = sheet_load_loss(character.characteristics.PS, character.silver_pennies / 16)
        assert text(sheet.get("pagcalc")) == ("-99" if coins is None else str(-coins)), character.name
        moved += text(sheet.get("pagcalc")) != _load_in_notes(character, tables)
    assert moved > 0  # for some, less than the whole load the GM notes name


def test_the_whole_load_needs_a_weight_of_each_section_and_the_money_retyped(
    characters: list[Character], tables: Tables
) -> None:
    """A section's weights (weapons, armor, shield, possessions) count once any weight of that section is
    retyped, every row of it then; the coins once the money is."""
    short = 0
    for character in characters:
        sheet, written = _imported(character, tables)
        weapons = _rows(written, "weapon", "wgt")
        others = [
            rows[0]
            for section in ("armour", "shield", "possession")
            if (rows := _rows(written, section, "wgt"))
        ]
        for name in [*others, "sp"]:
            sheet.edit(name)
        carried = sum(float(written[name]) for name in weapons)
        assert number(sheet.get("wgttot")) == pytest.approx(sheet_pounds(character, tables) - carried)
        short += carried > 0
        if weapons:
            sheet.edit(weapons[-1])
        assert number(sheet.get("wgttot")) == pytest.approx(sheet_pounds(character, tables)), character.name
        assert text(sheet.get("pagcalc")) == _load_in_notes(character, tables), character.name
    assert short > 0


def test_a_weapons_strike_chance_moves_for_the_md_minimum_and_the_slung_shield(tables: Tables) -> None:
    """Rolf (MD 15, 12 with his Large Round Shield) with a Broadsword (MD 15 needed) and a Mattock (two
    hands, so the shield slung): the sheet takes no 5 a point of MD short (17.1) off the Broadsword, and
    takes the shield's 3 off the Mattock (20)."""
    text_in = ROLF.read_text(encoding="utf-8").replace("  - {name: dagger}", "  - {name: mattock, rank: 1}")
    character = api.build(text_in, "rolf.yaml", tables=tables)
    shield = character.combat.shield
    assert shield is not None and shield.manual_dexterity_loss == 3
    sheet, written = _imported(character, tables)
    for row in _rows(written, "weapon", "rank"):
        sheet.edit(row)
    shown = [text(sheet.get(name)) for name in _rows(written, "weapon", "sc")]
    broadsword, mattock = character.combat.weapons
    needed = lookup.weapon(tables, broadsword.name, "").md
    assert needed is not None
    short = needed - character.combat.modified_manual_dexterity
    assert shown == [str(broadsword.strike_chance + 5 * short), str(mattock.strike_chance - 3)]


def test_closed_panels_show_the_sheets_defaults(characters: list[Character], tables: Tables) -> None:
    """A weapon without a range shows range "0", a spell type "G" and cast chance "0", and the
    description panel "0 y.o." where chargen writes no age."""
    seen = {"melee": 0, "spell": 0, "no age": 0}
    for character in characters:
        sheet, written = _imported(character, tables)
        for flag in _rows(written, "weapon", "name"):
            row = flag.removesuffix("_name")
            sheet.import_silently({f"{row}_options-flag": "0"})
            sheet.edit(f"{row}_options-flag")
            if f"{row}_rg" not in written:
                assert text(sheet.get(f"{row}_sum-range")) == "0"
                seen["melee"] += 1
        for flag in _rows(written, "spell", "name"):
            row = flag.removesuffix("_name")
            sheet.import_silently({f"{row}_options-flag": "0"})
            sheet.edit(f"{row}_options-flag")
            assert [text(sheet.get(f"{row}_sum-{name}")) for name in ("type", "main")] == ["G", "0"]
            seen["spell"] += 1
        sheet.edit("hist-options-flag")
        age = written.get("age")
        assert text(sheet.get("stat-age")) == f"{age or 0} y.o."
        seen["no age"] += age is None
    assert all(seen.values()), seen


def test_numbers_handed_back_as_text_garble_the_strike_chance(tables: Tables) -> None:
    """If getAttrs hands `change:mdcurr` the modified MD as text, `(rank*4) + mdcurr` joins: a Rank 3
    Broadsword's 64 becomes Base, 4 x Rank and MD written side by side."""
    character = api.build(ROLF.read_text(encoding="utf-8"), "rolf.yaml", tables=tables)
    sheet, written = _imported(character, tables)
    mdcurr = written["mdcurr"]
    sheet.import_silently({"mdcurr": mdcurr})  # text, as an import leaves it
    sheet.edit("mdcurr")
    (row,) = [name for name in _rows(written, "weapon", "sc") if written[name.replace("_sc", "_rank")] == "3"]
    base = written[row.replace("_sc", "_base")]
    assert text(sheet.get(row)) == f"{base}{3 * 4}{mdcurr}"


def test_the_gm_notes_name_what_the_sheet_shows_by_default(
    characters: list[Character], tables: Tables
) -> None:
    """The age the record gives as a range, Magic Resistance, a talent the race grants, a weapon without a
    damage modifier: each named in the GM notes where the sheet shows its own default."""
    from chargen.export import export_document
    from chargen.render import skill_boxes

    seen = {"age": 0, "talent": 0}
    for character in characters:
        body = export_document(character, tables, "roll20")["character"]
        assert isinstance(body, dict)
        notes, written = str(body["gmnotes"]), _attributes(character, tables)
        assert "Magic Resistance" in notes
        if "age" not in written:
            assert f"starting age is {lookup.race(tables, character.race).starting_age}" in notes
            seen["age"] += 1
        for row in skill_boxes.magic(character, tables).rows:
            if not row.rank.isdigit():
                assert row.name in notes.split("without a Rank (6.4-6.9): ", 1)[1]
                seen["talent"] += 1
        for line in character.combat.weapons:
            if line.damage_modifier is None:
                assert f"{lookup.weapon(tables, line.name, '').name}: no damage modifier" in notes
    assert all(seen.values()), seen


@pytest.mark.slow
def test_each_kind_of_edit_changes_only_what_the_list_names(
    characters: list[Character], tables: Tables
) -> None:
    """Each input retyped alone on a fresh import: what moves is within docs/roll20.md's list, and over every
    kind of edit the list is met but for a weapon's Initiative, which moves only when its Rank is retyped
    after another edit moved Agility (tests/test_roll20_sheet.py retypes them all in turn)."""
    documented = documented_differences()
    everywhere: set[str] = set()
    for character in characters:
        written = _attributes(character, tables)
        for name in dict.fromkeys(_edits(written)):
            sheet = Sheet()
            sheet.import_silently(written)
            sheet.edit(name)
            moved = _differences(sheet, written)
            assert moved <= documented, (character.name, name, moved - documented)
            everywhere |= moved
    assert everywhere == documented - {"weapon:iv"}
