"""The render tests' characters are real: each fixture file passes `chargen validate`, builds to the same
character every time, and obeys the independent reading of the rules."""

from __future__ import annotations

import pytest

from chargen.cli import main
from chargen.tables import Tables
from tests import render_fixtures as fixtures
from tests.rules_checker import check_character


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_fixture_file_passes_chargen_validate(fixture: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = fixtures.HERE / f"{fixture}.yaml"
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", str(path)])
    assert (exit_info.value.code, capsys.readouterr().out) == (0, f"{path}: valid\n")


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_fixture_obeys_the_rules(fixture: str, tables: Tables) -> None:
    character = fixtures.build(fixture)
    check_character(character, tables)
    assert fixtures.build(fixture) == character


def test_fixtures_cover_what_the_record_must_show() -> None:
    human, giant, crowded = fixtures.human(), fixtures.giant(), fixtures.crowded()
    assert human["race"] == "human" and "notes" not in human
    assert giant["race"] == "giant" and giant["characteristics"]["EN"] > 27 and giant["notes"]
    assert any("two_handed_damage" in line for line in giant["combat"]["weapons"])
    assert any(
        line["damage_modifier"] < 10 for line in giant["combat"]["weapons"] if line["name"] == "giant-axe"
    )
    assert len(crowded["combat"]["weapons"]) == 10 and len(crowded["name"]) > 200
    assert "PB" in crowded["characteristics"]


@pytest.mark.parametrize("name", ["<b>x</b>", "{{ 7*7 }} & \"quotes\" 'x'", "Ünïcödé — name"])
def test_named_fixture_keeps_the_name_and_the_values(name: str) -> None:
    character = fixtures.named(name)
    assert character["name"] == name
    assert {k: v for k, v in character.items() if k != "name"} == {
        k: v for k, v in fixtures.human().items() if k != "name"
    }


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_the_rules_checker_refuses_the_fixture_with_its_values_set_to_3(fixture: str, tables: Tables) -> None:
    with pytest.raises(AssertionError):
        check_character(fixtures.with_derived_values(fixtures.build(fixture), 3), tables)
