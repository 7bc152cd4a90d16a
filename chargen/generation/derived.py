"""The derived values of a generated character (5.3-5.4, 12.3, 17-21), assembled into the typed Character."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.character_file import CharacterInput, Item
from chargen.generation.equipment import Equipment
from chargen.generation.heritage import Heritage as Background
from chargen.model import (
    ArmorLine,
    Carried,
    Character,
    Characteristics,
    Combat,
    Heritage,
    Modifier,
    Points,
    Roll,
    ShieldLine,
    UnarmedLine,
    WeaponLine,
)
from chargen.rules import combat as rules
from chargen.rules.characteristics import fatigue_from_endurance, perception, tmr_from_agility
from chargen.tables import Tables
from chargen.tables.schema import Armor, PointRow, Shield
from chargen.vocabulary import EIGHT, PRIMARIES


@dataclass(frozen=True)
class Generated:
    """What the generation steps decided, before the derived values are worked out."""

    spec: CharacterInput
    seed: int | None
    name: str
    archetype: str | None
    gender: str
    race: str
    race_attempts: list[str] | None
    race_type: str | None
    hand: str
    aspect: str
    points: PointRow
    allocation: dict[str, int]
    rolls: dict[str, Roll]
    optional: dict[str, int]
    race_modifiers: dict[str, int]
    gender_modifiers: dict[str, int]
    heritage: Background
    equipment: Equipment
    equipment_given: bool
    cost: int

    def modifier(self, code: str) -> Modifier:
        return Modifier(self.race_modifiers.get(code, 0), self.gender_modifiers.get(code, 0))

    def total_modifier(self, code: str) -> int:
        return self.race_modifiers.get(code, 0) + self.gender_modifiers.get(code, 0)


def final_characteristics(generated: Generated, tables: Tables) -> tuple[Characteristics, list[str]]:
    """The eight characteristics (5.3, 5.4, 6.x) plus optional ones, and notes for the record."""
    table = tables.characteristics
    values = {code: generated.allocation[code] + generated.total_modifier(code) for code in PRIMARIES}
    reading = fatigue_from_endurance(values["EN"], table.fatigue)
    values["FT"] = reading.value + generated.total_modifier("FT")
    values["PC"] = perception(table.perception.base, generated.total_modifier("PC"))
    notes = []
    if reading.beyond_table:
        notes.append(
            f"Fatigue: Endurance {values['EN']} is beyond the printed 5.3 table; its step (one Fatigue per three "
            f"Endurance) was continued to read {reading.value} before modifiers."
        )
    return Characteristics(**values, optional=dict(generated.optional)), notes


def _special(chance: int, tables: Tables) -> tuple[str | None, str | None]:
    """18.2: (endurance damage, grievous injury) roll ranges at this Strike Chance."""
    row = rules.special_damage_row(tables.combat.special_damage.rows, chance)
    return (
        rules.roll_range(row.endurance_high if row else None),
        rules.roll_range(row.grievous_high if row else None),
    )


def weapon_line(
    item: Item, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> WeaponLine:
    """One weapon's Strike Chance, damage and Initiative (17.1, 20.2, 12.3, 18.2)."""
    weapon = tables.weapons[item.name]
    # 20: a prepared shield rules out a two-handed weapon, so a (2) weapon is used without its MD loss.
    weapon_dexterity = stats.MD if weapon.hands == "2" else dexterity
    chance = rules.strike_chance(weapon, weapon_dexterity, item.rank, tables.combat)
    modifier = rules.weapon_damage_modifier(weapon, stats.PS, tables.combat)
    two_handed = None
    if weapon.hands == "1-2":
        two_handed = rules.damage_text(rules.weapon_damage_modifier(weapon, stats.PS, tables.combat, True))
    endurance, grievous = _special(chance, tables)
    return WeaponLine(
        name=item.name,
        rank=item.rank,
        strike_chance=chance,
        damage=rules.damage_text(modifier, weapon.damage_note),
        damage_modifier=modifier,
        initiative=rules.initiative_value(agility, stats.PC, tables.combat, item.rank),
        endurance_damage=endurance,
        grievous_injury=grievous,
        two_handed_damage=two_handed,
    )


def unarmed_line(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> UnarmedLine:
    """Unarmed Combat (21), with 17.1's Rank terms when the character has a Rank in it."""
    chance = rules.unarmed_strike_chance(agility, stats.PS, dexterity, rank, tables.combat)
    endurance, grievous = _special(chance, tables)
    return UnarmedLine(
        rank=rank,
        strike_chance=chance,
        damage=rules.damage_text(rules.unarmed_damage_modifier(stats.PS, tables.combat)),
        initiative=rules.initiative_value(agility, stats.PC, tables.combat, rank),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


def armor_line(generated: Generated, armor: Armor | None, tables: Tables) -> ArmorLine | None:
    if armor is None or generated.equipment.armor is None:
        return None
    size = tables.races[generated.race].size
    return ArmorLine(
        name=generated.equipment.armor,
        protection=armor.protection,
        agility_loss=armor.agility_loss,
        stealth_adjustment=armor.stealth_adjustment,
        weight=rules.armor_weight(armor, size, generated.gender, tables.armor_file),
    )


def shield_line(item: Item | None, shield: Shield | None) -> ShieldLine | None:
    if shield is None or item is None:
        return None
    return ShieldLine(
        name=item.name,
        rank=item.rank,
        defense_per_rank=shield.defense_per_rank,
        manual_dexterity_loss=shield.manual_dexterity_loss,
    )


def combat_values(generated: Generated, stats: Characteristics, tables: Tables) -> Combat:
    """Section 12 and 17-21 values a Character Record carries."""
    equipment = generated.equipment
    armor = tables.armor.get(equipment.armor) if equipment.armor else None
    shield = tables.shields.get(equipment.shield.name) if equipment.shield else None
    agility = rules.modified_agility(stats.AG, armor)
    dexterity = rules.modified_manual_dexterity(stats.MD, shield)
    shield_rank = equipment.shield.rank if equipment.shield else None
    return Combat(
        modified_agility=agility,
        modified_manual_dexterity=dexterity,
        defense=rules.defense(agility, shield, shield_rank),
        tmr=tmr_from_agility(agility, tables.characteristics.tmr, generated.total_modifier("TMR")),
        initiative=rules.initiative_value(agility, stats.PC, tables.combat),
        unarmed=unarmed_line(generated.spec.unarmed_rank, stats, dexterity, agility, tables),
        weapons=[weapon_line(item, stats, dexterity, agility, tables) for item in equipment.weapons],
        armor=armor_line(generated, armor, tables),
        shield=shield_line(equipment.shield, shield),
        stun_threshold=rules.stun_threshold(stats.EN, tables.combat),
        stun_recovery=rules.stun_recovery(stats.WP, stats.FT, tables.combat),
        breakage_check=rules.breakage_check(dexterity, tables.combat),
    )


def character(generated: Generated, tables: Tables) -> Character:
    """The whole typed Character: the decisions of the steps and everything derived from them."""
    stats, notes = final_characteristics(generated, tables)
    background = generated.heritage
    equipment = generated.equipment
    return Character(
        name=generated.name,
        seed=generated.seed,
        archetype=generated.archetype,
        gender=generated.gender,
        race=generated.race,
        race_attempts=generated.race_attempts,
        race_type=generated.race_type,
        hand=generated.hand,
        aspect=generated.aspect,
        points=Points(generated.points.points, generated.points.maximum),
        allocation=dict(generated.allocation),
        rolls=dict(generated.rolls),
        weapons=[Carried(item.name, item.rank) for item in equipment.weapons],
        armor=equipment.armor,
        shield=Carried(equipment.shield.name, equipment.shield.rank) if equipment.shield else None,
        unarmed_rank=generated.spec.unarmed_rank,
        equipment_given=generated.equipment_given,
        characteristics=stats,
        modifiers={code: generated.modifier(code) for code in (*EIGHT, "TMR")},
        tmr=tmr_from_agility(stats.AG, tables.characteristics.tmr, generated.total_modifier("TMR")),
        experience_multiplier=tables.races[generated.race].experience_multiplier,
        heritage=Heritage(
            social_status=background.social_status,
            money_multiplier=background.money_multiplier,
            birth_order=background.birth_order,
            sibling_rank=background.sibling_rank,
        ),
        experience_points=background.experience_points,
        starting_silver=background.starting_silver,
        silver_pennies=background.starting_silver - generated.cost,
        combat=combat_values(generated, stats, tables),
        notes=notes,
    )
