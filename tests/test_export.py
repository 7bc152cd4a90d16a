"""chargen export: the Roll20 DragonQuest sheet's character and the Foundry VTT Simple
Worldbuilding actor, checked against the targets' names (tables/export_*.yaml, read from their sources)
and against the JSON Schemas shipped with chargen."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from chargen import api
from chargen.cli import cli
from chargen.export import export_document, export_json, schema
from chargen.export.targets import foundry_names, roll20_names
from chargen.model import Character, WeaponLine
from chargen.render import lookup
from chargen.tables import Tables

EXAMPLES = Path(__file__).resolve().parent / "examples"
#: A caster's character file (a batch adept's: a college, a talent the race grants, spells).
CASTER = Path(__file__).resolve().parent / "render_fixtures" / "caster.yaml"
#: A repeating row's attribute: the row id as Roll20 keeps it in names (lower case, never "_").
ROW = re.compile(r"^repeating_([a-z]+)_(-[0-9a-z]{19})_(.+)$")


def characters(tables: Tables) -> list[Character]:
    """A character of every race (chargen.api.roll), and a caster (a batch adept's character file)."""
    rolled = [api.roll(seed=40 + index, race=race, tables=tables) for index, race in enumerate(tables.races)]
    text = (CASTER).read_text(encoding="utf-8")
    return [*rolled, api.build(text, "caster.yaml", tables=tables)]


def attribs(
    character: Character, tables: Tables
) -> tuple[dict[str, str], dict[str, dict[str, dict[str, str]]]]:
    """The Roll20 export's plain attributes by name, and its repeating rows: section -> row id -> fields."""
    document = export_document(character, tables, "roll20")
    plain: dict[str, str] = {}
    rows: dict[str, dict[str, dict[str, str]]] = {}
    for attribute in document["character"]["attribs"]:
        match = ROW.match(attribute["name"])
        if match:
            section, row, name = match.groups()
            rows.setdefault(section, {}).setdefault(row, {})[name] = attribute["current"]
        else:
            plain[attribute["name"]] = attribute["current"]
    return plain, rows


def test_every_race_and_a_caster_carry_each_input_of_the_dragonquest_sheet(tables: Tables) -> None:
    names = roll20_names()
    everyone = characters(tables)
    assert {character.race for character in everyone} == set(tables.races)
    assert any(character.college and character.spells for character in everyone)
    assert any(character.combat.shield for character in everyone)
    assert any(character.combat.armor for character in everyone)
    assert any(line.rank is None for character in everyone for line in character.combat.weapons)
    always = {
        *names.inputs["characteristics"],
        *names.inputs["money"],
        *names.inputs["experience"],
        *names.inputs["other"],
        *(set(names.inputs["description"]) - {"order", "height", "weight", "age", "pb"}),
    }
    for character in everyone:
        plain, rows = attribs(character, tables)
        assert always <= set(plain), (character.race, always - set(plain))
        _check_values(character, tables, plain, rows)


def _check_values(
    character: Character, tables: Tables, plain: dict[str, str], rows: dict[str, dict[str, dict[str, str]]]
) -> None:
    names = roll20_names()
    values = character.characteristics
    for code in ("PS", "MD", "AG", "MA", "WP", "PC"):
        assert plain[code.lower()] == str(values.get(code))
    assert (plain["en"], plain["encurr"], plain["ft"], plain["ftcurr"]) == (str(values.EN),) * 2 + (
        str(values.FT),
    ) * 2
    assert plain["sp"] == str(character.silver_pennies)
    bank = character.experience_points if character.experience_bank is None else character.experience_bank
    assert (plain["exp"], plain["exptot"]) == (str(bank), str(character.experience_points))
    assert plain["gender"] == lookup.gender_name(tables, character.gender)
    assert plain["hand"] == lookup.hand_name(tables, character.hand)
    assert plain["race"].startswith(tables.races[character.race].name)
    assert plain["aspect"] == names.aspect[character.aspect]
    assert plain["status"] == names.status[character.heritage.social_status]
    assert plain["legit"] == names.legit[character.heritage.birth_order]
    tmr = character.modifiers.get("TMR")
    assert plain["tmrracemod"] == str(tmr.race + tmr.gender if tmr else 0)
    weapons = list(rows.get("weapon", {}).values())
    assert [row["name"] for row in weapons] == [
        tables.weapons[line.name].name for line in character.combat.weapons
    ]
    for row, line in zip(weapons, character.combat.weapons, strict=True):
        _check_weapon_row(row, line, tables)
    _check_armor_and_shield(character, tables, rows)
    colleges = [row["college"] for row in rows.get("college", {}).values()]
    assert bool(colleges) == bool(character.college)
    spells = {row["name"]: row.get("rank") for row in rows.get("spell", {}).values()}
    for spell in character.spells:
        assert spells[tables.abilities.magic.entries[spell.name].name] == str(spell.rank)
    skills = {row["notes"]: row["rank"] for row in rows.get("skill", {}).values()}
    for skill in character.skills:
        assert skills[tables.abilities.skills[skill.name].name] == str(skill.rank)
    assert len(skills) == len(character.skills) + len(character.languages)


def _check_weapon_row(row: dict[str, str], line: WeaponLine, tables: Tables) -> None:
    """Each field of a weapon row is the weapon's own (its minimums, not the character's PS or MD)."""
    entry = tables.weapons[line.name]
    assert row["rank"] == ("" if line.rank is None else str(line.rank))
    expected = {
        "base": entry.base_chance,
        "cl": entry.damage_class or "-",
        "ps": entry.ps,
        "md": entry.md,
        "rankmax": entry.max_rank,
        "dm": line.damage_modifier,
        "sc": line.strike_chance,
        "iv": line.initiative,
    }
    for name, value in expected.items():
        assert row.get(name) == (None if value is None else str(value)), (line.name, name)
    assert float(row["wgt"]) == entry.weight
    assert f"Damage {line.damage}" in row["notes"]


def _check_armor_and_shield(
    character: Character, tables: Tables, rows: dict[str, dict[str, dict[str, str]]]
) -> None:
    """The armor's Protection and Agility loss and the shield's Defense per Rank and MD loss, as the
    sheet takes them (losses negative), each the record's."""
    armor, shield = character.combat.armor, character.combat.shield
    armours = list(rows.get("armour", {}).values())
    if armor is None:
        assert not armours
    else:
        (row,) = armours
        assert row["type"] == tables.armor[armor.name].name
        assert (row["pro"], row["ag"], row["sth"]) == (
            str(armor.protection),
            str(-armor.agility_loss),
            str(armor.stealth_adjustment),
        )
        assert row["equip"] == "on" and float(row["wgt"]) == armor.weight
    shields = list(rows.get("shield", {}).values())
    if shield is None:
        assert not shields
    else:
        (row,) = shields
        assert row["type"] == tables.shields[shield.name].name
        assert (row["dfpr"], row["md"], row["rank"]) == (
            str(shield.defense_per_rank),
            str(-shield.manual_dexterity_loss),
            str(shield.rank or 0),
        )
        assert row["df"] == str(shield.defense_per_rank * (shield.rank or 0))


def test_the_roll20_export_writes_only_what_the_sheet_takes(tables: Tables) -> None:
    names = roll20_names()
    inputs = {name for section in names.inputs.values() for name in section}
    for character in characters(tables):
        plain, rows = attribs(character, tables)
        orders = {f"_reporder_repeating_{section}" for section in rows}  # Roll20's own, one per section
        assert set(plain) <= inputs | set(names.computed) | orders, set(plain) - inputs
        for section, found in rows.items():
            declared = set(names.repeating[section]) | set(names.computed_rows.get(section, []))
            for row in found.values():
                assert set(row) <= declared, (section, set(row) - declared)
        assert plain["version"] == names.source.version  # the sheet's own update is not run again


def test_ids_are_stable_for_the_same_character_and_new_for_another(tables: Tables) -> None:
    one, again, other = (api.roll(seed=seed, tables=tables) for seed in (7, 7, 8))
    for fmt in ("roll20", "foundry"):
        assert export_json(one, tables, fmt) == export_json(again, tables, fmt)
    first, second = export_document(one, tables, "roll20"), export_document(other, tables, "roll20")
    ids = [attribute["id"] for attribute in first["character"]["attribs"]]
    assert len(ids) == len(set(ids))
    assert not set(ids) & {attribute["id"] for attribute in second["character"]["attribs"]}
    assert export_document(one, tables, "foundry")["_id"] != export_document(other, tables, "foundry")["_id"]


@pytest.mark.parametrize("fmt", ["roll20", "foundry"])
def test_the_exports_validate_against_their_schemas(fmt: str, tables: Tables) -> None:
    validator = jsonschema.Draft202012Validator(schema(fmt))
    validator.check_schema(schema(fmt))
    for character in characters(tables):
        validator.validate(export_document(character, tables, fmt))
    broken = export_document(characters(tables)[0], tables, fmt)
    if fmt == "roll20":
        broken["character"]["attribs"][0]["name"] = "repeating_weapon_xyz_name"
    else:
        broken["system"]["attributes"]["characteristics"]["ps"]["dtype"] = "Integer"
    assert not validator.is_valid(broken)


def test_the_foundry_actor_has_the_simple_worldbuilding_shape(tables: Tables) -> None:
    dtypes = set(foundry_names().dtypes)
    for character in characters(tables):
        actor: dict[str, Any] = export_document(character, tables, "foundry")
        system = actor["system"]
        assert set(system["groups"]) == set(system["attributes"]) == set(foundry_names().groups)
        keys = [key for group in system["attributes"].values() for key in group]
        assert not set(keys) & set(system["groups"])  # a group's key is never an attribute's (helper.js)
        for group, entries in system["attributes"].items():
            for key, entry in entries.items():
                assert not re.search(r"[\s.]", key)
                assert entry["group"] == group and entry["dtype"] in dtypes
        characteristics = system["attributes"]["characteristics"]
        for code, value in character.characteristics.items():
            assert characteristics[code.lower()]["value"] == value
        assert system["health"] == {
            "value": character.characteristics.EN,
            "min": 0,
            "max": character.characteristics.EN,
        }
        weapons = system["attributes"]["weapons"]
        assert len([key for key in weapons if key.endswith("_strike")]) == len(character.combat.weapons) + 1
        race = tables.races[character.race]
        for ability in race.abilities:
            assert _html_text(ability) in system["biography"]
        assert "Aspect:" in system["biography"]


def _html_text(text: str) -> str:
    from html import escape

    return escape(text)


def test_export_command_writes_one_json_per_character(tmp_path: Path) -> None:
    runner = CliRunner()
    rolf, caster = str(EXAMPLES / "rolf.yaml"), str(CASTER)
    result = runner.invoke(cli, ["export", rolf, "--to", "foundry"])
    assert result.exit_code == 0
    assert json.loads(result.output)["name"] == "Rolf the Barbarian"
    result = runner.invoke(cli, ["export", rolf, caster, "--to", "roll20", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["caster.json", "rolf.json"]
    assert json.loads((tmp_path / "rolf.json").read_text())["type"] == "character"
    refused = runner.invoke(cli, ["export", rolf, caster, "--to", "roll20"])
    assert refused.exit_code != 0 and "folder" in str(refused.exception or refused.output)


def test_batch_export_writes_a_json_per_npc(tmp_path: Path) -> None:
    folder = tmp_path / "vtt"
    result = CliRunner().invoke(
        cli, ["batch", "-n", "3", "--seed", "2", "--export", "foundry", str(folder), "-q"]
    )
    assert result.exit_code == 0, result.output
    files = sorted(folder.iterdir())
    assert [path.name[:2] for path in files] == ["1-", "2-", "3-"]
    validator = jsonschema.Draft202012Validator(schema("foundry"))
    for path in files:
        validator.validate(json.loads(path.read_text(encoding="utf-8")))


def test_batch_refuses_an_unknown_format_or_a_full_folder(tmp_path: Path) -> None:
    from chargen.batch import BatchOptions, run_batch
    from chargen.errors import InputError

    with pytest.raises(InputError, match="--export: must be roll20 or foundry"):
        run_batch(BatchOptions(count=1, export="vassal", export_dir=str(tmp_path / "new")))
    (tmp_path / "kept.txt").write_text("mine")
    with pytest.raises(InputError, match=r"--export: folder .* is not empty"):
        run_batch(BatchOptions(count=1, export="roll20", export_dir=str(tmp_path)))
    assert [path.name for path in tmp_path.iterdir()] == ["kept.txt"]


def test_each_foundry_actor_fits_the_systems_template_and_says_who_it_is(tables: Tables) -> None:
    """template.json at its pinned commit (tests/consumers/worldbuilding.py): the actor's type and each
    `system` key; and the college, armor, shield, gender and a token named for the character."""
    from tests.consumers import worldbuilding

    for character in characters(tables):
        actor = export_document(character, tables, "foundry")
        assert actor["type"] in worldbuilding.ACTOR_TYPES
        system = actor["system"]
        assert isinstance(system, dict)
        for key, kind in worldbuilding.CHARACTER_SYSTEM.items():
            assert isinstance(system[key], kind), key
        for bar in ("health", "power"):
            assert set(system[bar]) == set(worldbuilding.RESOURCE_KEYS)  # type: ignore[arg-type]
        token = actor["prototypeToken"]
        assert isinstance(token, dict) and token["name"] == character.name
        who = system["attributes"]["identity"]  # type: ignore[call-overload,index]
        assert who["gender"]["value"] == lookup.gender_name(tables, character.gender)
        armor, shield = character.combat.armor, character.combat.shield
        assert who.get("armor", {}).get("value") == (tables.armor[armor.name].name if armor else None)
        assert who.get("shield", {}).get("value") == (tables.shields[shield.name].name if shield else None)
        college = character.college and tables.abilities.colleges[character.college].name
        assert who.get("college", {}).get("value") == (college or None)
        weapons = system["attributes"]["weapons"]  # type: ignore[call-overload,index]
        for line, key in zip(
            character.combat.weapons, [k for k in weapons if k.endswith("_strike")], strict=False
        ):
            assert weapons[key]["value"] == line.strike_chance
            roll = weapons[key + "_roll"]
            assert (roll["dtype"], roll["value"]) == ("Formula", f"1d100cs<={line.strike_chance}")
        assert export_document(character, tables, "foundry") == actor  # the same ids every time
