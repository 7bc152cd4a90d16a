"""chargen.jsontext writes JSON with orjson; it must be the very text `json.dumps` made before: a batch's JSONL
line as `json.dumps(to_document(...), ensure_ascii=False, separators=(",", ":"))` for every character chargen
makes or reads and for odd values a Character could hold, and indented JSON (character files, tables, the
schema) as `json.dumps(..., indent=2, ensure_ascii=False)` for any plain data."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen import api
from chargen.batch.npc import json_line
from chargen.jsontext import character_line as json_text
from chargen.jsontext import indented
from chargen.model import Character, Characteristics, Gear, Ranked, to_document
from chargen.tables import Tables, load_tables

TESTS = Path(__file__).parent
CHARACTER_FILES = sorted(
    path
    for path in [
        *TESTS.glob("examples/*.yaml"),
        *TESTS.glob("golden/*.*"),
        *TESTS.glob("render_fixtures/*.yaml"),
    ]
    if not path.name.startswith("bad-")  # a file the rules refuse, for the error tests
)


def by_json(character: Character) -> str:
    return json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))


def same_or_both_refuse(character: Character) -> None:
    try:
        expected: str | type[Exception] = by_json(character)
    except (TypeError, ValueError) as error:
        expected = type(error)
    if isinstance(expected, str):
        assert json_text(character) == expected
    else:
        with pytest.raises(expected):
            json_text(character)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    archetype=st.sampled_from([None, "fighter", "adept", "innkeeper", "bandit", "ranger", "thief"]),
    race=st.sampled_from([None, "human", "elf", "dwarf", "giant", "orc", "shape-changer", "halfling"]),
    gender=st.sampled_from([None, "male", "female"]),
)
def test_a_rolled_character_reads_as_json_writes_it(
    tables: Tables, seed: int, archetype: str | None, race: str | None, gender: str | None
) -> None:
    if archetype is not None and archetype not in tables.archetypes:
        archetype = None
    character = api.roll(
        seed=seed, archetype=archetype, race=race, gender=gender, equip="give", tables=tables
    )
    assert json_text(character) == by_json(character)
    assert json_line(character) == by_json(character) + "\n"


@pytest.mark.parametrize("path", CHARACTER_FILES, ids=lambda path: path.name)
def test_every_character_file_of_the_tests_reads_the_same(tables: Tables, path: Path) -> None:
    character = api.build(path.read_text(encoding="utf-8"), path.name, seed=1, tables=tables)
    assert json_text(character) == by_json(character)


def test_house_rules_with_no_defense_and_postures_read_the_same(tmp_path: Path) -> None:
    # house-combat states a fallback for the defensive modifiers; without it Defense is null.
    unstated = tmp_path / "unstated.yaml"
    unstated.write_text("remove: [combat.defense.defensive_modifier_fallback]\n", encoding="utf-8")
    house = load_tables(rules=["house-combat", str(unstated)])
    rolf = api.build((TESTS / "examples" / "rolf.yaml").read_text(encoding="utf-8"), tables=house)
    assert rolf.combat.defense is None and rolf.combat.defense_postures  # null and a mapping with nulls
    for character in (rolf, *(api.roll(seed=seed, tables=house) for seed in range(20))):
        assert character.rules
        assert json_text(character) == by_json(character)


@pytest.mark.parametrize(
    "changes",
    [
        {"name": 'Æsa "the" \\ Red\u2028\x01'},  # quotes, backslash, controls, non-ASCII
        {"player": None, "seed": None, "notes": []},  # left out
        {"notes": ["a", "b"], "player": "Kim", "campaign": ""},
        {"schema_version": True},  # a bool where an int is declared: json writes true
        {"experience_multiplier": math.nan},
        {"experience_multiplier": math.inf},
        {"experience_multiplier": 1},  # an int where a float is declared
        {"experience_multiplier": 1e-05},  # json 1e-05, orjson 0.00001
        {"experience_multiplier": -2.5e-300},
        {"experience_multiplier": 1e16},
        {"experience_multiplier": 0.0001},
        {"seed": 2**70},  # past the 64 bits orjson writes
        {"name": "lone \udc80 surrogate"},  # json writes it, orjson refuses it
        {"tmr": 4.5},
        {"notes": ("a", "b")},  # a tuple where a list is declared
        {"allocation": {"PS": 18, 7: 3, None: 1, 2.5: 0, True: 1}},  # keys json turns into text
        {"allocation": {("a",): 1}},  # a key json refuses
        {"rolls": {"hand": [2, True], "points": 3.0, "race": [[1], None]}},
        {"equipment": [Gear("rope", weight=2.5, count=2), Gear("torch", weight=float("-inf"))]},
        {"equipment": [Gear("feather", weight=1e-5), Gear("dust", weight=3.25e-7), Gear("ash", weight=0.0)]},
        {"skills": [Ranked("merchant", True)]},
        {"race_attempts": []},
        {"armor": object()},  # json refuses, and so must the line
    ],
    ids=lambda changes: ",".join(changes),
)
def test_odd_values_read_as_json_writes_them(tables: Tables, changes: dict[str, object]) -> None:
    character = dataclasses.replace(api.roll(seed=3, archetype="fighter", tables=tables), **changes)  # type: ignore[arg-type]
    same_or_both_refuse(character)


@pytest.mark.parametrize(
    "optional",
    [{}, {"PB": 12}, {"PB": 12, "XX": -1}, {"PS": 99}, {"PB": True}],
    ids=str,
)
def test_characteristics_with_optional_ones(tables: Tables, optional: dict[str, int]) -> None:
    character = api.roll(seed=8, tables=tables)
    eight = {
        code: getattr(character.characteristics, code)
        for code in ("PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC")
    }
    odd = dataclasses.replace(character, characteristics=Characteristics(**eight, optional=optional))
    same_or_both_refuse(odd)


def by_json_indented(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": [], "b": {}, "c": [1, {"d": [None, True, False]}], "e": ""},
        {"weights": [1e-05, 0.0001, 2.5e-300, 1e16, 1e22, -0.0, 0.1, 666666666666666.6]},
        {"odd": [math.nan, math.inf, -math.inf]},
        {"text": 'Æsa "the" \\ Red\u2028\x01\x7f \U0001f409'},
        {"ints": [0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**70)]},
        {"keys": {1: "one", None: "none", 2.5: "x", False: "no"}},  # keys json turns into text
        ("a", ("b", 1e-5)),
        "lone \udc80 surrogate",
    ],
    ids=repr,
)
def test_indented_json_is_what_json_writes(value: object) -> None:
    assert indented(value) == by_json_indented(value)


def test_a_value_json_refuses_is_refused() -> None:
    with pytest.raises(TypeError):
        json.dumps({("a",): 1})
    with pytest.raises(TypeError):
        indented({("a",): 1})


def test_every_table_and_the_schema_read_as_json_writes_them(tables: Tables) -> None:
    from chargen.character_file import json_schema
    from chargen.tables.loader import FILES

    house = load_tables(rules=["house-combat"])
    for name in FILES:
        assert indented(tables.raw(name)) == by_json_indented(tables.raw(name))
        assert indented(house.raw(name)) == by_json_indented(house.raw(name))
    assert indented(json_schema()) == by_json_indented(json_schema())


@pytest.mark.parametrize("path", CHARACTER_FILES, ids=lambda path: path.name)
def test_every_character_file_of_the_tests_writes_the_same_json(tables: Tables, path: Path) -> None:
    from chargen.character_file import dump_document

    character = api.build(path.read_text(encoding="utf-8"), path.name, seed=1, tables=tables)
    assert dump_document(character, "json") == by_json_indented(to_document(character)) + "\n"


@pytest.mark.parametrize("fmt", ["roll20", "foundry"])
def test_an_export_is_what_json_writes(tables: Tables, fmt: str) -> None:
    from chargen.export import export_document, export_json

    for seed in range(5):
        character = api.roll(seed=seed, tables=tables)
        expected = by_json_indented(export_document(character, tables, fmt)) + "\n"
        assert export_json(character, tables, fmt) == expected
