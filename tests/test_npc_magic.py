"""An NPC is given its archetype's typical skills, a college its race may join (6.6) and
the talents and spells that college casts; given, not bought (8.6), and its file rebuilds to itself."""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from pathlib import Path

import pytest

from chargen import api
from chargen.batch.mix import Mix
from chargen.batch.npc import Plan, make_character
from chargen.character_file import dump_document
from chargen.errors import InputError, TableError
from chargen.model import Character, to_document
from chargen.paths import tables_dir
from chargen.render import render_html
from chargen.tables import Tables, load_tables
from chargen.tables.abilities_schema import TypicalAbilities
from tests.test_skills_record import box_text

ABILITY_KEYS = ("skills", "languages", "college", "spells", "abilities_given")


def npcs(tables: Tables, archetype: str, race: str | None, count: int, seed: int = 5) -> list[Character]:
    plan = Plan(
        run_seed=seed,
        archetypes=Mix((archetype,), (1.0,)),
        races=Mix((race,), (1.0,)) if race else None,
        gender=None,
        count=count,
    )
    return [make_character(plan, number, tables) for number in range(1, count + 1)]


def house(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """The book's tables with one edit in tables/<name>.yaml."""
    folder = tmp_path / "house"
    if not folder.exists():
        shutil.copytree(tables_dir(), folder)
    path = folder / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize("archetype", ["adept", "priest"])
def test_adepts_and_priests_always_have_a_college_and_magic(tables: Tables, archetype: str) -> None:
    colleges: Counter[str | None] = Counter()
    for npc in npcs(tables, archetype, None, 300):
        colleges[npc.college] += 1
        assert npc.college in tables.abilities.colleges, npc.seed
        assert npc.spells, npc.seed
        assert npc.abilities_given is True and npc.experience_bank is None
        kinds = {spell.kind for spell in npc.spells}
        assert kinds <= {"talent", "spell"}
    # The preference list's first college for every race the 6.3 roll gives but a frost giant.
    first = tables.archetypes[archetype].abilities.colleges[0]
    assert colleges[first] >= 290


@pytest.mark.slow  # many rolled characters
def test_a_giant_adept_never_joins_the_college_opposed_to_its_element(tables: Tables) -> None:
    opposed = tables.abilities.opposed_elements
    seen: Counter[tuple[str | None, str | None]] = Counter()
    for npc in npcs(tables, "adept", "giant", 200):
        element = tables.races["giant"].types[npc.race_type or ""].element
        assert npc.college is not None
        assert tables.abilities.colleges[npc.college].element != opposed[element or ""], npc.seed
        seen[(npc.race_type, npc.college)] += 1
        assert api.validate(dump_document(npc, "yaml"), "giant.yaml", tables=tables) == []
    # Fire Magics comes first for the adept: a frost giant (water) falls back to Celestial Magics, whose
    # Starfire it then casts; the other three join Fire Magics.
    assert {college for race_type, college in seen if race_type == "frost"} == {"celestial-magics"}
    assert {college for race_type, college in seen if race_type != "frost"} == {"fire-magics"}
    frost = next(npc for npc in npcs(tables, "adept", "giant", 50) if npc.race_type == "frost")
    assert [spell.name for spell in frost.spells][:1] == ["starfire"]


def test_spells_of_another_college_and_racial_talents_are_left_out(tables: Tables) -> None:
    fire = next(npc for npc in npcs(tables, "adept", "human", 5))
    assert fire.college == "fire-magics"
    assert [(spell.name, spell.rank, spell.kind) for spell in fire.spells] == [
        ("sensitivity-to-danger", 1, "talent"),
        ("glamour", 2, "spell"),
        ("cantrip", 1, "spell"),
    ]
    assert [(skill.name, skill.rank) for skill in fire.skills] == [("alchemist", 1)]
    minstrel = npcs(tables, "minstrel", "elf", 1)[0]
    # 4.2: minor magic needs no college; the elf's Witchsight is its race's, never listed.
    assert minstrel.college is None and [spell.name for spell in minstrel.spells] == ["glamour"]


def test_an_npc_file_rebuilds_to_itself_without_charging_experience(tables: Tables) -> None:
    for archetype in ("adept", "priest", "thief", "merchant"):
        for npc in npcs(tables, archetype, None, 10, seed=9):
            written = dump_document(npc, "yaml")
            assert "abilities_given: true\n" in written and "experience_bank" not in written
            rebuilt = api.build(written, "npc.yaml", tables=tables)
            assert dump_document(rebuilt, "yaml") == written
            assert api.validate(written, "npc.yaml", tables=tables) == []


def test_the_same_skills_bought_by_a_player_are_charged(tables: Tables) -> None:
    npc = npcs(tables, "thief", "human", 1)[0]
    text = dump_document(npc, "yaml").replace("abilities_given: true\n", "")
    bought = api.build(text.replace("rank: 3", "rank: 0"), "pc.yaml", tables=tables)
    assert bought.abilities_given is None
    assert bought.experience_bank == npc.experience_points - 100


def without_typical_abilities(tables: Tables) -> Tables:
    """The same tables with every archetype's typical skills and magic taken away. Done to the tables, not by
    monkeypatching the pipeline: the compiled (mypyc) build binds its calls and would not see a patch."""
    archetypes = {
        key: archetype.model_copy(update={"abilities": TypicalAbilities()})
        for key, archetype in tables.archetypes.items()
    }
    return dataclasses.replace(
        tables, archetype_file=tables.archetype_file.model_copy(update={"archetypes": archetypes})
    )


def test_the_abilities_change_nothing_else_of_the_npc(tables: Tables) -> None:
    made = [to_document(npc) for npc in npcs(tables, "adept", None, 40) + npcs(tables, "healer", None, 40)]
    bare = without_typical_abilities(tables)
    plain = [to_document(npc) for npc in npcs(bare, "adept", None, 40) + npcs(bare, "healer", None, 40)]
    assert all("skills" in document for document in made)
    assert all("college" not in document for document in plain)
    for document, without in zip(made, plain, strict=True):
        assert {key: value for key, value in document.items() if key not in ABILITY_KEYS} == without


def test_a_rolled_player_character_buys_what_an_npc_is_given(tables: Tables) -> None:
    # A rolled adept chooses as an NPC adept does, but buys with its Experience (8.6): never
    # `abilities_given`, and its Experience Point Bank is what is left.
    for seed in range(20):
        rolled = api.roll(seed=seed, archetype="adept", tables=tables)
        assert rolled.abilities_given is None and rolled.college is not None and rolled.spells
        assert rolled.experience_bank is not None and rolled.experience_bank >= 0


def test_the_record_shows_the_npc_magic_skills_and_bank(tables: Tables) -> None:
    frost = next(npc for npc in npcs(tables, "adept", "giant", 50) if npc.race_type == "frost")
    page = render_html(frost, tables)
    magic = box_text(page, "magic")
    assert "College Celestial Magics (44)" in magic
    assert "Starfire Spell (9-24) 2" in magic and "Sensitivity to Danger Talent (I) 1" in magic
    assert "Alchemist (50) 1" in box_text(page, "skills")
    assert "abilities given, not bought (8.6)" in page
    assert "Recorded as given, not charged" not in page


def test_a_file_spell_must_be_of_its_college_and_minor_magic_needs_none(tables: Tables) -> None:
    base = "race: human\ngender: female\nseed: 4\n"
    with pytest.raises(InputError) as refused:
        api.build(base + "college: Illusions\nspells: [{name: Starfire, rank: 1}]\n", "f.yaml", tables=tables)
    (problem,) = refused.value.items
    assert (problem.path, problem.rule) == (("spells", 0, "name"), "34")
    assert problem.message == "Starfire is cast by adepts of Celestial Magics; the file names Illusions"
    trick = api.build(base + "spells: [{name: Cantrip, rank: 2}]\n", "f.yaml", tables=tables)
    assert [(spell.name, spell.kind) for spell in trick.spells] == [("cantrip", "spell")]


def test_a_gm_maximum_caps_the_typical_rank(tmp_path: Path) -> None:
    folder = house(
        tmp_path,
        "abilities",
        '{name: Spy and Thief, rule: "61"}',
        '{name: Spy and Thief, rule: "61", max_rank: 2}',
    )
    capped = npcs(load_tables(folder), "thief", "human", 1)[0]
    assert [(skill.name, skill.rank) for skill in capped.skills] == [("spy-and-thief", 2)]


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        (
            "{name: alchemist, rank: 1}]\n      colleges",
            "{name: alchemy, rank: 1}]\n      colleges",
            "archetypes.adept.abilities.skills[0].name: 'alchemy' is not a skill (48-62) in abilities.yaml",
        ),
        (
            "{name: glamour, rank: 1}]}",
            "{name: glamor, rank: 1}]}",
            "archetypes.minstrel.abilities.magic[0].name: 'glamor' is not magic (34-47) in abilities.yaml",
        ),
        (
            "colleges: [fire-magics,",
            "colleges: [fire-magic,",
            "archetypes.adept.abilities.colleges[0]: 'fire-magic' is not a college (36-47)",
        ),
        (
            "colleges: [celestial-magics, naming",
            "colleges: [naming",
            "archetypes.priest.abilities.magic[0].name: 'starfire' is cast by adepts of 'celestial-magics', "
            "which colleges does not list (34)",
        ),
        (
            "{name: ranger, rank: 3}]}",
            "{name: ranger, rank: 3}, {name: ranger, rank: 1}]}",
            "archetypes.ranger.abilities.skills[1].name: 'ranger' is listed twice (a skill (48-62))",
        ),
    ],
)
def test_the_table_check_names_the_bad_id_with_its_key_path_and_rule(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    folder = house(tmp_path, "archetypes", old, new)
    with pytest.raises(TableError) as refused:
        load_tables(folder)
    assert where in str(refused.value)
    assert str(refused.value).count("1 problem") == 1
