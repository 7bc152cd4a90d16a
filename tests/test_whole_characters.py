"""One whole character whichever way it is made. `roll`, `build` of a partial file and
`batch` make the same kinds of choices for an archetype (a kit within the purse, a college and magic for
casters, 8.6 skills where the Experience allows), and the file carries what the record shows from the race
table (the starting age, the racial talents) and its JSON Schema names them."""

from __future__ import annotations

import json
import subprocess
import sys

from chargen import api
from chargen.tables import Tables

CHARGEN = [sys.executable, "-m", "chargen"]


def test_build_of_a_partial_file_buys_a_kit_within_the_purse_as_roll_does(tables: Tables) -> None:
    # `printf 'seed: 3\narchetype: fighter\n' | chargen build -` bought nothing (280 Silver Pennies unspent).
    built = subprocess.run(
        [*CHARGEN, "build", "-", "--format", "json"],
        input="seed: 3\narchetype: fighter\n",
        capture_output=True,
        text=True,
        check=True,
    )
    document = json.loads(built.stdout)
    assert document["weapons"] and document["armor"]
    assert 0 <= document["silver_pennies"] < document["starting_silver"]
    rolled = api.roll(seed=3, archetype="fighter", tables=tables)
    assert [item.name for item in rolled.weapons] == [item["name"] for item in document["weapons"]]
    assert rolled.silver_pennies == document["silver_pennies"]


def test_a_file_that_says_its_equipment_was_given_buys_nothing(tables: Tables) -> None:
    made = api.build("seed: 3\narchetype: fighter\nequipment_given: true\n", tables=tables)
    assert not made.weapons and made.armor is None and made.silver_pennies == made.starting_silver


def test_a_rolled_elf_adept_has_a_college_magic_skills_and_witchsight(tables: Tables) -> None:
    # `chargen roll --archetype adept --race elf` had no college, no magic, no Witchsight, no skill bought.
    for seed in range(12):
        elf = api.roll(seed=seed, archetype="adept", race="elf", tables=tables)
        assert elf.college in tables.abilities.colleges
        assert any(spell.kind in ("talent", "spell") for spell in elf.spells)
        assert elf.racial_talents == ["witchsight"]
        assert elf.starting_age == tables.races["elf"].starting_age
        assert elf.life_span == tables.races["elf"].life_span
        assert elf.abilities_given is None  # bought (8.6), not given
        assert elf.experience_bank is not None and 0 <= elf.experience_bank <= elf.experience_points
        if elf.experience_points >= 100:  # 8.6: any one skill at Rank 0 for 100 Experience Points
            assert [(skill.name, skill.rank) for skill in elf.skills] == [("alchemist", 0)]
        else:
            assert not elf.skills


def test_a_rolled_file_rebuilds_to_itself_and_validates(tables: Tables) -> None:
    from chargen.character_file import dump_document

    for seed in (1, 5, 42):
        rolled = api.roll(seed=seed, archetype="adept", race="elf", tables=tables)
        text = dump_document(rolled, "yaml")
        assert dump_document(api.build(text, tables=tables), "yaml") == text
        assert api.validate(text, tables=tables) == []
        stale = text.replace("racial_talents: [witchsight]", "racial_talents: [glamour]")
        assert any("racial_talents" in problem for problem in api.validate(stale, tables=tables))


def test_roll_and_batch_make_the_same_kinds_of_choices_for_a_caster(tables: Tables) -> None:
    from chargen.batch.mix import Mix
    from chargen.batch.npc import Plan, make_character

    plan = Plan(
        run_seed=3, archetypes=Mix(("adept",), (1.0,)), races=Mix(("elf",), (1.0,)), gender=None, count=1
    )
    npc = make_character(plan, 1, tables)
    rolled = api.roll(seed=3, archetype="adept", race="elf", tables=tables)
    assert npc.college == rolled.college
    assert {spell.name for spell in rolled.spells} <= {spell.name for spell in npc.spells}
    assert npc.racial_talents == rolled.racial_talents == ["witchsight"]


def test_the_json_schema_names_the_life_span_starting_age_and_racial_talents() -> None:
    schema = json.loads(
        subprocess.run([*CHARGEN, "schema"], capture_output=True, text=True, check=True).stdout
    )
    assert {"life_span", "starting_age", "racial_talents"} <= set(schema["properties"])


def test_a_partial_file_with_a_player_and_gear_buys_what_it_would_without_them(tables: Tables) -> None:
    # The abilities a rolled character buys are chosen before the Character is made; a partial file's own
    # player, campaign and gear are added after, and must leave them as bought (notes make a file whole:
    # it buys nothing).
    for seed in range(8):
        plain = api.build(f"seed: {seed}\narchetype: adept\n", tables=tables)
        noted = api.build(
            f"seed: {seed}\narchetype: adept\nplayer: Ann\ncampaign: Fens\n"
            "equipment:\n  - name: rope\n    weight: 5\n",
            tables=tables,
        )
        assert plain.college is not None and plain.spells
        bought = (plain.skills, plain.college, plain.spells, plain.experience_bank, plain.abilities_given)
        assert (
            noted.skills,
            noted.college,
            noted.spells,
            noted.experience_bank,
            noted.abilities_given,
        ) == bought
        assert (noted.player, noted.campaign) == ("Ann", "Fens")
        assert [(gear.name, gear.weight) for gear in noted.equipment] == [("rope", 5)]
