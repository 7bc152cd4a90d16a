"""`chargen import`: chargen's own Roll20 export of a character, imported, is the same character as it
stands (its characteristics, Defense, Initiative, TMR and each weapon's Strike Chance); a value edited on
the sheet is named with the sheet's figure and the rules'; hostile input is refused in one line with
nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.cli import cli, main
from chargen.errors import ChargenError
from chargen.export import export_document, export_json
from chargen.model import Character
from chargen.tables import Tables
from chargen.vocabulary import MAX_POINTS
from tests.test_export import attribs
from tests.test_roll20_sheet import _npc_files

ROLF = Path(__file__).resolve().parent / "examples" / "rolf.yaml"


def _house_combat() -> str:
    """A character rolled under the shipped house-combat ruleset (its own Defense and sprinting TMR)."""
    result = CliRunner().invoke(cli, ["--rules", "house-combat", "roll", "--seed", "5"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def characters(tables: Tables, tmp_path_factory: pytest.TempPathFactory) -> list[Character]:
    folder = tmp_path_factory.mktemp("npcs") / "out"
    # 40 of tests/test_roll20_sheet.py's mixed batch: fighters with shields, adepts with colleges, bandits
    npcs = [
        api.build(text, f"npc{index}.yaml", tables=tables)
        for index, text in enumerate(_npc_files(str(folder))[:40])
    ]
    races = [("giant", 0), ("giant", 3), ("shape-changer", 6), ("elf", 9), ("dwarf", 12), ("halfling", 1)]
    rolled = [api.roll(seed=seed, race=race, tables=tables) for race, seed in races]
    rolled += [api.roll(seed=seed, tables=tables) for seed in (100, 112)]  # 112: MD short of a weapon's
    files = [api.build(ROLF.read_text(encoding="utf-8"), "rolf.yaml", tables=tables)]
    files.append(api.build(_house_combat(), "house.yaml", tables=tables))
    everyone = [*npcs, *rolled, *files]
    assert len(everyone) == 50
    assert any(c.combat.shield for c in everyone) and any(c.college for c in everyone)
    assert any(c.race_type for c in everyone) and any(c.rules for c in everyone)
    return everyone


def _standing(character: Character) -> tuple[object, ...]:
    combat = character.combat
    return (
        dict(character.characteristics.items()),
        combat.defense,
        combat.initiative,
        combat.tmr,
        [(line.name, line.rank, line.strike_chance) for line in combat.weapons],
        combat.values,
    )


def test_an_exported_character_imports_as_the_same_character(
    characters: list[Character], tables: Tables
) -> None:
    for character in characters:
        made_with = api.record_tables(character, tables)
        text = export_json(character, made_with, "roll20")
        found = api.import_roll20(text, "sheet.json", tables=made_with)
        assert _standing(found.character) == _standing(character), character.name
        assert found.differences == (), character.name
        assert found.character.standing is not None and found.character.points is None


def test_the_imported_file_builds_and_validates_as_it_stands(
    characters: list[Character], tables: Tables
) -> None:
    """The file written rebuilds to the same character (any door) and validate finds nothing stale."""
    for character in characters[::7]:
        made_with = api.record_tables(character, tables)
        text = export_json(character, made_with, "roll20")
        written = api.imported_file(text, "sheet.json", tables=made_with)
        rebuilt = api.build(written, "imported.yaml", tables=tables)
        assert rebuilt == api.import_roll20(text, "sheet.json", tables=made_with).character
        assert api.validate(written, "imported.yaml", tables=tables) == []
        assert "allocation" not in written and "heritage" not in written and "rolls: {}" in written


def _rolf_sheet(tables: Tables) -> dict[str, object]:
    character = api.build(ROLF.read_text(encoding="utf-8"), "rolf.yaml", tables=tables)
    loaded = json.loads(export_json(character, tables, "roll20"))
    assert isinstance(loaded, dict)
    return loaded


def _attribute(sheet: dict[str, object], suffix: str) -> dict[str, object]:
    body = sheet["character"]
    assert isinstance(body, dict)
    return next(item for item in body["attribs"] if item["name"].endswith(suffix))


def _invoke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sheet: object, *args: str
) -> tuple[int, str, str, Path]:
    """`chargen import` as the terminal runs it: exit status, standard output and error, the file asked for."""
    source = tmp_path / "rolf.json"
    source.write_text(sheet if isinstance(sheet, str) else json.dumps(sheet), encoding="utf-8")
    out = tmp_path / "rolf.yaml"
    with pytest.raises(SystemExit) as exit_info:
        main(["import", str(source), "-o", str(out), *args])
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err, out


def test_a_strike_chance_edited_on_the_sheet_is_named_with_the_rules(
    tables: Tables, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = _rolf_sheet(tables)
    attribute = _attribute(sheet, "_sc")  # the Broadsword's, the first weapon row
    assert attribute["current"] == "64"
    attribute["current"] = "70"
    code, stdout, stderr, out = _invoke(tmp_path, capsys, sheet)
    said = "Roll20 sheet: Broadsword Strike Chance 70, the rules give 64 (17.1)."
    assert (code, stdout, stderr) == (0, "", f"{tmp_path / 'rolf.json'}: {said}\n")
    character = api.build(out.read_text(encoding="utf-8"), "rolf.yaml", tables=tables)
    assert character.notes[-1] == said
    assert character.combat.weapons[0].strike_chance == 64  # the rules' value, the sheet's named beside it


def test_the_sheets_own_stun_is_named(
    tables: Tables, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """19: the sheet's EN / 3 rounded up, where the record's threshold is a third rounded down plus 1."""
    sheet = _rolf_sheet(tables)
    _attribute(sheet, "stun")["current"] = "6"
    code, _, stderr, _ = _invoke(tmp_path, capsys, sheet)
    assert (code, stderr.split(": ", 1)[1]) == (0, "Roll20 sheet: Stun threshold 6, the rules give 7 (19).\n")


def test_as_it_stands_the_creation_is_unknown(
    tables: Tables, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _, out = _invoke(tmp_path, capsys, _rolf_sheet(tables))
    written = out.read_text(encoding="utf-8")
    assert code == 0
    for key in ("points:", "allocation:", "heritage:", "experience_points:", "starting_silver:", "seed:"):
        assert f"\n{key}" not in written, key
    assert "\nstanding:\n  characteristics:\n    PS: 22\n" in written
    record = CliRunner().invoke(cli, ["render", str(out), "--html", "-"])
    shown = " ".join(re.sub(r"<[^>]+>", " ", record.stdout).split())
    assert record.exit_code == 0
    assert "Experience Points 120 earned in all, as it stands Experience Point Bank 120 as it stands" in shown
    assert "Social status unknown Order of birth unknown" in shown and "Starting silver unknown" in shown


def test_the_library_gives_the_file_text(tables: Tables) -> None:
    text = json.dumps(_rolf_sheet(tables))
    written = api.imported_file(text, "rolf.json", fmt="json", tables=tables)
    assert json.loads(written)["standing"]["experience_total"] == 120
    with pytest.raises(ChargenError, match=r"^fmt: 'yaml' or 'json', not 'xml'$"):
        api.imported_file(text, "rolf.json", fmt="xml", tables=tables)
    with pytest.raises(ChargenError, match=r"^text: "):
        api.import_roll20(b"{}", "rolf.json", tables=tables)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("sheet", "said"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a Roll20 character"),
        ('{"character": {"name": "x"}}', "not a Roll20 character"),
        ('{"attribs": [{"current": 1}]}', "attribs[0]: not an attribute"),
        ("[" * 5000 + "]" * 5000, "not JSON"),
    ],
)
def test_what_is_no_roll20_character_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sheet: str, said: str
) -> None:
    code, stdout, stderr, out = _invoke(tmp_path, capsys, sheet)
    assert (code, stdout, len(stderr.splitlines()), out.exists()) == (2, "", 1, False)
    assert said in stderr


def _edited(tables: Tables, suffix: str, value: object) -> dict[str, object]:
    sheet = _rolf_sheet(tables)
    body = sheet["character"]
    assert isinstance(body, dict)
    if value is None:
        body["attribs"] = [item for item in body["attribs"] if not item["name"].endswith(suffix)]
    else:
        _attribute(sheet, suffix)["current"] = value
    return sheet


@pytest.mark.parametrize(
    ("suffix", "value", "said"),
    [
        ("ps", None, "ps: missing: the sheet gives no value, and chargen makes none up"),
        ("ps", str(MAX_POINTS + 1), "ps: '10001' is not a whole number from 0 to 10,000"),
        ("ps", "9" * 400, "ps: '99999"),
        ("ps", 1e300, "is not a whole number"),
        ("md", "fifteen", "md: 'fifteen' is not a whole number"),
        ("_name", "Laser Sword", "'Laser Sword' is not on the Weapons Chart (20.2)"),
        ("race", "Centaur", "race: 'Centaur' is not a race (6.3)"),
        ("_rank", "40", "Rank 40 is above the Broadsword's maximum"),
    ],
)
def test_a_wrong_attribute_is_named_and_nothing_is_written(
    tables: Tables, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, value: object, said: str
) -> None:
    code, stdout, stderr, out = _invoke(tmp_path, capsys, _edited(tables, suffix, value))
    assert (code, stdout, len(stderr.splitlines()), out.exists()) == (2, "", 1, False), stderr
    assert said in stderr
    assert stderr.startswith(f"chargen: error: {tmp_path / 'rolf.json'}: ")


def test_the_highest_characteristic_is_read(tables: Tables) -> None:
    """The edge of the bound the file reader holds a characteristic to (MAX_POINTS)."""
    sheet = _edited(tables, "wp", str(MAX_POINTS))
    found = api.import_roll20(json.dumps(sheet), "rolf.json", tables=tables)
    assert found.character.characteristics.WP == MAX_POINTS


def test_a_standing_file_gives_no_creation(tables: Tables) -> None:
    standing = "standing: {characteristics: {PS: 15, MD: 15, AG: 15, EN: 15, MA: 15, WP: 15, FT: 15, PC: 5},"
    text = f"name: X\ngender: male\nrace: human\nhand: right\n{standing} silver_pennies: 3}}\n"
    assert api.build(text, "x.yaml", tables=tables).characteristics.PS == 15
    with pytest.raises(ChargenError, match=r"allocation: a character as it stands has no creation"):
        api.build(
            text + "allocation: {PS: 15, MD: 15, AG: 15, EN: 15, MA: 15, WP: 15}\n", "x.yaml", tables=tables
        )
    with pytest.raises(ChargenError, match=r"hand: a character as it stands needs it named"):
        api.build(text.replace("hand: right\n", ""), "x.yaml", tables=tables)


def test_every_door_takes_the_imported_file(tables: Tables, tmp_path: Path) -> None:
    """build, validate, explain, the exports and the page's Open a file show the character as it stands."""
    from chargen.web.app import create_app, shared
    from chargen.web.saved import Saved

    written = api.imported_file(json.dumps(_rolf_sheet(tables)), "rolf.json", tables=tables)
    character = api.build(written, "rolf.yaml", tables=tables)
    (strike,) = api.explain(written, "rolf.yaml", ["weapons.broadsword.strike_chance"], tables=tables)
    assert strike.value == character.combat.weapons[0].strike_chance == 64
    (strength,) = api.explain(written, "rolf.yaml", ["PS"], tables=tables)
    assert strength.lines() == ["PS 22 (as it stands)", "  standing 22: the file's, its creation unknown"]
    roll20 = json.loads(export_json(character, tables, "roll20"))["character"]["attribs"]
    assert {item["name"]: item["current"] for item in roll20}["exptot"] == "120"
    foundry = json.loads(export_json(character, tables, "foundry"))["system"]["attributes"]["derived"]
    assert foundry["experience_points"]["value"] == 120
    assert foundry["experience_points"]["label"] == "Experience Points, earned in all (12)"
    app = create_app(saved=Saved(tmp_path))
    client = app.test_client()
    try:
        assert client.post("/open", data={"text": written, "name": "rolf.yaml"}).status_code == 303
        for page in ("/open", "/open/record.html", "/open/character.yaml", "/open/character.roll20.json"):
            assert client.get(page).status_code == 200, page
        assert client.get("/open/character.yaml").get_data(as_text=True) == written
    finally:
        shared(app).close()


def test_what_the_file_has_no_place_for_is_kept(tables: Tables) -> None:
    """Armor carried but not worn is equipment as the sheet names it; coins other than Silver Pennies (8.5)
    are kept in the notes as the sheet holds them; an empty row of the sheet's list is nothing carried."""
    sheet = _rolf_sheet(tables)
    body = sheet["character"]
    assert isinstance(body, dict)
    body["attribs"] += [
        {"name": "repeating_armour_-spare_type", "current": "Chainmail"},
        {"name": "repeating_armour_-spare_wgt", "current": 25},
        {"name": "repeating_possession_-empty_name", "current": ""},
        {"name": "gs", "current": "3"},
    ]
    character = api.import_roll20(json.dumps(sheet), "rolf.json", tables=tables).character
    assert [(item.name, item.weight, item.count) for item in character.equipment] == [("Chainmail", 25, 1)]
    assert character.armor == "leather"
    assert character.notes[-1] == "Roll20 sheet: other coins gs 3; chargen counts Silver Pennies only (8.5)."


def test_the_sheets_bounds_at_their_edges(tables: Tables) -> None:
    """MAX_ATTRIBUTES attributes and MAX_TEXT characters are read; one more of either is refused."""
    from chargen.importing.sheet import MAX_ATTRIBUTES, MAX_TEXT

    def imported(extra: list[dict[str, object]]) -> Character:
        sheet = _rolf_sheet(tables)
        body = sheet["character"]
        assert isinstance(body, dict)
        body["attribs"] += extra
        return api.import_roll20(json.dumps(sheet), "rolf.json", tables=tables).character

    held = len(_rolf_sheet(tables)["character"]["attribs"])  # type: ignore[index]
    filler: list[dict[str, object]] = [
        {"name": f"unread{i}", "current": ""} for i in range(MAX_ATTRIBUTES - held)
    ]
    assert imported(filler).name == "Rolf the Barbarian"
    with pytest.raises(
        ChargenError, match=rf"^rolf.json: {MAX_ATTRIBUTES + 1} attributes, over {MAX_ATTRIBUTES}$"
    ):
        imported([*filler, {"name": "one-more", "current": ""}])
    assert imported([{"name": "special", "current": "x" * MAX_TEXT}]).name == "Rolf the Barbarian"
    with pytest.raises(ChargenError, match=r"^rolf.json: special: 100,001 characters, over 100,000$"):
        imported([{"name": "special", "current": "x" * (MAX_TEXT + 1)}])


def test_a_character_as_it_stands_is_played_on(tables: Tables) -> None:
    """12, 17, 87 after an import: the ledger starts from the bank and total as they stand, and a raise
    moves the characteristic as it stands and what reads it."""
    imported = api.imported_file(json.dumps(_rolf_sheet(tables)), "rolf.json", tables=tables)
    before = api.build(imported, "rolf.yaml", tables=tables)
    assert before.standing is not None
    strength = before.characteristics.PS
    ledger = "advancement:\n  - {award: 500, note: Adventure 1}\n"
    ledger += f"  - {{raise: PS, to: {strength + 1}, cost: 100, note: Adventure 2}}\n"
    ledger += "  - {raise: Broadsword, to: 4, cost: 50}\n"
    after = api.build(imported + ledger, "rolf.yaml", tables=tables)
    assert after.characteristics.PS - strength == 1
    sword, raised = before.combat.weapons[0], after.combat.weapons[0]
    assert (sword.name, sword.rank, raised.rank) == ("broadsword", 3, 4)
    assert raised.strike_chance > sword.strike_chance
    assert (after.experience_bank, after.experience_total) == (
        (before.experience_bank or 0) + 350,
        (before.experience_total or 0) + 500,
    )
    (explained,) = api.explain(imported + ledger, "rolf.yaml", ["PS"], tables=tables)
    assert explained.lines()[1:] == [
        f"  standing {strength}: the file's, its creation unknown",
        f"  raised 1: to {strength + 1} — Adventure 2 (17, 87)",
    ]
    no_bank = imported.replace("  experience_bank: 120\n", "")
    with pytest.raises(
        ChargenError, match=r"standing.experience_bank: the ledger adds to and spends from the bank"
    ):
        api.build(no_bank + ledger, "rolf.yaml", tables=tables)


def test_a_bank_and_total_unknown_as_it_stands_are_left_out_of_the_exports(tables: Tables) -> None:
    """What the file does not say is not made up: no `exp` for the sheet (its own default), no bank and no
    Experience for Foundry; and the Roll20 file imports back with the bank still unknown."""
    standing = "standing: {characteristics: {PS: 15, MD: 15, AG: 15, EN: 15, MA: 15, WP: 15, FT: 15, PC: 5},"
    text = f"name: X\ngender: male\nrace: human\nhand: right\n{standing} silver_pennies: 3}}\n"
    character = api.build(text, "x.yaml", tables=tables)
    plain, _ = attribs(character, tables)
    assert "exp" not in plain and "exptot" not in plain
    derived = export_document(character, tables, "foundry")["system"]["attributes"]["derived"]
    assert "experience_bank" not in derived and "experience_points" not in derived
    back = api.import_roll20(
        json.dumps(export_document(character, tables, "roll20")), "x.json", tables=tables
    )
    assert (back.character.experience_bank, back.character.experience_total) == (None, None)
