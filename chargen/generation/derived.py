"""The derived values of a generated character, assembled into the character file in its fixed key order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chargen.character_file import SCHEMA_VERSION, CharacterInput, Item
from chargen.generation.equipment import Equipment
from chargen.generation.heritage import Heritage
from chargen.rules import combat as rules
from chargen.rules.characteristics import fatigue_from_endurance, perception, tmr_from_agility
from chargen.tables import Tables
from chargen.tables.schema import PointRow

EIGHT = ("PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC")


@dataclass(frozen=True)
class Generated:
    """What the generation steps decided, before the derived values are worked out."""

    spec: CharacterInput
    seed: int | None
    name: str
    strategy: str | None
    gender: str
    race: str
    race_attempts: list[str] | None
    race_type: str | None
    hand: str
    aspect: str
    points: PointRow
    allocation: dict[str, int]
    rolls: dict[str, Any]
    optional: dict[str, int]
    race_modifiers: dict[str, int]
    gender_modifiers: dict[str, int]
    heritage: Heritage
    equipment: Equipment
    equipment_given: bool
    cost: int


def _item(item: Item) -> dict[str, Any]:
    return {"name": item.name} if item.rank is None else {"name": item.name, "rank": item.rank}


def _modifier(generated: Generated, code: str) -> tuple[int, int]:
    return generated.race_modifiers.get(code, 0), generated.gender_modifiers.get(code, 0)


def final_characteristics(generated: Generated, tables: Tables) -> tuple[dict[str, int], list[str]]:
    """The eight characteristics (5.3, 5.4, 6.x) plus optional ones, and notes for the record."""
    table = tables.characteristics
    values = {code: generated.allocation[code] + sum(_modifier(generated, code)) for code in EIGHT[:6]}
    reading = fatigue_from_endurance(values["EN"], table.fatigue)
    values["FT"] = reading.value + sum(_modifier(generated, "FT"))
    values["PC"] = perception(table.perception.base, sum(_modifier(generated, "PC")))
    values.update(generated.optional)
    notes = []
    if reading.beyond_table:
        notes.append(
            f"Fatigue: Endurance {values['EN']} is beyond the printed 5.3 table; its step (one Fatigue per three "
            f"Endurance) was continued to read {reading.value} before modifiers."
        )
    return values, notes


def combat_values(generated: Generated, stats: dict[str, int], tables: Tables) -> dict[str, Any]:
    """Section 17-21 values a Character Record carries."""
    equipment, race = generated.equipment, tables.races[generated.race]
    armor = tables.armor.get(equipment.armor) if equipment.armor else None
    shield = tables.shields.get(equipment.shield.name) if equipment.shield else None
    racial_tmr = sum(_modifier(generated, "TMR"))
    agility = rules.modified_agility(stats["AG"], armor)
    dexterity = rules.modified_manual_dexterity(stats["MD"], shield)
    chart = tables.combat.special_damage.rows

    def special(chance: int) -> dict[str, str | None]:
        row = rules.special_damage_row(chart, chance)
        return {
            "endurance_damage": rules.roll_range(row.endurance_high if row else None),
            "grievous_injury": rules.roll_range(row.grievous_high if row else None),
        }

    weapons = []
    for item in equipment.weapons:
        weapon = tables.weapons[item.name]
        # 20: a prepared shield rules out a two-handed weapon, so a (2) weapon is used without its MD loss.
        weapon_dexterity = stats["MD"] if weapon.hands == "2" else dexterity
        chance = rules.strike_chance(weapon, weapon_dexterity, item.rank)
        modifier = rules.weapon_damage_modifier(weapon, stats["PS"])
        entry: dict[str, Any] = {
            "name": item.name,
            "rank": item.rank,
            "strike_chance": chance,
            "damage": rules.damage_text(modifier, weapon.damage_note),
            "damage_modifier": modifier,
        }
        if weapon.hands == "1-2":
            entry["two_handed_damage"] = rules.damage_text(
                rules.weapon_damage_modifier(weapon, stats["PS"], True)
            )
        entry["initiative"] = rules.initiative_value(agility, stats["PC"], item.rank)
        entry.update(special(chance))
        weapons.append(entry)

    unarmed_rank = generated.spec.unarmed_rank
    unarmed_chance = rules.unarmed_strike_chance(agility, stats["PS"], dexterity, unarmed_rank, tables.combat)
    unarmed: dict[str, Any] = {"rank": unarmed_rank} if unarmed_rank is not None else {}
    unarmed.update(
        strike_chance=unarmed_chance,
        damage=rules.damage_text(rules.unarmed_damage_modifier(stats["PS"], tables.combat)),
        initiative=rules.initiative_value(agility, stats["PC"], unarmed_rank),
        **special(unarmed_chance),
    )
    result: dict[str, Any] = {
        "modified_agility": agility,
        "modified_manual_dexterity": dexterity,
        "defense": rules.defense(agility, shield, equipment.shield.rank if equipment.shield else None),
        "tmr": tmr_from_agility(agility, tables.characteristics.tmr, racial_tmr),
        "initiative": rules.initiative_value(agility, stats["PC"]),
        "unarmed": unarmed,
        "weapons": weapons,
    }
    if armor is not None and equipment.armor is not None:
        result["armor"] = {
            "name": equipment.armor,
            "protection": armor.protection,
            "agility_loss": armor.agility_loss,
            "stealth_adjustment": armor.stealth_adjustment,
            "weight": rules.armor_weight(armor, race.size, generated.gender == "female"),
        }
    if shield is not None and equipment.shield is not None:
        result["shield"] = {
            "name": equipment.shield.name,
            "rank": equipment.shield.rank,
            "defense_per_rank": shield.defense_per_rank,
            "manual_dexterity_loss": shield.manual_dexterity_loss,
        }
    result["stun_threshold"] = rules.stun_threshold(stats["EN"], tables.combat)
    result["stun_recovery"] = rules.stun_recovery(stats["WP"], stats["FT"], tables.combat)
    result["breakage_check"] = rules.breakage_check(dexterity, tables.combat)
    return result


def character_document(generated: Generated, tables: Tables) -> dict[str, Any]:
    """The character file, keys in a fixed order; absent choices are left out rather than written as null."""
    stats, notes = final_characteristics(generated, tables)
    race = tables.races[generated.race]
    background = generated.heritage
    equipment = generated.equipment
    racial_tmr = sum(_modifier(generated, "TMR"))
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "name": generated.name,
        "seed": generated.seed,
        "strategy": generated.strategy,
        "gender": generated.gender,
        "race": generated.race,
        "race_attempts": generated.race_attempts,
        "race_type": generated.race_type,
        "hand": generated.hand,
        "aspect": generated.aspect,
        "points": {"total": generated.points.points, "maximum": generated.points.maximum},
        "allocation": dict(generated.allocation),
        "rolls": dict(generated.rolls),
        "weapons": [_item(item) for item in equipment.weapons],
        "armor": equipment.armor,
        "shield": _item(equipment.shield) if equipment.shield else None,
        "unarmed_rank": generated.spec.unarmed_rank,
        "equipment_given": generated.equipment_given,
        "characteristics": stats,
        "modifiers": {
            code: dict(zip(("race", "gender"), _modifier(generated, code), strict=True))
            for code in (*EIGHT, "TMR")
        },
        "tmr": tmr_from_agility(stats["AG"], tables.characteristics.tmr, racial_tmr),
        "experience_multiplier": race.experience_multiplier,
        "heritage": {
            "social_status": background.social_status,
            "money_multiplier": background.money_multiplier,
            "birth_order": background.birth_order,
            "sibling_rank": background.sibling_rank,
        },
        "experience_points": background.experience_points,
        "starting_silver": background.starting_silver,
        "silver_pennies": background.starting_silver - generated.cost,
        "combat": combat_values(generated, stats, tables),
        "notes": notes,
    }
    if background.sibling_rank is None:
        del document["heritage"]["sibling_rank"]
    return {key: value for key, value in document.items() if value is not None and value != []}
