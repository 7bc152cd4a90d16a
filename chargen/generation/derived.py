"""The derived values of a generated character (5.3-5.4, 12.3, 17-21), assembled into the typed Character."""

from __future__ import annotations

from typing import TypeVar

from chargen.character_file import Item
from chargen.generation.decisions import Decisions
from chargen.model import (
    ArmorLine,
    Carried,
    Character,
    Characteristics,
    Combat,
    Heritage,
    Points,
    ShieldLine,
    UnarmedLine,
    WeaponLine,
)
from chargen.rules import combat as rules
from chargen.rules.characteristics import fatigue_from_endurance, perception, tmr_from_agility
from chargen.rules.damage_increase import optional_rules, with_damage_increase
from chargen.tables import Tables
from chargen.tables.schema import Armor, Shield
from chargen.vocabulary import PRIMARIES

Key = TypeVar("Key")
Line = TypeVar("Line")
#: The most weapon (or unarmed) lines kept per Tables: far more than a batch of NPCs meets.
KEPT_LINES = 100_000


def final_characteristics(decided: Decisions, tables: Tables) -> tuple[Characteristics, list[str]]:
    """The eight characteristics (5.3, 5.4, 6.x) plus optional ones, and notes for the record."""
    table = tables.characteristics
    modifiers = decided.modifiers
    values = {code: decided.points.allocation[code] + modifiers.total[code] for code in PRIMARIES}
    reading = fatigue_from_endurance(values["EN"], table.fatigue, tables.index.fatigue)
    values["FT"] = reading.value + modifiers.total["FT"]
    values["PC"] = perception(table.perception.base, modifiers.total["PC"])
    notes = []
    if reading.beyond_table:
        notes.append(
            f"Fatigue: Endurance {values['EN']} is beyond the printed 5.3 table; its step (one Fatigue per three "
            f"Endurance) was continued to read {reading.value} before modifiers."
        )
    return Characteristics(**values, optional=dict(decided.optional)), notes


def _special(chance: int, tables: Tables) -> tuple[str | None, str | None]:
    """18.2: (endurance damage, grievous injury) roll ranges at this Strike Chance (each chance read once)."""
    chart = tables.combat.special_damage
    known = chart.read.get(chance)
    if known is None:
        row = rules.special_damage_row(chart.rows, chance)
        known = chart.read[chance] = (
            rules.roll_range(row.endurance_high if row else None),
            rules.roll_range(row.grievous_high if row else None),
        )
    return known


def _kept(lines: dict[Key, Line], key: Key, line: Line) -> Line:
    """`line` kept under `key`; the store emptied first when full (a long run meets only so many values)."""
    if len(lines) >= KEPT_LINES:
        lines.clear()
    lines[key] = line
    return line


def weapon_line(
    item: Item, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> WeaponLine:
    """One weapon's Strike Chance, damage and Initiative (17.1, 20.2, 12.3, 18.2), worked out once per Tables
    for each weapon, Rank and the five values it reads (a WeaponLine is never changed once made; most
    characters of a batch share their lines with earlier ones)."""
    key = (item.name, item.rank, dexterity, agility, stats.MD, stats.PS, stats.PC)
    known = tables.index.weapon_lines.get(key)
    if known is None:
        known = _kept(tables.index.weapon_lines, key, _weapon_line(item, stats, dexterity, agility, tables))
    return known


def _weapon_line(
    item: Item, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> WeaponLine:
    weapon = tables.weapons[item.name]
    # 20: a prepared shield rules out a two-handed weapon, so a (2) weapon is used without its MD loss.
    weapon_dexterity = stats.MD if weapon.hands == "2" else dexterity
    chance = rules.strike_chance(weapon, weapon_dexterity, item.rank, tables.combat, stats.MD, stats.PS)
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
    """Unarmed Combat (21), with 17.1's Rank terms when the character has a Rank in it; worked out once per
    Tables for each Rank and the values it reads, as `weapon_line`."""
    key = (rank, dexterity, agility, stats.MD, stats.PS, stats.PC)
    known = tables.index.unarmed_lines.get(key)
    if known is None:
        known = _kept(tables.index.unarmed_lines, key, _unarmed_line(rank, stats, dexterity, agility, tables))
    return known


def _unarmed_line(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> UnarmedLine:
    chance = rules.unarmed_strike_chance(agility, stats.PS, dexterity, rank, tables.combat, stats.MD)
    endurance, grievous = _special(chance, tables)
    return UnarmedLine(
        rank=rank,
        strike_chance=chance,
        damage=rules.damage_text(rules.unarmed_damage_modifier(stats.PS, tables.combat)),
        initiative=rules.initiative_value(agility, stats.PC, tables.combat, rank),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


def armor_line(decided: Decisions, armor: Armor | None, tables: Tables) -> ArmorLine | None:
    armor_id = decided.kit.equipment.armor
    if armor is None or armor_id is None:
        return None
    size, gender = tables.races[decided.born.race.race].size, decided.born.gender
    key = (armor_id, size, gender)
    known = tables.index.armor_lines.get(key)
    if known is None:  # worked out once per Tables for each armor, size and gender (never changed once made)
        known = tables.index.armor_lines[key] = ArmorLine(
            name=armor_id,
            protection=armor.protection,
            agility_loss=armor.agility_loss,
            stealth_adjustment=armor.stealth_adjustment,
            weight=rules.armor_weight(armor, size, gender, tables.armor_file),
        )
    return known


def shield_line(item: Item | None, shield: Shield | None) -> ShieldLine | None:
    if shield is None or item is None:
        return None
    return ShieldLine(
        name=item.name,
        rank=item.rank,
        defense_per_rank=shield.defense_per_rank,
        manual_dexterity_loss=shield.manual_dexterity_loss,
    )


def combat_values(decided: Decisions, stats: Characteristics, tables: Tables) -> Combat:
    """Section 12 and 17-21 values a Character Record carries."""
    equipment = decided.kit.equipment
    armor = tables.armor.get(equipment.armor) if equipment.armor else None
    shield = tables.shields.get(equipment.shield.name) if equipment.shield else None
    agility = rules.modified_agility(stats.AG, armor)
    dexterity = rules.modified_manual_dexterity(stats.MD, shield)
    shield_rank = equipment.shield.rank if equipment.shield else None
    # A house rule's Defensive Values (seed 004): the first weapon listed is read as the prepared one.
    first = equipment.weapons[0] if equipment.weapons else None
    held = (tables.weapons[first.name], first.rank) if first is not None else (None, None)
    defense_inputs = rules.defense_inputs(agility, shield, shield_rank, *held)
    return Combat(
        modified_agility=agility,
        modified_manual_dexterity=dexterity,
        defense=rules.defense_from(defense_inputs, tables.combat),
        defense_postures=rules.defense_postures(defense_inputs, tables.combat)
        if tables.combat.defense.postures
        else None,
        tmr=(
            tmr := tmr_from_agility(
                agility, tables.characteristics.tmr, decided.modifiers.total["TMR"], tables.index.tmr
            )
        ),
        sprint_tmr=rules.sprint_tmr(tmr, tables.combat) if tables.combat.movement.sprint else None,
        initiative=rules.initiative_value(agility, stats.PC, tables.combat),
        unarmed=unarmed_line(decided.spec.unarmed_rank, stats, dexterity, agility, tables),
        weapons=with_damage_increase(  # 18.5, when the file chose it
            [weapon_line(item, stats, dexterity, agility, tables) for item in equipment.weapons],
            equipment.weapons,
            equipment.shield,
            stats.PS,
            decided.spec.optional,
            tables,
        ),
        armor=armor_line(decided, armor, tables),
        shield=shield_line(equipment.shield, shield),
        stun_threshold=rules.stun_threshold(stats.EN, tables.combat),
        stun_recovery=rules.stun_recovery(stats.WP, stats.FT, tables.combat),
        breakage_check=rules.breakage_check(dexterity, tables.combat),
    )


def character(decided: Decisions, tables: Tables) -> Character:
    """The whole typed Character: the decisions of the steps and everything derived from them."""
    stats, notes = final_characteristics(decided, tables)
    born, background, kit = decided.born, decided.heritage, decided.kit
    equipment = kit.equipment
    return Character(
        name=decided.name,
        seed=decided.seed,
        rules=[ruleset.reference for ruleset in tables.rulesets] if tables.rulesets else [],
        archetype=decided.points.archetype,
        gender=born.gender,
        race=born.race.race,
        race_attempts=born.race.attempts,
        race_type=born.race_type,
        hand=born.hand,
        aspect=born.aspect,
        points=Points(decided.points.row.points, decided.points.row.maximum),
        allocation=dict(decided.points.allocation),
        optional=[*decided.optional, *optional_rules(decided.spec.optional, tables)],
        rolls=dict(decided.rolls),
        weapons=[Carried(item.name, item.rank, item.increase) for item in equipment.weapons],
        armor=equipment.armor,
        shield=Carried(equipment.shield.name, equipment.shield.rank) if equipment.shield else None,
        unarmed_rank=decided.spec.unarmed_rank,
        equipment_given=kit.given,
        skills=list(decided.abilities.skills),
        college=decided.abilities.college,
        spells=list(decided.abilities.spells),
        abilities_given=decided.abilities.given,
        characteristics=stats,
        modifiers=dict(decided.modifiers.each),
        tmr=tmr_from_agility(
            stats.AG, tables.characteristics.tmr, decided.modifiers.total["TMR"], tables.index.tmr
        ),
        experience_multiplier=tables.races[born.race.race].experience_multiplier,
        heritage=Heritage(
            social_status=background.social_status,
            money_multiplier=background.money_multiplier,
            birth_order=background.birth_order,
            sibling_rank=background.sibling_rank,
        ),
        experience_points=background.experience_points,
        starting_silver=background.starting_silver,
        silver_pennies=background.starting_silver - kit.cost,
        combat=combat_values(decided, stats, tables),
        notes=notes,
    )
