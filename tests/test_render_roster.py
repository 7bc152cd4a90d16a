"""The batch roster's NPC cards hold each character's values in their own cells, read from the HTML's DOM
and compared with tests/rules_checker.py's independent values, as the Character Record is. (The card's race
name drifted from the record's before the typed Character: "Giant (fire)" against "Giant (Fire)".)"""

from __future__ import annotations

from typing import Any

import pytest

from chargen.tables import Tables
from tests import render_fixtures as fixtures
from tests.render_fixtures.fields import Node, num, parse_html
from tests.rules_checker import expected_values

CARD_WEAPONS = 4  # the card lists the first four weapons
CODES = ("PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC")


def cards(page: str) -> list[Node]:
    return parse_html(page).find_all("section", "card")


def card_fields(card: Node) -> dict[str, str]:
    """`stats | PS` ... `stats | Def`, and `weapons | <name> | SC` ..., as the GM reads the card."""
    found = {"name": card.find_all("h2", "name")[0].text(), "who": card.find_all("p", "who")[0].text()}
    header, values = card.find_all("table", "stats")[0].find_all("tr")
    for label, cell in zip(header.find_all("th"), values.find_all("td"), strict=True):
        found[f"stats | {label.text()}"] = cell.text()
    rows = card.find_all("table", "weapons")[0].find_all("tr")
    labels = [th.text() for th in rows[0].find_all("th")]
    for row in rows[1:]:
        cells = [td.text() for td in row.find_all("td")]
        for label, cell in zip(labels[1:], cells[1:], strict=True):
            found[f"weapons | {cells[0]} | {label}"] = cell
    return found


def expected_card(character: Any, tables: Tables) -> dict[str, str]:
    values = expected_values(character, tables)
    combat = values["combat"]
    wanted = {f"stats | {code}": num(values["characteristics"][code]) for code in CODES}
    wanted["stats | TMR"] = num(values["tmr"])
    wanted["stats | Def"] = num(combat["defense"])
    wanted["stats | Init"] = num(combat["initiative"])
    for line in combat["weapons"][:CARD_WEAPONS]:
        name = tables.weapons[line["name"]].name
        wanted[f"weapons | {name} | SC"] = num(line["strike_chance"])
        wanted[f"weapons | {name} | Dmg"] = line["damage"]
        wanted[f"weapons | {name} | Init"] = num(line["initiative"])
    return wanted


@pytest.fixture(scope="module")
def built() -> list[Any]:
    return [fixtures.build(name) for name in fixtures.FIXTURES]


def test_each_card_cell_holds_its_value(tables: Tables, built: list[Any]) -> None:
    page = fixtures.roster_html(built)
    found = [card_fields(card) for card in cards(page)]
    assert [card["name"] for card in found] == [" ".join(c["name"].split()) for c in built]
    for character, card in zip(built, found, strict=True):
        wanted = expected_card(character, tables)
        assert {key: card.get(key) for key in wanted} == wanted


def test_card_checks_catch_every_derived_value_set_to_3(tables: Tables, built: list[Any]) -> None:
    mutants = [fixtures.with_derived_values(character, 3) for character in built]
    found = [card_fields(card) for card in cards(fixtures.roster_html(mutants))]
    for character, card in zip(built, found, strict=True):
        wanted = expected_card(character, tables)
        should_fail = {key for key, value in wanted.items() if value != "3"}
        assert {key for key, value in wanted.items() if card.get(key) != value} == should_fail


def test_card_names_the_race_as_the_record_does(built: list[Any]) -> None:
    giant_card = card_fields(cards(fixtures.roster_html([built[1]]))[0])
    record = parse_html(fixtures.record_html(built[1]))
    race = [item for item in record.find_all("div", "item") if item.find_all("dt")[0].text() == "Race"]
    assert race[0].find_all("dd")[0].text() in giant_card["who"]
