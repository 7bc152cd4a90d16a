"""chargen.jsonline writes a batch's JSONL line in one pass; it must be the very text `json.dumps` makes of
`to_document`, for every character chargen makes or reads, and for odd values a Character could hold."""

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
from chargen.jsonline import json_text
from chargen.model import Character, Characteristics, Gear, Modifier, Ranked, to_document
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
    # house-combat states a fallback for the defensive modifiers (issue 30); without it Defense is null.
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
        {"tmr": 4.5},
        {"notes": ("a", "b")},  # a tuple where a list is declared
        {"allocation": {"PS": 18, 7: 3, None: 1, 2.5: 0, True: 1}},  # keys json turns into text
        {"allocation": {("a",): 1}},  # a key json refuses
        {"rolls": {"hand": [2, True], "points": 3.0, "race": [[1], None]}},
        {"equipment": [Gear("rope", weight=2.5, count=2), Gear("torch", weight=float("-inf"))]},
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


@pytest.mark.parametrize("kept", [1, 3, 4096])
def test_batch_characters_sharing_records_read_the_same(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, kept: int
) -> None:
    """A batch's characters share their Modifiers, Carried weapons, abilities and armor lines
    (jsonline.SHARED_RECORDS), whose texts are remembered: the lines stay right, also when the memory is
    emptied as it fills."""
    from chargen import jsonline
    from chargen.batch import BatchOptions, checked_plan
    from chargen.batch.npc import make_character

    monkeypatch.setattr(jsonline, "KEPT_TEXTS", kept)
    plan = checked_plan(BatchOptions(count=60, seed=9, jsonl="-"), tables)
    for number in range(1, 61):
        character = make_character(plan, number, tables)
        assert json_text(character) == by_json(character)


def test_a_shared_record_is_written_once_by_its_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    from chargen import jsonline

    monkeypatch.setattr(jsonline, "KEPT_TEXTS", 2)
    written: list[Modifier] = []

    def spelled(value: Modifier) -> str:
        written.append(value)
        return f"{value.race}/{value.gender}"

    write = jsonline._remembering(spelled)
    first, equal, other = Modifier(1, 2), Modifier(1, 2), Modifier(3, 4)
    assert [write(first), write(first), write(equal), write(first)] == ["1/2"] * 4
    assert written == [first, equal]  # `equal` is another record: written for itself
    assert write(other) == "3/4" and write(first) == "1/2"  # the memory was full: emptied, written again
    assert written == [first, equal, other, first]


def test_the_written_writers_are_what_jsonline_writes_today() -> None:
    # chargen/jsonline_writers.py is written by `python -m chargen.jsonline`: run it again after changing
    # chargen.model or chargen.jsonline (its fingerprint would no longer match, and the writers would be
    # made at each start instead).
    from chargen import jsonline

    assert jsonline.WRITTEN.read_text(encoding="utf-8") == jsonline.module_text()


def test_a_line_is_written_by_the_written_writers(tables: Tables) -> None:
    from chargen import jsonline, jsonline_writers

    json_text(api.roll(seed=1, tables=tables))
    assert jsonline._WRITERS[Character] is jsonline_writers.write_Character
    assert set(jsonline._WRITERS) == set(jsonline.record_kinds())


def test_writers_made_here_read_the_same(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written from other records or another jsonline (a fingerprint that differs), the written module
    is not used: the writers are made here, and write the same lines."""
    from chargen import jsonline, jsonline_writers
    from chargen.batch import BatchOptions, checked_plan
    from chargen.batch.npc import make_character

    monkeypatch.setattr(jsonline_writers, "FINGERPRINT", "another")
    monkeypatch.setattr(jsonline, "_WRITERS", {})
    jsonline._written_writers.cache_clear()
    try:
        characters = [
            api.build(path.read_text(encoding="utf-8"), path.name, seed=1, tables=tables)
            for path in CHARACTER_FILES
        ]
        plan = checked_plan(BatchOptions(count=40, seed=9, jsonl="-"), tables)
        characters += [make_character(plan, number, tables) for number in range(1, 41)]
        for character in characters:
            assert json_text(character) == by_json(character)
        assert jsonline._WRITERS[Character] is not jsonline_writers.write_Character
    finally:
        jsonline._written_writers.cache_clear()
