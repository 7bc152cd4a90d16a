"""Combat values checked against our own reading of the rules text, not against chargen's code or tables.

Each chart below is transcribed here from the book (Book One, 2nd edition: 5.6, 18.1, 18.2, 20.2) and each
formula written out again, so a slip in chargen's tables or rules functions shows up as a disagreement.
Characters are built with chargen.api.build from character files, as a player would write them.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from chargen import api
from chargen.model import to_document
from chargen.tables import Tables
from tests.rules_charts import ARMOR, RACES, SHIELDS, SIZES, WEAPONS
from tests.rules_checker import damage_text, special_damage, tmr_for

# The charts (5.6, 17.5, 18.1, 18.2, 20.2, the size numbers, 6.4-6.9) are tests/rules_charts.py's.
FOUR_RACES = ("human", "dwarf", "elf", "halfling")
AGILITY_AND_TMR = {race: (RACES[race][2].get("AG", 0), RACES[race][2].get("TMR", 0)) for race in FOUR_RACES}
EITHER_HANDED = {name: (row.ps, row.damage_modifier) for name, row in WEAPONS.items() if row.hands == "1-2"}

# A character file: 88 points (5.1 roll 9), a first child of the greater nobility with the top silver roll,
# so the purse (1500) buys any armor at any size (8.1-8.5).
BASE: dict[str, Any] = {
    "name": "Test Subject",
    "seed": 1,
    "gender": "male",
    "race": "human",
    "allocation": {"PS": 15, "MD": 15, "AG": 15, "EN": 15, "MA": 14, "WP": 14},
    "rolls": {
        "points": 9,
        "hand": [2, 9],
        "aspect": 17,
        "social_status": 100,
        "birth_order": 100,
        "experience": 40,
        "silver": 100,
    },
}
RACE_ROLLS = {"giant": {"race_type": 2}, "shape-changer": {"race_type": 1}}


def allocation(**chosen: int) -> dict[str, int]:
    """88 points: the chosen values, the rest shared out over the other primaries (each 5 to 22)."""
    others = [code for code in ("PS", "MD", "AG", "EN", "MA", "WP") if code not in chosen]
    left = 88 - sum(chosen.values())
    shares = {
        code: left // len(others) + (1 if i < left % len(others) else 0) for i, code in enumerate(others)
    }
    assert all(5 <= value <= 22 for value in shares.values()), shares
    return {**chosen, **shares}


def build(tables: Tables, race: str = "human", **changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(BASE))
    data.update(changes)
    data["race"] = race
    if race != "human":
        data["race_attempts"] = [race]
        data["rolls"].update(race=[1], **RACE_ROLLS.get(race, {}))
        if race == "shape-changer":
            del data["rolls"]["aspect"]
    character: dict[str, Any] = to_document(api.build(json.dumps(data), "test.json", tables=tables))
    return character


def chart_ranges(chance: int) -> tuple[str | None, str | None]:
    """18.2 read by hand: (Endurance damage, Grievous Injury) for a Strike Chance, as `01-12` / `01`."""
    return special_damage(chance)


def test_our_chart_reads_15_and_5_percent_of_the_strike_chance() -> None:
    # 18: Endurance damage on a Strike Check of 15% or less of the chance, a Grievous Injury at 5% or less;
    # the chart rounds those to whole rolls, so each entry is within 1 of the percentage (to the 130+ cap).
    for chance in range(1, 137):
        endurance, grievous = chart_ranges(chance)
        assert endurance is not None
        assert abs(int(endurance[-2:]) - 0.15 * chance) < 1
        assert abs((int(grievous[-2:]) if grievous else 0) - 0.05 * chance) < 1
    assert chart_ranges(0) == (None, None)


def unarmed_at(chance: int) -> dict[str, Any]:
    """A character file whose unarmed Strike Chance (21) is `chance`: 2 x modified AG, +1 per PS above 15,
    + modified MD + 4 x Rank when ranked. Full Plate (AG -3) reaches below 10."""
    if chance < 10:
        return {"allocation": allocation(AG=5, PS=15 + chance - 4), "armor": "full-plate"}
    if chance < 15:
        return {"allocation": allocation(AG=5, PS=15 + chance - 10)}
    dexterity = 5 + (chance - 15) % 4
    return {
        "allocation": allocation(AG=5, PS=15, MD=dexterity),
        "unarmed_rank": (chance - 10 - dexterity) // 4,
    }


@pytest.mark.parametrize("chance", range(4, 161))
def test_special_damage_ranges_at_every_strike_chance(tables: Tables, chance: int) -> None:
    unarmed = build(tables, **unarmed_at(chance))["combat"]["unarmed"]
    assert unarmed["strike_chance"] == chance
    assert (unarmed["endurance_damage"], unarmed["grievous_injury"]) == chart_ranges(chance)


@pytest.mark.parametrize("strength", [13, 14, 15, 16])
def test_special_damage_ranges_at_the_lowest_strike_chances(tables: Tables, strength: int) -> None:
    # A dwarf (AG -2, PS +2, 6.4) with Agility 5 in Full Plate (AG -3) has modified Agility 0: the unarmed
    # chance is only the PS above 15, from 0 (no 18.2 row) to 3.
    character = build(tables, "dwarf", allocation=allocation(AG=5, PS=strength), armor="full-plate")
    unarmed = character["combat"]["unarmed"]
    assert unarmed["strike_chance"] == strength + 2 - 15
    assert (unarmed["endurance_damage"], unarmed["grievous_injury"]) == chart_ranges(strength + 2 - 15)


def test_special_damage_ranges_of_weapon_lines(tables: Tables) -> None:
    # Dagger: base 40, MD 10 (20.2); ranked: + MD + 4 x Rank (17.1); the chart is read at that chance.
    for rank in range(10):
        character = build(tables, allocation=allocation(MD=20), weapons=[{"name": "dagger", "rank": rank}])
        line = character["combat"]["weapons"][0]
        assert line["strike_chance"] == 40 + 20 + 4 * rank
        assert (line["endurance_damage"], line["grievous_injury"]) == chart_ranges(line["strike_chance"])


@pytest.mark.parametrize("race", sorted(AGILITY_AND_TMR))
@pytest.mark.parametrize("armor", [None, *ARMOR])
def test_armored_tmr_is_read_at_the_agility_the_armor_leaves(
    tables: Tables, race: str, armor: str | None
) -> None:
    agility_modifier, tmr_modifier = AGILITY_AND_TMR[race]
    loss = ARMOR[armor].agility_loss if armor else 0
    for agility in range(5, 23):
        kit = {"armor": armor} if armor else {}
        character = build(tables, race, allocation=allocation(AG=agility), **kit)
        final = agility + agility_modifier
        assert character["characteristics"]["AG"] == final
        assert character["tmr"] == max(1, tmr_for(final) + tmr_modifier)
        assert character["combat"]["modified_agility"] == final - loss
        assert character["combat"]["tmr"] == max(1, tmr_for(final - loss) + tmr_modifier)


@pytest.mark.parametrize("race", sorted(SIZES))
@pytest.mark.parametrize("gender", ["male", "female"])
def test_armor_cost_and_weight_follow_the_size(tables: Tables, race: str, gender: str) -> None:
    for armor, row in ARMOR.items():
        character = build(tables, race, gender=gender, armor=armor)
        price = math.ceil(
            row.cost * SIZES[race] / 6
        )  # man-size is 6; "proportionally", rounded up (our reading)
        assert character["starting_silver"] - character["silver_pennies"] == price, armor
        weight = (row.multiple - (0.5 if gender == "female" else 0)) * SIZES[race]
        assert character["combat"]["armor"]["weight"] == weight, armor
        worn = character["combat"]["armor"]
        assert (worn["protection"], worn["agility_loss"], worn["stealth_adjustment"]) == (
            row.protection,
            row.agility_loss,
            row.stealth,
        )


@pytest.mark.parametrize("shield", sorted(SHIELDS))
def test_shield_defense_dexterity_and_cost(tables: Tables, shield: str) -> None:
    row = SHIELDS[shield]
    for rank in (None, 0, 1, 3):
        item = {"name": shield} if rank is None else {"name": shield, "rank": rank}
        weapons = (
            [{"name": "main-gauche", "rank": rank}] if shield == "main-gauche" and rank is not None else []
        )
        character = build(tables, allocation=allocation(AG=14, MD=16), shield=item, weapons=weapons)
        combat = character["combat"]
        # 17.5: Defense = modified Agility + defense per Rank x Rank; MD lowered while the shield is prepared.
        assert combat["defense"] == 14 + row.defense_per_rank * (rank or 0)
        assert combat["modified_manual_dexterity"] == 16 - row.manual_dexterity_loss
        assert combat["breakage_check"] == 3 * (16 - row.manual_dexterity_loss)
        assert character["starting_silver"] - character["silver_pennies"] == row.cost


def test_given_armor_costs_nothing(tables: Tables) -> None:
    character = build(tables, "giant", armor="improved-plate", equipment_given=True)
    assert character["silver_pennies"] == character["starting_silver"]


@pytest.mark.parametrize("strength", [14, 17, 22])
def test_two_handed_damage_is_one_more_for_either_handed_weapons(tables: Tables, strength: int) -> None:
    names = sorted(tables.weapons)
    weapons = [{"name": name} for name in names if tables.weapons[name].cost is not None and name != "shield"]
    character = build(tables, allocation=allocation(PS=strength), weapons=weapons, equipment_given=True)
    for line in character["combat"]["weapons"]:
        if line["name"] not in EITHER_HANDED:
            assert "two_handed_damage" not in line, line["name"]
            continue
        minimum, modifier = EITHER_HANDED[line["name"]]
        one_hand = modifier - max(0, minimum - strength)  # 20.2: -1 per point of PS short
        assert line["damage_modifier"] == one_hand
        assert line["damage"] == damage_text(one_hand)
        assert line["two_handed_damage"] == damage_text(one_hand + 1), line["name"]
    assert {line["name"] for line in character["combat"]["weapons"]} >= set(EITHER_HANDED)
    assert len(EITHER_HANDED) == 8  # 20.2 marks eight weapons (1-2)
