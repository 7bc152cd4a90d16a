"""The derived values of a generated character (5.3-5.4, 12.3, 17-21), assembled into the typed Character."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TypedDict

from chargen.character_file import Item
from chargen.generation import carried, held, heritage
from chargen.generation.decisions import Decisions
from chargen.generation.ledger_raised import with_raised
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
from chargen.tables.memo import per_tables
from chargen.tables.schema import Armor, Shield
from chargen.values.added import added_values
from chargen.vocabulary import SCHEMA_VERSION

#: A weapon line's Strike Chance, damage, damage modifier, two-handed damage, and endurance damage and
#: grievous injury ranges.
WeaponTerms = tuple[int, str, "int | None", "str | None", "str | None", "str | None"]
#: An unarmed line's Strike Chance, damage, and endurance damage and grievous injury ranges.
UnarmedTerms = tuple[int, str, "str | None", "str | None"]
#: The most weapon (or unarmed) lines kept per Tables: far more than a batch of NPCs meets.
KEPT_LINES = 100_000


# The values a line or its terms read: the keys they are kept by (per_tables).
def _weapon_line_key(
    item: Item, stats: Characteristics, dexterity: int, agility: int, _tables: Tables
) -> Hashable:
    return (item.name, item.rank, dexterity, agility, stats.MD, stats.PS, stats.PC)


def _weapon_terms_key(
    name: str, rank: int | None, weapon_dexterity: int, stats: Characteristics, _tables: Tables
) -> Hashable:
    return (name, rank, weapon_dexterity, stats.MD, stats.PS)


def _unarmed_line_key(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, _tables: Tables
) -> Hashable:
    return (rank, dexterity, agility, stats.MD, stats.PS, stats.PC)


def _unarmed_terms_key(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, _tables: Tables
) -> Hashable:
    return (rank, dexterity, agility, stats.MD, stats.PS)


def final_characteristics(decided: Decisions, tables: Tables) -> tuple[Characteristics, list[str]]:
    """The eight characteristics (5.3, 5.4, 6.x) plus optional ones, and notes for the record."""
    table = tables.characteristics
    total = decided.modifiers.total
    allocation = decided.points.allocation
    endurance = allocation["EN"] + total["EN"]
    reading = fatigue_from_endurance(endurance, table.fatigue, tables.index.fatigue)
    notes = []
    if reading.beyond_table:
        notes.append(
            f"Fatigue: Endurance {endurance} is beyond the printed 5.3 table; its step (one Fatigue per three "
            f"Endurance) was continued to read {reading.value} before modifiers."
        )
    stats = Characteristics(
        PS=allocation["PS"] + total["PS"],
        MD=allocation["MD"] + total["MD"],
        AG=allocation["AG"] + total["AG"],
        EN=allocation["EN"] + total["EN"],
        MA=allocation["MA"] + total["MA"],
        WP=allocation["WP"] + total["WP"],
        FT=reading.value + total["FT"],
        PC=perception(table.perception.base, total["PC"]),
        optional=dict(decided.optional),
    )
    return with_raised(stats, decided.raised), notes


@per_tables(1024)
def _special(chance: int, tables: Tables) -> tuple[str | None, str | None]:
    """18.2: (endurance damage, grievous injury) roll ranges at this Strike Chance (each chance read once)."""
    row = rules.special_damage_row(tables.combat.special_damage.rows, chance)
    endurance, grievous = (row.endurance_high, row.grievous_high) if row else (None, None)
    return rules.roll_range(endurance), rules.roll_range(grievous)


@per_tables(KEPT_LINES, key=_weapon_line_key)
def weapon_line(
    item: Item, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> WeaponLine:
    """One weapon's Strike Chance, damage and Initiative (17.1, 20.2, 12.3, 18.2), worked out once per Tables
    for each weapon, Rank and the five values it reads (a WeaponLine is never changed once made; most
    characters of a batch share their lines with earlier ones)."""
    return _weapon_line(item.name, item.rank, stats, dexterity, agility, tables)


def _weapon_line(
    name: str, rank: int | None, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> WeaponLine:
    weapon = tables.weapons[name]
    weapon_dexterity = rules.dexterity_for(weapon, stats.MD, dexterity)
    terms = _weapon_terms(name, rank, weapon_dexterity, stats, tables)
    chance, damage, modifier, two_handed, endurance, grievous = terms
    # 18.5's increase is added by with_damage_increase when the file chose it.
    return WeaponLine(
        name=name,
        rank=rank,
        strike_chance=chance,
        damage=damage,
        damage_modifier=modifier,
        two_handed_damage=two_handed,
        initiative=_initiative(agility, stats.PC, rank, tables),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


@per_tables(KEPT_LINES, key=_weapon_terms_key)
def _weapon_terms(
    name: str, rank: int | None, weapon_dexterity: int, stats: Characteristics, tables: Tables
) -> WeaponTerms:
    weapon = tables.weapons[name]
    chance = rules.strike_chance(weapon, weapon_dexterity, rank, tables.combat, stats.MD, stats.PS)
    modifier = rules.weapon_damage_modifier(weapon, stats.PS, tables.combat)
    two_handed = None
    if weapon.hands == "1-2":
        two_handed = rules.damage_text(rules.weapon_damage_modifier(weapon, stats.PS, tables.combat, True))
    endurance, grievous = _special(chance, tables)
    return chance, rules.damage_text(modifier, weapon.damage_note), modifier, two_handed, endurance, grievous


@per_tables(KEPT_LINES)
def _initiative(agility: int, perception_value: int, rank: int | None, tables: Tables) -> int:
    """12.3's Initiative, worked out once per Tables for each modified Agility, Perception and Rank."""
    return rules.initiative_value(agility, perception_value, tables.combat, rank)


@per_tables(KEPT_LINES, key=_unarmed_line_key)
def unarmed_line(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> UnarmedLine:
    """Unarmed Combat (21), with 17.1's Rank terms when the character has a Rank in it; worked out once per
    Tables for each Rank and the values it reads, as `weapon_line`."""
    terms = _unarmed_terms(rank, stats, dexterity, agility, tables)
    chance, damage, endurance, grievous = terms
    return UnarmedLine(
        rank=rank,
        strike_chance=chance,
        damage=damage,
        initiative=_initiative(agility, stats.PC, rank, tables),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


@per_tables(KEPT_LINES, key=_unarmed_terms_key)
def _unarmed_terms(
    rank: int | None, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> UnarmedTerms:
    chance = rules.unarmed_strike_chance(agility, stats.PS, dexterity, rank, tables.combat, stats.MD)
    endurance, grievous = _special(chance, tables)
    return (
        chance,
        rules.damage_text(rules.unarmed_damage_modifier(stats.PS, tables.combat)),
        endurance,
        grievous,
    )


def armor_line(decided: Decisions, armor: Armor | None, tables: Tables) -> ArmorLine | None:
    armor_id = decided.kit.equipment.armor
    if armor is None or armor_id is None:
        return None
    return _armor_line(armor_id, tables.races[decided.born.race.race].size, decided.born.gender, tables)


@per_tables(1024)
def _armor_line(armor_id: str, size: int, gender: str, tables: Tables) -> ArmorLine:
    """Worked out once per Tables for each armor, size and gender."""
    armor = tables.armor[armor_id]
    return ArmorLine(
        name=armor_id,
        protection=armor.protection,
        agility_loss=armor.agility_loss,
        stealth_adjustment=armor.stealth_adjustment,
        weight=rules.armor_weight(armor, size, gender, tables.armor_file),
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


def racial_talents(race: str, tables: Tables) -> list[str]:
    """6.4-6.9: the magic entries the race grants (the elf's Witchsight, 6.5), in the table's order (a
    fresh list each time: a Character's lists are its own)."""
    return list(_granted(race, tables))


@per_tables(1024)
def _granted(race: str, tables: Tables) -> tuple[str, ...]:
    """Read once per Tables and race: the whole magic table is scanned for it."""
    return tuple(name for name, entry in tables.abilities.magic.entries.items() if race in entry.granted_to)


def average_tmr(decided: Decisions, tables: Tables) -> int | None:
    """14.1: the giant type's average TMR, the midpoint of its chart (None: read the human chart)."""
    race_type = decided.born.race_type
    types = tables.races[decided.born.race.race].types
    return types[race_type].average_tmr if race_type in types else None


def tmr_for(agility: int, decided: Decisions, tables: Tables) -> int:
    """5.4 and 14.1: the TMR read for an Agility, with the race's TMR modifiers and a giant type's chart."""
    return tmr_from_agility(
        agility,
        tables.characteristics.tmr,
        decided.modifiers.total["TMR"],
        tables.index.tmr,
        average_tmr(decided, tables),
    )


def _shown_shield(
    carried_shield: Item | None,
    shield: Shield | None,
    ready: Shield | None,
    ready_id: str | None,
    ready_rank: int | None,
) -> tuple[Item | None, Shield | None]:
    """17.5: the shield the record shows: the one carried, else a ranked Main-Gauche held ready as one."""
    if carried_shield is None and ready_id is not None:
        return Item(name=ready_id, rank=ready_rank), ready
    return carried_shield, shield


def _weapon_lines(
    decided: Decisions, stats: Characteristics, dexterity: int, agility: int, tables: Tables
) -> list[WeaponLine]:
    """Each carried weapon's line, with 18.5's damage increase when the file chose it."""
    weapons = decided.kit.equipment.weapons
    return with_damage_increase(
        [weapon_line(item, stats, dexterity, agility, tables) for item in weapons],
        weapons,
        decided.kit.equipment.shield,
        stats.PS,
        decided.spec.optional,
        tables,
    )


def combat_values(decided: Decisions, stats: Characteristics, tables: Tables) -> Combat:
    """Section 12 and 17-21 values a Character Record carries."""
    equipment = decided.kit.equipment
    armor = tables.armor.get(equipment.armor) if equipment.armor else None
    shield = tables.shields.get(equipment.shield.name) if equipment.shield else None
    # Game Terms: modified Agility is after weight carried (82.9, when a GM fills its table) and armor (18.1).
    agility = rules.modified_agility(stats.AG, armor) - carried.agility_lost(decided, tables)
    dexterity = rules.modified_manual_dexterity(stats.MD, shield)
    # 17.5 and 20: the shield Defense counts (none behind a two-handed first weapon; a ranked Main-Gauche
    # is one), and a house rule's Defensive Values (seed 004) read with the first weapon listed.
    ready, ready_id, ready_rank = held.ready_shield(equipment, tables)
    combat = tables.combat
    defense_inputs = rules.defense_inputs(
        agility,
        ready,
        ready_rank,
        *held.held_weapon(equipment, tables),
        fallback=combat.defense.defensive_modifier_fallback,
    )
    tmr = tmr_for(agility, decided, tables)
    shown_shield, shield = _shown_shield(equipment.shield, shield, ready, ready_id, ready_rank)
    return Combat(
        modified_agility=agility,
        modified_manual_dexterity=dexterity,
        defense=rules.defense_from(defense_inputs, combat),
        defense_postures=rules.defense_postures(defense_inputs, combat) if combat.defense.postures else None,
        tmr=tmr,
        initiative=rules.initiative_value(agility, stats.PC, combat),
        unarmed=unarmed_line(decided.spec.unarmed_rank, stats, dexterity, agility, tables),
        weapons=_weapon_lines(decided, stats, dexterity, agility, tables),
        armor=armor_line(decided, armor, tables),
        shield=shield_line(shown_shield, shield),
        stun_threshold=rules.stun_threshold(stats.EN, combat),
        stun_recovery=rules.stun_recovery(stats.WP, stats.FT, combat),
        breakage_check=rules.breakage_check(dexterity, combat),
    )


class BornFields(TypedDict):
    """Section 6: who was born, and what the record shows from the race table (8, 6.4-6.9)."""

    gender: str
    race: str
    race_attempts: list[str] | None
    race_type: str | None
    hand: str
    aspect: str
    experience_multiplier: float
    life_span: str | None
    starting_age: str | None
    racial_talents: list[str]


def _born_fields(decided: Decisions, tables: Tables) -> BornFields:
    born = decided.born
    race = tables.races[born.race.race]
    return BornFields(
        gender=born.gender,
        race=born.race.race,
        race_attempts=born.race.attempts,
        race_type=born.race_type,
        hand=born.hand,
        aspect=born.aspect,
        experience_multiplier=race.experience_multiplier,
        life_span=race.life_span,
        starting_age=race.starting_age,
        racial_talents=racial_talents(born.race.race, tables),
    )


def _heritage_line(background: heritage.Heritage) -> Heritage:
    """8.1-8.4: the heritage the record shows, by table id."""
    return Heritage(
        social_status=background.social_status,
        money_multiplier=background.money_multiplier,
        birth_order=background.birth_order,
        sibling_rank=background.sibling_rank,
    )


def _with_added(combat: Combat, stats: Characteristics, tmr: int, tables: Tables) -> Combat:
    """`combat` with a ruleset's own values, worked out from the values above (the book has none)."""
    added = added_values(stats, tmr, combat, tables, {})
    return replace(combat, values=added) if added else combat


def character(decided: Decisions, tables: Tables) -> Character:
    """The whole typed Character: the decisions of the steps and everything derived from them."""
    stats, notes = final_characteristics(decided, tables)
    background, kit, abilities = decided.heritage, decided.kit, decided.abilities
    tmr = tmr_for(stats.AG, decided, tables)
    combat = _with_added(combat_values(decided, stats, tables), stats, tmr, tables)
    notes += held.defense_notes(kit.equipment, combat.modified_agility, combat.defense, tables)
    equipment, row = kit.equipment, decided.points.row
    # A file's own player, campaign, equipment, languages and notes are added by with_abilities.
    return Character(
        schema_version=SCHEMA_VERSION,
        name=decided.name,
        seed=decided.seed,
        rules=[ruleset.reference for ruleset in tables.rulesets] if tables.rulesets else [],
        archetype=decided.points.archetype,
        **_born_fields(decided, tables),
        points=Points(row.points, row.maximum),
        allocation=dict(decided.points.allocation),
        optional=[*decided.optional, *optional_rules(decided.spec.optional, tables)],
        rolls=dict(decided.rolls),
        weapons=[Carried(item.name, item.rank, item.increase) for item in equipment.weapons],
        armor=equipment.armor,
        shield=Carried(equipment.shield.name, equipment.shield.rank) if equipment.shield else None,
        unarmed_rank=decided.spec.unarmed_rank,
        equipment_given=kit.given,
        skills=list(abilities.skills),
        college=abilities.college,
        spells=list(abilities.spells),
        abilities_given=abilities.given,
        characteristics=stats,
        modifiers=dict(decided.modifiers.each),
        tmr=tmr,
        heritage=_heritage_line(background),
        experience_points=background.experience_points,
        starting_silver=background.starting_silver,
        silver_pennies=background.starting_silver - kit.cost,
        combat=combat,
        experience_bank=abilities.experience_bank,
        notes=notes,
    )
