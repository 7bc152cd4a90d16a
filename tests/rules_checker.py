"""An independent reading of the rules, used by the property tests to check whole characters.

Written from the book, not from chargen's modules: it re-reads each roll against the tables with its own
arithmetic, so a slip in the pipeline shows up as a disagreement.
"""

from __future__ import annotations

import math
from typing import Any

from chargen.tables import Tables

PRIMARIES = ("PS", "MD", "AG", "EN", "MA", "WP")


def between(row: Any, roll: int) -> bool:
    return bool(row.low <= roll <= row.high)


def fatigue_for(endurance: int) -> int:
    # 5.3: 3-4 -> 16, then one more per three points from 5-7 -> 17 (continued past 27 for giants).
    return 16 if endurance <= 4 else 17 + (endurance - 5) // 3


def tmr_for(agility: int) -> int:
    # 5.6 rows, lowest row below 3.
    for low, high, value in (
        (3, 4, 2),
        (5, 8, 3),
        (9, 12, 4),
        (13, 17, 5),
        (18, 21, 6),
        (22, 25, 7),
        (26, 27, 8),
    ):
        if low <= agility <= high:
            return value
    return 2 if agility < 3 else 8


def check_character(doc: dict[str, Any], tables: Tables) -> None:
    rolls = doc["rolls"]
    # 5.1
    row = next(r for r in tables.characteristics.point_generation.rows if r.roll == rolls["points"])
    assert doc["points"] == {"total": row.points, "maximum": row.maximum}
    # 5.2
    allocation = doc["allocation"]
    values = [allocation[code] for code in PRIMARIES]
    assert sum(values) == row.points
    assert all(5 <= value <= row.maximum for value in values)
    assert values.count(row.maximum) <= (2 if row.maximum in (19, 20) else 1)
    # 6.2
    d5, d10 = rolls["hand"]
    assert doc["hand"] == ("right" if d10 > d5 else "left" if d5 > d10 else "ambidextrous")
    # 6.3: attempts at different non-human races, first success binds, else human
    attempts = doc.get("race_attempts")
    if attempts is not None:
        assert len(set(attempts)) == len(attempts) <= 3
        chances = [tables.races[race].chance for race in attempts]
        successes = [roll <= chance for roll, chance in zip(rolls["race"], chances, strict=True)]
        assert len(rolls["race"]) == len(attempts)
        assert not any(successes[:-1])
        assert doc["race"] == (attempts[-1] if successes[-1] else "human")
    race = tables.races[doc["race"]]
    # 6.6/6.9 types
    if race.types:
        assert between(race.types[doc["race_type"]], rolls["race_type"])
    else:
        assert "race_type" not in doc
    # 7.1, and 6.9: shape-changers are Moon aspected without a roll
    if doc["race"] == "shape-changer":
        assert doc["aspect"] == "moon" and "aspect" not in rolls
    else:
        assert between(tables.aspects[doc["aspect"]], rolls["aspect"])
    # 6.1 and 6.4-6.9 modifiers, then 5.3, 5.4, 5.6
    race_mods = dict(race.modifiers)
    if race.types:
        for code, amount in race.types[doc["race_type"]].modifiers.items():
            race_mods[code] = race_mods.get(code, 0) + amount
    gender_mods = {"PS": -2, "MD": 1, "FT": 1} if doc["gender"] == "female" else {}
    stats = doc["characteristics"]
    for code in PRIMARIES:
        assert stats[code] == allocation[code] + race_mods.get(code, 0) + gender_mods.get(code, 0)
    assert stats["FT"] == fatigue_for(stats["EN"]) + race_mods.get("FT", 0) + gender_mods.get("FT", 0)
    assert stats["PC"] == 8 + race_mods.get("PC", 0)
    assert doc["tmr"] == max(1, tmr_for(stats["AG"]) + race_mods.get("TMR", 0))
    assert doc["experience_multiplier"] == race.experience_multiplier
    assert (stats["EN"] > 27) == any("Fatigue" in note for note in doc.get("notes", []))
    # 8.1-8.5
    heritage = doc["heritage"]
    status = tables.heritage.social_status.rows[heritage["social_status"]]
    assert between(status, rolls["social_status"]) and heritage["money_multiplier"] == status.money_multiplier
    band = tables.heritage.birth_order.bands[heritage["social_status"]]
    order_roll = rolls["birth_order"]
    expected_order = (
        "bastard"
        if order_roll <= band.bastard
        else "legitimate"
        if order_roll <= band.legitimate
        else "first-child"
    )
    assert heritage["birth_order"] == expected_order
    assert ("sibling_rank" in heritage) == (expected_order == "legitimate") == ("sibling_rank" in rolls)
    allotment = tables.heritage.starting_allotment.rows
    experience = next(r.experience for r in allotment if between(r, rolls["experience"]))
    silver = next(r.silver for r in allotment if between(r, rolls["silver"]))
    money_factor, experience_factor = {
        "bastard": (0.5, 1.25),
        "legitimate": (1, 1),
        "first-child": (1.5, 0.75),
    }[expected_order]
    assert doc["experience_points"] == math.floor(experience * experience_factor)
    assert doc["starting_silver"] == math.floor(silver * status.money_multiplier * money_factor)
    # 8.7: kit within the purse unless given; Ranks within 20.2
    spent = doc["starting_silver"] - doc["silver_pennies"]
    assert spent >= 0
    if doc["equipment_given"]:
        assert spent == 0
    for item in doc.get("weapons", []):
        weapon = tables.weapons[item["name"]]
        if "rank" in item:
            assert weapon.max_rank is not None and item["rank"] <= weapon.max_rank
            assert stats["PS"] >= weapon.ps and stats["MD"] >= weapon.md
    check_combat(doc, tables)


def check_combat(doc: dict[str, Any], tables: Tables) -> None:
    stats, fight = doc["characteristics"], doc["combat"]
    armor = tables.armor[doc["armor"]] if "armor" in doc else None
    shield = tables.shields[doc["shield"]["name"]] if "shield" in doc else None
    agility = stats["AG"] - (armor.agility_loss if armor else 0)
    dexterity = stats["MD"] - (shield.manual_dexterity_loss if shield else 0)
    assert fight["modified_agility"] == agility
    assert fight["modified_manual_dexterity"] == dexterity
    shield_rank = doc["shield"].get("rank") if "shield" in doc else None
    assert fight["defense"] == agility + (
        shield.defense_per_rank * shield_rank if shield and shield_rank else 0
    )
    assert fight["initiative"] == agility + stats["PC"]
    for item, line in zip(doc.get("weapons", []), fight["weapons"], strict=True):
        weapon = tables.weapons[item["name"]]
        rank = item.get("rank")
        # Section 20: a shield and a two-handed weapon are never prepared together.
        hand_dexterity = stats["MD"] if weapon.hands == "2" else dexterity
        expected = weapon.base_chance - 5 * max(0, weapon.md - hand_dexterity)
        if rank is not None:
            expected += hand_dexterity + 4 * rank
        assert line["strike_chance"] == expected
        assert line["initiative"] == agility + stats["PC"] + (rank or 0)
        if weapon.damage_modifier is not None:
            assert line["damage_modifier"] == weapon.damage_modifier - max(0, weapon.ps - stats["PS"])
    above = max(0, stats["PS"] - 15)
    assert fight["unarmed"]["strike_chance"] == agility * 2 + above
    assert fight["unarmed"]["damage"] == "D10" + (f"{-4 + above // 3:+d}" if -4 + above // 3 else "")
    assert fight["stun_threshold"] * 3 > stats["EN"] >= (fight["stun_threshold"] - 1) * 3
    assert fight["stun_recovery"] == 2 * stats["WP"] + stats["FT"]
    assert fight["breakage_check"] == 3 * dexterity
