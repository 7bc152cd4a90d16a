"""The ends of the 5.3 Fatigue and 5.6 TMR tables, reached only by non-human characters (the boldface rows),
checked through chargen.api.build against tests/rules_checker.py's own reading of the tables."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chargen import api
from chargen.model import to_document
from chargen.tables import Tables
from tests.rules_charts import RACES
from tests.rules_checker import fatigue_for, tmr_for

# 5.1: a 2D10 roll of 2 gives 81 points with a maximum of 25.
ROLLS = {"points": 2, "hand": [2, 9], "aspect": 17, "social_status": 50, "birth_order": 40, "experience": 40}


def build(tables: Tables, race: str, **allocation: int) -> dict[str, Any]:
    data = {
        "name": "Edge Case",
        "seed": 1,
        "gender": "male",
        "race": race,
        "race_attempts": [race],
        "allocation": allocation,
        "rolls": {**ROLLS, "race": [1], "silver": 40, "sibling_rank": 2},
    }
    character: dict[str, Any] = to_document(api.build(json.dumps(data), "edge.json", tables=tables))
    return character


@pytest.mark.parametrize(
    ("race", "endurance"), [("halfling", 5), ("halfling", 6), ("halfling", 7), ("elf", 5)]
)
def test_fatigue_at_the_lowest_endurance(tables: Tables, race: str, endurance: int) -> None:
    rest = 81 - 25 - endurance
    character = build(
        tables, race, PS=25, EN=endurance, MD=rest // 4, AG=rest // 4, MA=rest // 4, WP=rest - 3 * (rest // 4)
    )
    final = endurance + RACES[race][2].get("EN", 0)
    assert character["characteristics"]["EN"] == final
    assert character["characteristics"]["FT"] == fatigue_for(final) + RACES[race][2].get("FT", 0)
    assert "notes" not in character  # 3 and 4 are printed rows of 5.3 (boldface), not beyond the table


@pytest.mark.parametrize(("race", "agility"), [("halfling", 25), ("halfling", 24), ("elf", 25), ("dwarf", 5)])
def test_tmr_at_the_ends_of_the_agility_table(tables: Tables, race: str, agility: int) -> None:
    rest = 81 - agility - (24 if agility == 25 else 25)
    top = 24 if agility == 25 else 25
    character = build(
        tables, race, AG=agility, EN=top, PS=rest // 4, MD=rest // 4, MA=rest // 4, WP=rest - 3 * (rest // 4)
    )
    final = agility + RACES[race][2].get("AG", 0)
    assert character["characteristics"]["AG"] == final
    assert character["tmr"] == max(1, tmr_for(final) + RACES[race][2].get("TMR", 0))


@pytest.mark.parametrize("race", sorted(set(RACES) - {"human"}))
def test_race_roll_at_and_just_above_its_chance(tables: Tables, race: str) -> None:
    # 6.3: the race is bound on a D100 roll equal to or under its chance; one more fails (here: human).
    chance = RACES[race][0]
    for roll, bound in ((chance, race), (chance + 1, "human")):
        data = {
            "name": "Chance",
            "seed": 5,
            "gender": "male",
            "race_attempts": [race],
            "rolls": {"race": [roll], **({"race_type": 1} if bound in ("giant", "shape-changer") else {})},
        }
        assert api.build(json.dumps(data), "chance.json", tables=tables).race == bound
