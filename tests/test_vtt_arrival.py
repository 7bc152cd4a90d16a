"""The tabletop exports over 200 characters (150 batch NPCs of every archetype, 50 rolled player
characters): Roll20's repeating rows in the record's order, every text safe from Roll20's roll syntax;
Foundry actors with one Item per weapon, armor, shield and piece of equipment, NPC tokens unlinked and
player characters' linked, the Who box in the biography, and the record's Experience bank."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from chargen import api
from chargen.cli import cli
from chargen.export import export_document
from chargen.export.roll20 import ROLL_SYNTAX
from chargen.model import Character, to_document
from chargen.render import lookup
from chargen.render.build import build_sheet
from chargen.tables import Tables
from tests.consumers import worldbuilding
from tests.test_export import ROW

CASTER = Path(__file__).resolve().parent / "render_fixtures" / "caster.yaml"
#: The reproduction's spell name: rows and rolls of its own on the chat card, were it written as it is.
HOSTILE = "Glamour }} {{SC=[[99*9]]}} {{D100=[[1d1]]"


@pytest.fixture(scope="module")
def everyone(tables: Tables, tmp_path_factory: pytest.TempPathFactory) -> list[Character]:
    folder = tmp_path_factory.mktemp("arrival") / "npcs"
    result = CliRunner().invoke(cli, ["batch", "-n", "150", "--seed", "46", "--out", str(folder), "-q"])
    assert result.exit_code == 0, result.output
    npcs = [
        api.build(path.read_text(encoding="utf-8"), path.name, tables=tables)
        for path in sorted(folder.iterdir())
    ]
    rolled = [api.roll(seed=seed, tables=tables) for seed in range(1, 50)]
    return [*npcs, *rolled, _with_equipment(api.roll(seed=50, tables=tables), tables)]


def _with_equipment(character: Character, tables: Tables) -> Character:
    """The character file with equipment the player entered (rolled and batch characters carry none)."""
    document = to_document(character)
    document["equipment"] = [
        {"name": "Rope, 50 feet", "weight": 5},
        {"name": "Torch", "weight": 1, "count": 3},
    ]
    return api.build(yaml.safe_dump(document, sort_keys=False), "kit.yaml", tables=tables)


@pytest.mark.slow
def test_the_200_are_a_mix(everyone: list[Character]) -> None:
    assert len(everyone) == 200
    assert sum(1 for c in everyone if c.equipment_given) == 150  # a GM's NPC: its kit given
    assert sum(1 for c in everyone if len(c.combat.weapons) > 2) > 20
    assert any(c.combat.shield for c in everyone) and any(c.spells for c in everyone)
    assert any(c.equipment for c in everyone)


def _roll20(character: Character, tables: Tables) -> list[tuple[str, str]]:
    body = export_document(character, tables, "roll20")["character"]
    assert isinstance(body, dict) and isinstance(body["attribs"], list)
    return [(str(row["name"]), str(row["current"])) for row in body["attribs"]]  # type: ignore[index,call-overload]


@pytest.mark.slow
def test_roll20_rows_come_in_the_records_order(everyone: list[Character], tables: Tables) -> None:
    for character in everyone:
        attribs = _roll20(character, tables)
        ids: dict[str, list[str]] = {}
        names: dict[str, str] = {}
        for name, value in attribs:
            match = ROW.match(name)
            if match and match[2] not in ids.setdefault(match[1], []):
                ids[match[1]].append(match[2])
            if match and match[3] == "name":
                names[match[2]] = value
        orders = {
            name.removeprefix("_reporder_repeating_"): value
            for name, value in attribs
            if name.startswith("_reporder_")
        }
        assert {section: order.split(",") for section, order in orders.items()} == ids, character.name
        weapons = [names[row] for row in orders.get("weapon", "").split(",") if row]
        assert weapons == [lookup.weapon(tables, line.name, "").name for line in character.combat.weapons]


def _foundry(character: Character, tables: Tables) -> dict[str, Any]:
    actor = export_document(character, tables, "foundry")
    assert isinstance(actor, dict)
    return actor


def _items(actor: dict[str, Any], kind: str) -> list[str]:
    return [item["name"] for item in actor["items"] if item["system"]["groups"].get(kind)]


@pytest.mark.slow
def test_foundry_actors_carry_an_item_per_weapon_armor_shield_and_equipment(
    everyone: list[Character], tables: Tables
) -> None:
    for character in everyone:
        actor = _foundry(character, tables)
        combat = character.combat
        assert _items(actor, "weapon") == [
            lookup.weapon(tables, line.name, "").name for line in combat.weapons
        ]
        assert _items(actor, "armor") == ([tables.armor[combat.armor.name].name] if combat.armor else [])
        assert _items(actor, "shield") == ([tables.shields[combat.shield.name].name] if combat.shield else [])
        assert _items(actor, "equipment") == [gear.name for gear in character.equipment]
        assert len(_items(actor, "skill")) == len(character.skills)
        assert len(_items(actor, "language")) == len(character.languages)
        for item in actor["items"]:
            assert item["type"] in worldbuilding.ITEM_TYPES
            for key, kind in worldbuilding.ITEM_SYSTEM.items():
                assert isinstance(item["system"][key], kind), key  # type: ignore[arg-type]
        for item, line in zip(
            [i for i in actor["items"] if i["system"]["groups"].get("weapon")], combat.weapons, strict=True
        ):
            values = item["system"]["attributes"]["weapon"]
            assert values["strike_chance"]["value"] == line.strike_chance
            assert values["strike_roll"]["value"] == f"1d100cs<={line.strike_chance}"
            assert values["initiative"]["value"] == line.initiative


@pytest.mark.slow
def test_npc_tokens_are_unlinked_and_player_characters_linked(
    everyone: list[Character], tables: Tables
) -> None:
    links = [_foundry(character, tables)["prototypeToken"]["actorLink"] for character in everyone]
    assert links == [not character.equipment_given for character in everyone]
    assert links.count(True) == 50 and links.count(False) == 150


@pytest.mark.slow
def test_the_biography_says_what_the_who_box_says(everyone: list[Character], tables: Tables) -> None:
    for character in everyone:
        biography = _foundry(character, tables)["system"]["biography"]
        record = build_sheet(character, tables, "test")
        for item in record.identity:
            assert f"<li>{item.label}: " in biography, (character.name, item.label)
        status = lookup.social_status_name(tables, character.heritage.social_status)
        assert f"Social status: {status}" in biography.replace("&#x27;", "'")
        assert "Order of birth: " in biography and f"starting age {record.starting_age}" in biography


@pytest.mark.slow
def test_the_experience_bank_is_the_records(everyone: list[Character], tables: Tables) -> None:
    for character in everyone:
        derived = _foundry(character, tables)["system"]["attributes"]["derived"]
        record = build_sheet(character, tables, "test")
        (bank,) = [item.value for item in record.experience if item.label == "Experience Point Bank"]
        assert str(derived["experience_bank"]["value"]) == bank.replace(",", ""), character.name


def test_unarmed_combat_is_labelled_with_its_own_rule(tables: Tables) -> None:
    weapons = _foundry(api.roll(seed=3, tables=tables), tables)["system"]["attributes"]["weapons"]
    assert weapons["unarmed_damage"]["label"].endswith("(21)")
    assert all(
        entry["label"].endswith("(20.2)")
        for key, entry in weapons.items()
        if key.endswith("_damage") and key != "unarmed_damage"
    )


def test_roll20_text_cannot_open_a_roll_template_row_or_roll(tables: Tables) -> None:
    """The reproduction: a spell so named, a possession and notes the same, and the name."""
    document = yaml.safe_load(CASTER.read_text(encoding="utf-8"))
    document["name"] = f"Fingon {HOSTILE}"
    document["spells"][1]["name"] = HOSTILE
    document["notes"] = [f"Owes @{{ps}} %{{macro}} &{{template:default}} {HOSTILE}"]
    character = api.build(yaml.safe_dump(document), "hostile.yaml", tables=tables)
    body = export_document(character, tables, "roll20")["character"]
    assert isinstance(body, dict)
    texts = [str(row["current"]) for row in body["attribs"]] + [str(body["name"])]  # type: ignore[index,union-attr]
    for text in texts:
        assert not any(pair in text for pair in ROLL_SYNTAX), text
    spell_names = [text for text in texts if text.startswith("Glamour")]
    assert spell_names and all(text.replace(" ", "") == HOSTILE.replace(" ", "") for text in spell_names)
    assert any("Owes @ {ps} % {macro} & {template:default}" in text for text in texts)
