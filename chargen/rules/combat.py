"""Combat values for the Character Record (rules 12.3, 17.1-17.5, 18.1-18.3, 19, 20.2, 21)."""

from __future__ import annotations

import math

from chargen.tables.schema import Armor, CombatFile, Shield, SpecialDamageRow, Weapon


def modified_agility(agility: int, armor: Armor | None) -> int:
    """18.1: armor lowers Agility for all purposes while worn."""
    return agility - (armor.agility_loss if armor else 0)


def modified_manual_dexterity(manual_dexterity: int, shield: Shield | None) -> int:
    """17.5: a prepared shield lowers Manual Dexterity for all purposes."""
    return manual_dexterity - (shield.manual_dexterity_loss if shield else 0)


def defense(modified_agility_value: int, shield: Shield | None, shield_rank: int | None) -> int:
    """17.5: Defense = modified Agility + the shield's defense per Rank x Rank."""
    if shield is None or shield_rank is None:
        return modified_agility_value
    return modified_agility_value + shield.defense_per_rank * shield_rank


def strike_chance(weapon: Weapon, modified_md: int, rank: int | None) -> int:
    """17.1 and 20.2: ranked = base + modified MD + 4 x Rank; unranked = base. -5 per point of MD short."""
    shortfall = max(0, weapon.md - modified_md)
    chance = weapon.base_chance - 5 * shortfall
    if rank is not None:
        chance += modified_md + 4 * rank
    return chance


def weapon_damage_modifier(weapon: Weapon, physical_strength: int, two_handed: bool = False) -> int | None:
    """20.2: the chart's modifier, -1 per point of PS below the minimum, +1 for a (1-2) weapon in two hands."""
    if weapon.damage_modifier is None:
        return None
    bonus = 1 if two_handed and weapon.hands == "1-2" else 0
    return weapon.damage_modifier - max(0, weapon.ps - physical_strength) + bonus


def damage_text(modifier: int | None, note: str | None = None) -> str:
    """`D10+4`, `D10`, `D10-3`; a variable damage keeps the chart's word."""
    if modifier is None:
        return f"D10 ({note})" if note else "D10"
    return f"D10{modifier:+d}" if modifier else "D10"


def initiative_value(modified_agility_value: int, perception_value: int, rank: int | None = None) -> int:
    """12.3: modified Agility + Perception (+ Rank with the prepared weapon)."""
    return modified_agility_value + perception_value + (rank or 0)


def unarmed_base_chance(modified_agility_value: int, physical_strength: int, rules: CombatFile) -> int:
    """21: modified Agility x 2, +1 per point of Physical Strength above 15."""
    unarmed = rules.unarmed
    above = max(0, physical_strength - unarmed.strength_threshold)
    return modified_agility_value * unarmed.agility_multiplier + above * unarmed.chance_per_strength_point


def unarmed_strike_chance(
    modified_agility_value: int, physical_strength: int, modified_md: int, rank: int | None, rules: CombatFile
) -> int:
    """21 with 17.1: a Rank in Unarmed Combat adds modified MD + 4 x Rank like any weapon."""
    chance = unarmed_base_chance(modified_agility_value, physical_strength, rules)
    if rank is not None:
        chance += modified_md + 4 * rank
    return chance


def unarmed_damage_modifier(physical_strength: int, rules: CombatFile) -> int:
    """21: D10 - 4, +1 per 3 full points of Physical Strength above 15."""
    unarmed = rules.unarmed
    above = max(0, physical_strength - unarmed.strength_threshold)
    return unarmed.damage_modifier + above // unarmed.strength_points_per_damage


def special_damage_row(rows: list[SpecialDamageRow], modified_strike_chance: int) -> SpecialDamageRow | None:
    """18.2: the Special Damage Chart row for a Strike Chance (None below 1: no hit is possible)."""
    for row in rows:
        if row.low <= modified_strike_chance and (row.high is None or modified_strike_chance <= row.high):
            return row
    return None


def roll_range(high: int | None) -> str | None:
    """`01-12` for rolls 1 to 12, `01` for a single roll, None for none."""
    if high is None:
        return None
    return "01" if high == 1 else f"01-{high:02d}"


def stun_threshold(endurance: int, rules: CombatFile) -> int:
    """19: the smallest effective damage from one strike that Stuns: more than a third of Endurance."""
    return math.floor(endurance / rules.stun.endurance_divisor) + 1


def stun_recovery(willpower: int, fatigue: int, rules: CombatFile) -> int:
    """19: recover from Stun on D100 at 2 x Willpower + current Fatigue or less (full Fatigue here)."""
    return rules.stun.recovery_willpower_multiplier * willpower + fatigue


def breakage_check(modified_md: int, rules: CombatFile) -> int:
    """17.3: a 99 (break) or 100 (drop) is avoided on D100 at 3 x modified Manual Dexterity or less."""
    return rules.breakage.manual_dexterity_multiplier * modified_md


def armor_weight(armor: Armor, size: int, female: bool) -> int | float:
    """18.1: the weight multiple times the race's size number; 0.5 off the multiple for a female figure.
    Pounds, as a whole number when it is one."""
    pounds = (armor.weight - (0.5 if female else 0)) * size
    return int(pounds) if pounds.is_integer() else pounds


def armor_cost(armor: Armor, size: int, human_size: int) -> int:
    """18.1: cost is for man-sized armor; other sizes cost proportionally (reading: x size / 6, rounded up)."""
    return math.ceil(armor.cost * size / human_size)
