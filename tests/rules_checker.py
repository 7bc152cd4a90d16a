"""An independent reading of the rules, used by the tests to check whole characters.

Written from the book, not from chargen's modules: `expected_values` works out every derived value of a
character from its choices and rolls alone (allocation, race, gender, rolls, weapons, armor, shield), with
its own arithmetic and its own copy of the rule numbers; `check_character` compares a character with it.
Its charts are transcribed from the rules text in tests/rules_charts.py; only the heritage tables (8.1-8.5),
the race-type and aspect roll ranges, display names and damage notes are read from chargen's tables.
"""

from __future__ import annotations

import math
from typing import Any

from chargen.tables import Tables
from tests.rules_charts import (
    ALSO_THROWN,
    ARMOR,
    BIRTH_FACTORS,
    BREAK_ROLL,
    BREAKAGE_MD_TIMES,
    FEMALE,
    FEMALE_ARMOR_MULTIPLE,
    GIANT_AVERAGE_TMR,
    GIANT_TYPES,
    HUMAN_AVERAGE_TMR,
    INCREASE_BREAKAGE_STEP,
    INCREASE_PS_STEP,
    INCREASE_RANK_STEP,
    MAN_SIZE,
    MD_SHORTFALL_PENALTY,
    PER_RANK,
    PERCEPTION,
    RACES,
    RECOVERY_WP_TIMES,
    SHIELDS,
    SIZES,
    SPECIAL_DAMAGE,
    STUN_FRACTION,
    THROWN_OR_MISSILE,
    TMR_ROWS,
    TWO_HANDED_BONUS,
    UNARMED_AGILITY_TIMES,
    UNARMED_DAMAGE,
    UNARMED_PS_FROM,
    UNARMED_PS_PER_DAMAGE,
    WEAPONS,
)

PRIMARIES = ("PS", "MD", "AG", "EN", "MA", "WP")


def between(row: Any, roll: int) -> bool:
    return bool(row.low <= roll <= row.high)


def fatigue_for(endurance: int) -> int:
    # 5.3: 3-4 -> 16, then one more per three points from 5-7 -> 17 (continued past 27 for giants).
    return 16 if endurance <= 4 else 17 + (endurance - 5) // 3


def tmr_for(agility: int) -> int:
    # 5.6 rows, lowest row below 3.
    for low, high, value in TMR_ROWS:
        if low <= agility <= high:
            return value
    return 2 if agility < 3 else 8


def tmr_of(doc: dict[str, Any], agility: int) -> int:
    """5.6, and 14.1 for a giant type whose average TMR the rules text gives."""
    chart = tmr_for(agility)
    average = GIANT_AVERAGE_TMR.get(doc.get("race_type", "")) if doc["race"] == "giant" else None
    if average is not None:
        chart += average - HUMAN_AVERAGE_TMR
    return max(1, chart + race_modifiers(doc).get("TMR", 0))


def special_damage(chance: int) -> tuple[str | None, str | None]:
    """18.2 at a Strike Chance: the (Endurance damage, Grievous Injury) roll ranges as the record prints them."""
    if chance < 1:
        return None, None
    _, grievous, endurance = [row for row in SPECIAL_DAMAGE if row[0] <= chance][-1]
    return roll_range(endurance), roll_range(grievous)


def roll_range(high: int | None) -> str | None:
    if high is None:
        return None
    return "01" if high == 1 else f"01-{high:02d}"


def damage_text(modifier: int | None, note: str | None = None) -> str:
    if modifier is None:
        return f"D10 ({note})" if note else "D10"
    return f"D10{modifier:+d}" if modifier else "D10"


def armor_weight(armor: str, race: str, female: bool) -> float:
    """18.1: pounds = (multiple, less 0.5 for a female figure) x the race's size number."""
    return (ARMOR[armor].multiple - (FEMALE_ARMOR_MULTIPLE if female else 0)) * SIZES[race]


def armor_cost(armor: str, race: str) -> int:
    """18.1: cost is for man-sized armor; other sizes in proportion (reading: x size / 6, rounded up)."""
    return math.ceil(ARMOR[armor].cost * SIZES[race] / MAN_SIZE)


def race_modifiers(doc: dict[str, Any]) -> dict[str, int]:
    """6.4-6.9: the race's modifiers, with a giant's type added (6.6)."""
    mods = dict(RACES[doc["race"]][2])
    if doc["race"] == "giant":
        for code, amount in GIANT_TYPES[doc["race_type"]].items():
            mods[code] = mods.get(code, 0) + amount
    return mods


def expected_characteristics(doc: dict[str, Any], tables: Tables) -> dict[str, int]:
    """5.2-5.6 and 6.1-6.9 from the allocation, race and gender; optional PB from its 4D5 (+3, 5.5)."""
    race_mods = race_modifiers(doc)
    gender_mods = FEMALE if doc["gender"] == "female" else {}
    stats = {
        code: doc["allocation"][code] + race_mods.get(code, 0) + gender_mods.get(code, 0)
        for code in PRIMARIES
    }
    stats["FT"] = fatigue_for(stats["EN"]) + race_mods.get("FT", 0) + gender_mods.get("FT", 0)
    stats["PC"] = PERCEPTION + race_mods.get("PC", 0)
    if "beauty" in doc["rolls"]:
        stats["PB"] = sum(doc["rolls"]["beauty"]) + 3
    return stats


def expected_purse(doc: dict[str, Any], tables: Tables) -> dict[str, int]:
    """8.1-8.5 money and experience, and 8.7 the kit paid from the purse (armor priced by size)."""
    rolls, heritage = doc["rolls"], doc["heritage"]
    status = tables.heritage.social_status.rows[heritage["social_status"]]
    allotment = tables.heritage.starting_allotment.rows
    experience = next(r.experience for r in allotment if between(r, rolls["experience"]))
    silver = next(r.silver for r in allotment if between(r, rolls["silver"]))
    money_factor, experience_factor = BIRTH_FACTORS[heritage["birth_order"]]
    starting = math.floor(silver * status.money_multiplier * money_factor)
    spent = 0
    if not doc["equipment_given"]:
        shield_name = doc["shield"]["name"] if "shield" in doc else None
        for item in doc.get("weapons", []):
            # 16.5 and 17.5: a shield used to strike, and the Main-Gauche, are paid for as the shield.
            if item["name"] not in ("shield", shield_name):
                spent += WEAPONS[item["name"]].cost or 0
        if "armor" in doc:
            spent += armor_cost(doc["armor"], doc["race"])
        if shield_name:
            spent += SHIELDS[shield_name].cost
    return {
        "experience_points": math.floor(experience * experience_factor),
        "starting_silver": starting,
        "silver_pennies": starting - spent,
    }


def expected_increase(item: dict[str, Any], strength: int, damage: str) -> dict[str, Any]:
    """18.5 on one weapon: Rank when the file says so, else Physical Strength (none for Thrown or Missile
    Weapons; a melee weapon that may be thrown does its plain damage when thrown)."""
    name = item["name"]
    if item.get("increase") == "rank":
        return {"system": "rank", "bonus": item.get("rank", 0) // INCREASE_RANK_STEP}
    over = strength - WEAPONS[name].ps
    bonus = 0 if name in THROWN_OR_MISSILE or over < INCREASE_PS_STEP else over // INCREASE_PS_STEP
    if not bonus:
        return {"system": "strength", "bonus": 0}
    first_break = BREAK_ROLL - INCREASE_BREAKAGE_STEP * bonus
    increase = {
        "system": "strength",
        "bonus": bonus,
        "breaks_on": f"{first_break:02d}-{BREAK_ROLL}",
        "strike_chance_cap": first_break - 1,
    }
    if name in ALSO_THROWN:
        increase["thrown_damage"] = damage
    return increase


def expected_weapon_line(
    item: dict[str, Any],
    stats: dict[str, int],
    agility: int,
    dexterity: int,
    tables: Tables,
    increased: bool = False,
) -> dict[str, Any]:
    weapon = WEAPONS[item["name"]]
    rank = item.get("rank")
    # Section 20: a shield and a two-handed weapon are never prepared together.
    hand_dexterity = stats["MD"] if weapon.hands == "2" else dexterity
    chance = weapon.base_chance - MD_SHORTFALL_PENALTY * max(0, weapon.md - hand_dexterity)
    if rank is not None:
        chance += hand_dexterity + PER_RANK * rank
    modifier = None
    if weapon.damage_modifier is not None:
        modifier = weapon.damage_modifier - max(0, weapon.ps - stats["PS"])
    line: dict[str, Any] = {
        "name": item["name"],
        "rank": rank,
        "strike_chance": chance,
        "damage": damage_text(modifier, tables.weapons[item["name"]].damage_note),
        "damage_modifier": modifier,
    }
    increase = expected_increase(item, stats["PS"], line["damage"]) if increased else None
    if increase and modifier is not None:  # 18.5's bonus is in the damage, one- and two-handed
        modifier += increase["bonus"]
        line["damage"] = damage_text(modifier)
        line["damage_modifier"] = modifier
    if weapon.hands == "1-2":
        line["two_handed_damage"] = damage_text(None if modifier is None else modifier + TWO_HANDED_BONUS)
    line["initiative"] = agility + stats["PC"] + (rank or 0)
    line["endurance_damage"], line["grievous_injury"] = special_damage(chance)
    if increase is not None:
        line["increase"] = increase
    return line


def expected_combat(doc: dict[str, Any], stats: dict[str, int], tables: Tables) -> dict[str, Any]:
    """Sections 12 and 17-21: everything under `combat:`, from the characteristics and the kit."""
    armor = ARMOR[doc["armor"]] if "armor" in doc else None
    shield = SHIELDS[doc["shield"]["name"]] if "shield" in doc else None
    shield_rank = doc["shield"].get("rank") if "shield" in doc else None
    ready, ready_rank, ready_name = shield, shield_rank, doc["shield"]["name"] if "shield" in doc else None
    weapons = doc.get("weapons", [])
    if weapons and WEAPONS[weapons[0]["name"]].hands == "2":
        ready = ready_rank = None  # 20: a two-handed weapon and a prepared shield never go together
    elif ready is None:  # 17.5 note: a ranked Main-Gauche is a shield too (17.6: the Mouser's Defense 22)
        gauche = next(
            (item for item in weapons if item["name"] == "main-gauche" and item.get("rank") is not None), None
        )
        if gauche is not None:
            ready, ready_rank, ready_name = SHIELDS["main-gauche"], gauche["rank"], "main-gauche"
    agility = stats["AG"] - (armor.agility_loss if armor else 0)
    dexterity = stats["MD"] - (shield.manual_dexterity_loss if shield else 0)
    above = max(0, stats["PS"] - UNARMED_PS_FROM)
    unarmed_rank = doc.get("unarmed_rank")
    unarmed_chance = agility * UNARMED_AGILITY_TIMES + above
    unarmed: dict[str, Any] = {}
    if unarmed_rank is not None:
        unarmed_chance += dexterity + PER_RANK * unarmed_rank
        unarmed["rank"] = unarmed_rank
    unarmed["strike_chance"] = unarmed_chance
    unarmed["damage"] = damage_text(UNARMED_DAMAGE + above // UNARMED_PS_PER_DAMAGE)
    unarmed["initiative"] = agility + stats["PC"] + (unarmed_rank or 0)
    unarmed["endurance_damage"], unarmed["grievous_injury"] = special_damage(unarmed_chance)
    combat: dict[str, Any] = {
        "modified_agility": agility,
        "modified_manual_dexterity": dexterity,
        "defense": agility + (ready.defense_per_rank * ready_rank if ready and ready_rank else 0),
        "tmr": tmr_of(doc, agility),
        "initiative": agility + stats["PC"],
        "unarmed": unarmed,
        "weapons": [
            expected_weapon_line(item, stats, agility, dexterity, tables, "18.5" in doc.get("optional", []))
            for item in doc.get("weapons", [])
        ],
        "stun_threshold": stats["EN"] // STUN_FRACTION + 1,
        "stun_recovery": RECOVERY_WP_TIMES * stats["WP"] + stats["FT"],
        "breakage_check": BREAKAGE_MD_TIMES * dexterity,
    }
    if armor is not None:
        combat["armor"] = {
            "name": doc["armor"],
            "protection": armor.protection,
            "agility_loss": armor.agility_loss,
            "stealth_adjustment": armor.stealth,
            "weight": armor_weight(doc["armor"], doc["race"], doc["gender"] == "female"),
        }
    shown = shield if shield is not None else ready
    if shown is not None:
        combat["shield"] = {
            "name": doc["shield"]["name"] if shield is not None else ready_name,
            "rank": shield_rank if shield is not None else ready_rank,
            "defense_per_rank": shown.defense_per_rank,
            "manual_dexterity_loss": shown.manual_dexterity_loss,
        }
    return combat


def expected_values(doc: dict[str, Any], tables: Tables) -> dict[str, Any]:
    """Every derived value of a character, from its choices and rolls only (never from its derived keys)."""
    stats = expected_characteristics(doc, tables)
    return {
        "characteristics": stats,
        "tmr": tmr_of(doc, stats["AG"]),
        "experience_multiplier": RACES[doc["race"]][1],
        **expected_purse(doc, tables),
        "combat": expected_combat(doc, stats, tables),
    }


def check_character(doc: dict[str, Any], tables: Tables) -> None:
    rolls = doc["rolls"]
    # 5.1
    # 5.1 Point Generation Table: 2D10 of 2 gives 81 points, one more per pip; the maximum is 25 for 2-3,
    # then one less per three pips (24 for 4-6 ... 19 for 19-20).
    points, maximum = 79 + rolls["points"], 25 - (rolls["points"] - 1) // 3
    assert doc["points"] == {"total": points, "maximum": maximum}
    # 5.2
    allocation = doc["allocation"]
    values = [allocation[code] for code in PRIMARIES]
    assert sum(values) == points
    assert all(5 <= value <= maximum for value in values)
    assert values.count(maximum) <= (2 if maximum in (19, 20) else 1)
    # 6.2
    d5, d10 = rolls["hand"]
    assert doc["hand"] == ("right" if d10 > d5 else "left" if d5 > d10 else "ambidextrous")
    # 6.3: attempts at different non-human races, first success binds, else human
    attempts = doc.get("race_attempts")
    if attempts is not None:
        assert len(set(attempts)) == len(attempts) <= 3
        chances = [RACES[race][0] for race in attempts]
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
    check_heritage(doc, tables)
    expected = expected_values(doc, tables)
    for key, value in expected.items():
        assert doc[key] == value, f"{key}: the character has {doc[key]!r}, the rules give {value!r}"
    assert (doc["characteristics"]["EN"] > 27) == any("Fatigue" in note for note in doc.get("notes", []))
    # 8.7: kit within the purse unless given; Ranks within 20.2
    assert doc["silver_pennies"] >= 0
    for item in doc.get("weapons", []):
        weapon = WEAPONS[item["name"]]
        if "rank" in item:
            assert weapon.max_rank is not None and item["rank"] <= weapon.max_rank
            stats = doc["characteristics"]
            assert stats["PS"] >= weapon.ps and stats["MD"] >= weapon.md


def check_heritage(doc: dict[str, Any], tables: Tables) -> None:
    """8.1-8.4: social status and order of birth read from their rolls."""
    rolls, heritage = doc["rolls"], doc["heritage"]
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
