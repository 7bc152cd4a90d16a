"""Each box of the Character Record holds its own value: read where a person reads it, in the HTML's DOM
text and in the PDF's text layer at the box's position, and compared with values worked out independently
(tests/rules_checker.py) from the character's choices and rolls.

The last tests prove these checks can fail: the same characters with every derived value set to 3 are
printed, and every box that should not show 3 is caught.
"""

from __future__ import annotations

from functools import cache

import pytest

from chargen.tables import Tables
from tests import render_fixtures as fixtures
from tests.render_fixtures.fields import derived_field_keys, expected_fields, html_fields
from tests.render_fixtures.pdf_text import pdf_fields

pytestmark = pytest.mark.slow  # PDFs

MUTANT_VALUE = 3


@cache
def expected(fixture: str) -> dict[str, str]:
    return expected_fields(fixtures.build(fixture), fixtures.tables())


@cache
def mutant(fixture: str) -> object:
    return fixtures.with_derived_values(fixtures.build(fixture), MUTANT_VALUE)


def mismatches(found: dict[str, str | None], wanted: dict[str, str], keys: list[str]) -> dict[str, object]:
    return {key: (found.get(key), wanted[key]) for key in keys if found.get(key) != wanted[key]}


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_each_html_box_holds_its_value(fixture: str) -> None:
    wanted = expected(fixture)
    found = html_fields(fixtures.record_html(fixtures.build(fixture)))
    assert mismatches(found, wanted, list(wanted)) == {}


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_each_pdf_box_holds_its_value(fixture: str) -> None:
    wanted = expected(fixture)
    found = pdf_fields(fixtures.record_pdf(fixtures.build(fixture)), list(wanted))
    assert mismatches(found, wanted, list(wanted)) == {}


def test_the_fields_cover_every_box_and_weapon_line(tables: Tables) -> None:
    wanted = expected("giant")
    boxes = {key.split(" | ")[0] for key in wanted}
    assert boxes == {"characteristics", "combat", "stun", "purse", "armor", "shield", "weapons", "carried"}
    character = fixtures.build("giant")
    for line in character["combat"]["weapons"]:
        assert f"weapons | {tables.weapons[line['name']].name} | Strike Chance" in wanted
    assert wanted["weapons | Battle Axe | two-handed"] == "D10+5"  # (1-2): +1 in two hands, 20.2


def _caught(fixture: str, wanted: dict[str, str], found: dict[str, str | None]) -> None:
    keys = derived_field_keys(wanted, fixtures.build(fixture), fixtures.tables())
    should_fail = {key for key in keys if wanted[key] != str(MUTANT_VALUE)}
    assert len(should_fail) > 0.8 * len(keys)
    assert set(mismatches(found, wanted, keys)) == should_fail


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_html_checks_catch_every_derived_value_set_to_3(fixture: str) -> None:
    _caught(fixture, expected(fixture), html_fields(fixtures.record_html(mutant(fixture))))


@pytest.mark.parametrize("fixture", fixtures.FIXTURES)
def test_pdf_checks_catch_every_derived_value_set_to_3(fixture: str) -> None:
    wanted = expected(fixture)
    _caught(fixture, wanted, pdf_fields(fixtures.record_pdf(mutant(fixture)), list(wanted)))


def test_the_mutant_keeps_its_choices_and_changes_its_numbers() -> None:
    original, changed = fixtures.build("human"), mutant("human")
    for key in ("name", "allocation", "rolls", "weapons", "armor", "shield", "race", "heritage"):
        assert changed[key] == original[key]  # type: ignore[index]
    assert changed["combat"]["defense"] == MUTANT_VALUE  # type: ignore[index]
    assert changed["combat"]["weapons"][0]["damage"] == "D3+3"  # type: ignore[index]
    assert changed["combat"]["weapons"][0]["name"] == "broadsword"  # type: ignore[index]
    assert set(changed["characteristics"].values()) == {MUTANT_VALUE}  # type: ignore[index]
