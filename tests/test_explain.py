"""Every number explains itself: each derived value's working, evaluated again through the very formula
objects on the inputs it states, gives the value the character carries (and so the record prints)."""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.character_file import dump_document
from chargen.cli import cli
from chargen.errors import ChargenError
from chargen.model import Character
from chargen.rules.combat import damage_text
from chargen.rules.working import Node, Working
from chargen.tables import Tables, load_tables
from chargen.values.evaluation import evaluate
from tests.test_book_examples import CLOUD_GIANT, FIVE_TWO_EXAMPLE, MOUSER
from tests.test_hostile_yaml import chargen, one_line_exit_2

EXAMPLES = Path(__file__).parent / "examples"


def printed(character: Character, node: Node) -> object:
    """The value at a working's node of the graph, read from the Character as the record reads it."""
    combat = character.combat
    if node.row is not None:  # a weapon line, by its place among the weapons
        return getattr(combat.weapons[node.row], node.name)
    if node.row_key == "characteristics":
        return character.characteristics.get(node.name)
    if node.row_key == "unarmed":
        return getattr(combat.unarmed, node.name) if node.name != "base_chance" else None
    if node.row_key == "defense_postures":
        return (combat.defense_postures or {})[node.name]
    if node.row_key == "combat":
        return combat.tmr
    if node.name == "tmr":
        return character.tmr
    if node.name in (combat.values or {}):
        return (combat.values or {})[node.name]
    return getattr(combat, node.name)


def check(character: Character, tables: Tables) -> int:
    """Each working of `character` against the value it carries; the number of values checked."""
    found = evaluate(character, tables).values
    for working in found:
        again = working.recomputed()
        value = printed(character, working.node)
        if working.override is not None:  # the GM's value printed, the rules' own kept beside it
            assert (again, working.value) == (working.override.computed, value), (character.name, working.key)
        elif working.shown:  # a damage: the modifier the formula gives, as the record writes it
            assert damage_text(again) == value == working.shown, (character.name, working.key)
        elif value is not None or working.key != "unarmed.base_chance":
            assert again == value, (character.name, working.key, working.lines())
    return len(found)


def npcs(tables: Tables, count: int) -> list[Character]:
    """`count` NPCs, every archetype with every race in turn, each given its kit and abilities."""
    archetypes, races = itertools.cycle(sorted(tables.archetypes)), itertools.cycle(sorted(tables.races))
    return [
        api.roll(seed=seed, archetype=next(archetypes), race=next(races), equip="give", tables=tables)
        for seed in range(200, 200 + count)
    ]


@pytest.mark.parametrize("rules", [(), ("house-combat",)], ids=["book", "house-combat"])
def test_every_working_of_200_npcs_gives_the_value_printed(rules: tuple[str, ...]) -> None:
    tables = load_tables(None, list(rules))
    characters = npcs(tables, 200)
    assert {c.race for c in characters} == set(tables.races)
    assert {c.archetype for c in characters} == set(tables.archetypes)
    checked = sum(check(character, tables) for character in characters)
    assert checked > 200 * 25


def test_a_wrong_input_is_caught(tables: Tables) -> None:
    # The check re-evaluates: a working whose stated input were off would not give the printed value.
    character = npcs(tables, 1)[0]
    defense = next(item for item in evaluate(character, tables).values if item.key == "defense")
    terms = (defense.terms[0].__class__("modified_agility", (defense.terms[0].value or 0) + 1),)
    wrong = Working(**{**_fields(defense), "terms": terms + defense.terms[1:]})
    assert wrong.recomputed() != character.combat.defense


def _fields(working: Working) -> dict[str, object]:
    return {name: getattr(working, name) for name in working.__dataclass_fields__}


def explain(tmp_path: Path, text: str, *values: str) -> str:
    """`chargen explain FILE VALUES...` on `text`, its standard output (exit 0 checked)."""
    (tmp_path / "character.yaml").write_text(text, encoding="utf-8")
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, ["explain", "character.yaml", *values])
    assert result.exit_code == 0, result.output
    return result.output


def test_17_6_the_mousers_defense_is_the_books_arithmetic(tmp_path: Path) -> None:
    # 17.6: "The Mouser's Defense Rating is [18 + (2 x 2%)] = 22%".
    assert explain(tmp_path, MOUSER, "defense") == (
        "Defense 22 = 18 + 2 \u00d7 2 (17.5)\n"
        "  formula: modified agility + shield defense per rank \u00d7 shield rank\n"
        "  modified agility 18: Agility 18 (no armor)\n"
        "  shield defense per rank 2: Main-Gauche (17.5)\n"
        "  shield rank 2: Rank with the Main-Gauche\n"
        "  held: the Main-Gauche as weapon and shield at once (17.5's note)\n"
    )


def test_17_6_rolfs_strike_chance_is_the_books_arithmetic(tmp_path: Path) -> None:
    # 17.6: "Rolf's Strike Chance is [55 + 15 + (3 x 4%)] = 82%".
    rolf = MOUSER.replace("The White Mouser", "Rolf").replace(
        "{PS: 12, MD: 18, AG: 18, EN: 14, MA: 8, WP: 14}", "{PS: 20, MD: 15, AG: 13, EN: 20, MA: 5, WP: 15}"
    )
    rolf = rolf.replace("main-gauche, rank: 2", "broadsword, rank: 3")
    assert explain(tmp_path, rolf, "weapons.broadsword.strike_chance") == (
        "Broadsword Strike Chance 82 = 55 + 15 + 4 \u00d7 3 (17.1)\n"
        "  formula: base \u2212 5 \u00d7 md short + modified md + 4 \u00d7 rank\n"
        "  base 55: the Broadsword's Base Chance (20.2)\n"
        "  modified md 15: Manual Dexterity 15 (no shield)\n"
        "  md short 0: points of modified MD below md_minimum (0 when not short)\n"
        "  rank 3: Rank 3\n"
    )


def test_14_1_the_cloud_giants_tmr_is_the_books_arithmetic(tmp_path: Path) -> None:
    # 14.1: "a Cloud Giant with a modified Agility of 19 has a TMR of 14 (average TMR of 13 + 1 for
    # Agility = 14)".
    assert explain(tmp_path, CLOUD_GIANT, "tmr") == (
        "TMR unarmored 14 = 13 + 1 (5.6, 14.1)\n"
        "  average 13: the Cloud (Air) giant's average TMR (14.1)\n"
        "  agility 1: 5.6's chart at Agility 19 reads 6: + 1 on the human average 5\n"
    ) * 1 + (
        "TMR armored 14 = 13 + 1 (5.6, 14.1)\n"
        "  average 13: the Cloud (Air) giant's average TMR (14.1)\n"
        "  agility 1: 5.6's chart at Agility 19 reads 6: + 1 on the human average 5\n"
    )


def test_5_2_the_examples_characteristics_are_their_allocation(tmp_path: Path) -> None:
    # 5.2's example, two points fewer (the book's adds up to 90): PS 23 as allocated; 5.3 reads Fatigue
    # 22 at Endurance 22; Perception starts at 8 (5.4).
    corrected = FIVE_TWO_EXAMPLE.replace("MD: 9, AG: 9", "MD: 8, AG: 8") + "rolls: {points: 9}\n"
    assert explain(tmp_path, corrected, "PS", "FT", "PC") == (
        "PS 23 (5.2, 6.1)\n"
        "  allocated 23: 5.2's allocation\n"
        "FT 22 (5.3)\n"
        "  chart 22: 5.3's chart at Endurance 22\n"
        "PC 8 (5.4)\n"
        "  base 8: 5.4's starting Perception\n"
    )


def test_rolf_full_defense(tmp_path: Path) -> None:
    # The README's Rolf: Leather (18.1: Agility -1) and the Large Round Shield at Rank 3 (4 per Rank).
    text = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8")
    full = api.build(text, "rolf.yaml")
    assert explain(tmp_path, dump_document(full, "yaml"), "defense") == (
        "Defense 24 = 12 + 4 \u00d7 3 (17.5)\n"
        "  formula: modified agility + shield defense per rank \u00d7 shield rank\n"
        "  modified agility 12: Agility 13 (Leather's \u22121, 18.1)\n"
        "  shield defense per rank 4: Large Round Shield (17.5)\n"
        "  shield rank 3: Rank with the Large Round Shield\n"
        "  held: with the Large Round Shield prepared (17.5)\n"
    )


def test_a_name_no_value_has_is_one_line_with_the_nearest(tmp_path: Path) -> None:
    (tmp_path / "mouser.yaml").write_text(MOUSER, encoding="utf-8")
    result = chargen(["explain", "mouser.yaml", "defence"], cwd=tmp_path)
    one_line_exit_2(result, "explain: 'defence' is not a value chargen works out; did you mean 'defense'?")


def test_json_gives_each_working_for_scripts(tmp_path: Path) -> None:
    (tmp_path / "mouser.yaml").write_text(MOUSER, encoding="utf-8")
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, ["explain", "mouser.yaml", "defense", "--format", "json"])
    (defense,) = json.loads(result.output)
    assert (defense["value"], defense["arithmetic"], defense["rule"]) == (22, "18 + 2 \u00d7 2 = 22", "17.5")
    assert [item["name"] for item in defense["inputs"]] == [
        "modified_agility",
        "shield_defense_per_rank",
        "shield_rank",
    ]


def test_a_ruled_value_keeps_the_rules_working_and_what_depends_on_it_follows() -> None:
    # house-combat's sprinting TMR (floor(TMR x 1.5)) is worked from the GM's armored TMR.
    tables = load_tables(None, ["house-combat"])
    ruled = """
overrides:
  combat.tmr: {value: 9, reason: fleet of foot}
  weapons.broadsword.initiative: {value: 30, reason: a drawn blade}
"""
    text = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8") + ruled
    character = api.build(text, "rolf.yaml", tables=tables)
    assert (character.combat.tmr, (character.combat.values or {}).get("sprint_tmr")) == (9, 13)
    assert character.combat.weapons[0].initiative == 30
    assert check(character, tables) > 25
    found = {item.key: item for item in evaluate(character, tables).values}
    assert found["combat.tmr"].lines()[0] == "TMR armored 9 (the GM's: fleet of foot); the rules give 4 (5.6)"
    assert found["sprint_tmr"].arithmetic() == "floor(9 \u00d7 1.5) = 13"


def test_a_ruled_experience_bank_that_the_file_leaves_unset_keeps_the_rules_bank() -> None:
    # nothing bought (8.6): the rules leave every Experience Point in the bank, as the record shows it
    plain = "name: Test\nseed: 3\narchetype: fighter\n"  # a fighter buys no skill with the seed's dice
    text = plain + "overrides:\n  experience_bank: {value: 50, reason: a gift}\n"
    unruled = api.build(plain, "test.yaml")
    assert unruled.experience_bank is None
    ruled = api.build(text, "test.yaml")
    assert ruled.overrides["experience_bank"].computed == unruled.experience_points
    _, notes = api.checked(text, "test.yaml")
    assert notes and f"in place of the rules' {unruled.experience_points}:" in notes[0]


def test_a_misspelt_override_key_is_told_the_name_it_is_near() -> None:
    text = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8")
    with pytest.raises(ChargenError) as refused:
        api.build(text + "overrides:\n  defence: {value: 12, reason: house}\n", "rolf.yaml")
    assert "overrides.defence: is not a value chargen works out; did you mean 'defense'?" in str(
        refused.value
    )
