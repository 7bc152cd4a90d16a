"""Roll20's shown values read the typed Character and the tables, not the record's view-model: the weight
the sheet adds up (each row's, and the money's) and whether the sheet opens its magic panel."""

from __future__ import annotations

import ast
from pathlib import Path

from chargen import api
from chargen.export import roll20_shown
from chargen.export.roll20_shown import character_shown, sheet_pounds
from chargen.tables import Tables
from tests import test_roll20_load

RENDER_FIXTURES = Path(__file__).resolve().parent / "render_fixtures"

#: test_roll20_load's porter, armed, armored, with a shield and a pack (the kit given: no purse limits it)
PORTER = test_roll20_load.PORTER.replace(
    "weapons: []\n",
    "weapons: [{name: dagger}]\narmor: leather\nshield: {name: small-round-shield}\nequipment_given: true\n"
    "equipment: [{name: sack, weight: 2.5, count: 3}, {name: lantern, count: 2}]\n",
)


def test_roll20s_shown_values_import_nothing_from_the_record() -> None:
    tree = ast.parse(Path(roll20_shown.__file__).read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    assert [name for name in imported if name.startswith("chargen.render")] == []


def test_the_sheets_pounds_are_each_row_and_the_money(tables: Tables) -> None:
    porter = api.build(PORTER, "porter.yaml", tables=tables)
    assert porter.silver_pennies == 275
    # dagger 0.625, leather for a human man 18 (18.1), small round shield 5, three sacks of 2.5, a lantern
    # with no weight, 275 coins at 16 a pound
    assert sheet_pounds(porter, tables) == 0.625 + 18 + 5 + 3 * 2.5 + 275 / 16 == 48.3125


def test_the_magic_panel_opens_for_a_college_only(tables: Tables) -> None:
    caster = api.build(
        (RENDER_FIXTURES / "caster.yaml").read_text(encoding="utf-8"), "caster.yaml", tables=tables
    )
    porter = api.build(PORTER, "porter.yaml", tables=tables)
    assert (character_shown(caster, tables)["ismage"], character_shown(porter, tables)["ismage"]) == (1, 0)
