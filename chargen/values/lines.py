"""The values of the record's lines (17.1, 20.2, 12.3, 18.1, 18.2, 21): each weapon's and the unarmed line's
Strike Chance, damage and Initiative, the armor's and the shield's. Each is kept per Tables by the values it
reads, passed as they are, with the values of the graph a house rule's formula names (`named`: none for the
book's). A line is never changed once made; most characters of a batch share their lines with earlier ones."""

from __future__ import annotations

from chargen.model import ArmorLine, UnarmedLine, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.combat import NONE_KNOWN, Known
from chargen.tables import Tables
from chargen.tables.memo import per_tables

#: A weapon line's Strike Chance, damage, damage modifier, two-handed damage, and endurance damage and
#: grievous injury ranges.
WeaponTerms = tuple[int, str, "int | None", "str | None", "str | None", "str | None"]
#: An unarmed line's Strike Chance, damage, and endurance damage and grievous injury ranges.
UnarmedTerms = tuple[int, str, "str | None", "str | None"]
#: The most weapon (or unarmed) lines kept per Tables: far more than a batch of NPCs meets.
KEPT_LINES = 100_000
#: The values of the graph a line's formulas name, by name, in the graph's order.
Named = tuple[tuple[str, "int | None"], ...]


def _known(named: Named) -> Known:
    return dict(named) if named else NONE_KNOWN


@per_tables(1024)
def _special(chance: int, tables: Tables) -> tuple[str | None, str | None]:
    """18.2: (endurance damage, grievous injury) roll ranges at this Strike Chance (each chance read once)."""
    row = rules.special_damage_row(tables.combat.special_damage.rows, chance)
    endurance, grievous = (row.endurance_high, row.grievous_high) if row else (None, None)
    return rules.roll_range(endurance), rules.roll_range(grievous)


def special_ranges(chance: int, tables: Tables) -> tuple[str | None, str | None]:
    """18.2's rolls at a Strike Chance (a GM's too)."""
    return _special(chance, tables)


@per_tables(KEPT_LINES)
def weapon_line(
    name: str,
    rank: int | None,
    md: int,
    ps: int,
    pc: int,
    dexterity: int,
    agility: int,
    named: Named,
    tables: Tables,
) -> WeaponLine:
    """One weapon's Strike Chance, damage and Initiative (17.1, 20.2, 12.3, 18.2) at a Rank, from Manual
    Dexterity, Physical Strength, Perception, and the modified Manual Dexterity and Agility."""
    weapon = tables.weapons[name]
    weapon_dexterity = rules.dexterity_for(weapon, md, dexterity)
    chance, damage, modifier, two_handed, endurance, grievous = _weapon_terms(
        name, rank, weapon_dexterity, md, ps, named, tables
    )
    # 18.5's increase is added by with_damage_increase when the file chose it.
    return WeaponLine(
        name=name,
        rank=rank,
        strike_chance=chance,
        damage=damage,
        damage_modifier=modifier,
        two_handed_damage=two_handed,
        initiative=_initiative(agility, pc, rank, named, tables),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


@per_tables(KEPT_LINES)
def _weapon_terms(
    name: str, rank: int | None, weapon_dexterity: int, md: int, ps: int, named: Named, tables: Tables
) -> WeaponTerms:
    weapon, known = tables.weapons[name], _known(named)
    chance = rules.strike_chance(weapon, weapon_dexterity, rank, tables.combat, md, ps, known)
    modifier = rules.weapon_damage_modifier(weapon, ps, tables.combat, False, known)
    two_handed = None
    if weapon.hands == "1-2":
        two_handed = rules.damage_text(rules.weapon_damage_modifier(weapon, ps, tables.combat, True, known))
    endurance, grievous = _special(chance, tables)
    return chance, rules.damage_text(modifier, weapon.damage_note), modifier, two_handed, endurance, grievous


@per_tables(KEPT_LINES)
def _initiative(agility: int, perception_value: int, rank: int | None, named: Named, tables: Tables) -> int:
    """12.3's Initiative for each modified Agility, Perception and Rank."""
    return rules.initiative_value(agility, perception_value, tables.combat, rank, _known(named))


@per_tables(KEPT_LINES)
def unarmed_line(
    rank: int | None, md: int, ps: int, pc: int, dexterity: int, agility: int, named: Named, tables: Tables
) -> UnarmedLine:
    """Unarmed Combat (21), with 17.1's Rank terms when the character has a Rank in it."""
    chance, damage, endurance, grievous = _unarmed_terms(rank, md, ps, dexterity, agility, named, tables)
    return UnarmedLine(
        rank=rank,
        strike_chance=chance,
        damage=damage,
        initiative=_initiative(agility, pc, rank, named, tables),
        endurance_damage=endurance,
        grievous_injury=grievous,
    )


@per_tables(KEPT_LINES)
def _unarmed_terms(
    rank: int | None, md: int, ps: int, dexterity: int, agility: int, named: Named, tables: Tables
) -> UnarmedTerms:
    known = _known(named)
    chance = rules.unarmed_strike_chance(agility, ps, dexterity, rank, tables.combat, md, known)
    endurance, grievous = _special(chance, tables)
    damage = rules.damage_text(rules.unarmed_damage_modifier(ps, tables.combat, known))
    return chance, damage, endurance, grievous


@per_tables(1024)
def armor_line(armor_id: str, size: int, gender: str, tables: Tables) -> ArmorLine:
    """18.1: the armor worn, its weight for the race's size and gender."""
    armor = tables.armor[armor_id]
    return ArmorLine(
        name=armor_id,
        protection=armor.protection,
        agility_loss=armor.agility_loss,
        stealth_adjustment=armor.stealth_adjustment,
        weight=rules.armor_weight(armor, size, gender, tables.armor_file),
    )
