"""A generated character assembled into the typed Character: the decisions of the steps, and the derived
values the value graph worked out from them (chargen.values.graph)."""

from __future__ import annotations

from typing import TypedDict

from chargen.generation import held, heritage
from chargen.generation.decisions import Decisions
from chargen.model import Carried, Character, Heritage, Points
from chargen.rules.characteristics import FatigueReading
from chargen.rules.damage_increase import optional_rules
from chargen.tables import Tables
from chargen.tables.memo import per_tables
from chargen.values.graph import Sheet, graph
from chargen.vocabulary import SCHEMA_VERSION


def racial_talents(race: str, tables: Tables) -> list[str]:
    """6.4-6.9: the magic entries the race grants (the elf's Witchsight, 6.5), in the table's order (a
    fresh list each time: a Character's lists are its own)."""
    return list(_granted(race, tables))


@per_tables(1024)
def _granted(race: str, tables: Tables) -> tuple[str, ...]:
    """Read once per Tables and race: the whole magic table is scanned for it."""
    return tuple(name for name, entry in tables.abilities.magic.entries.items() if race in entry.granted_to)


class BornFields(TypedDict):
    """Section 6: who was born, and what the record shows from the race table (8, 6.4-6.9)."""

    gender: str
    race: str
    race_attempts: list[str] | None
    race_type: str | None
    hand: str
    aspect: str | None
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


def _fatigue_notes(endurance: int, reading: FatigueReading) -> list[str]:
    """The record's word on a Fatigue read past the printed 5.3 table (a giant's Endurance)."""
    if not reading.beyond_table:
        return []
    return [
        f"Fatigue: Endurance {endurance} is beyond the printed 5.3 table; its step (one Fatigue per three "
        f"Endurance) was continued to read {reading.value} before modifiers."
    ]


def character(decided: Decisions, tables: Tables) -> Character:
    """The whole typed Character: the decisions of the steps and everything derived from them."""
    evaluated = graph(Sheet.of_decisions(decided), tables)
    stats, combat = evaluated.characteristics, evaluated.combat
    background, kit, abilities = decided.heritage, decided.kit, decided.abilities
    notes = _fatigue_notes(stats.EN, evaluated.fatigue)
    notes += held.defense_notes(
        kit.equipment, combat.modified_agility, combat.defense, tables, evaluated.values
    )
    equipment, points = kit.equipment, decided.points
    # A file's own player, campaign, equipment, languages and notes are added by with_abilities.
    return Character(
        schema_version=SCHEMA_VERSION,
        name=decided.name,
        seed=decided.seed,
        rules=[ruleset.reference for ruleset in tables.rulesets] if tables.rulesets else [],
        archetype=points.archetype if points else None,
        **_born_fields(decided, tables),
        points=Points(points.row.points, points.row.maximum) if points else None,
        allocation=dict(points.allocation) if points else None,
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
        tmr=evaluated.tmr,
        heritage=_heritage_line(background) if background else None,  # None: as it stands, unknown
        experience_points=background.experience_points if background else None,
        starting_silver=background.starting_silver if background else None,
        silver_pennies=background.starting_silver - kit.cost if background else 0,
        combat=combat,
        experience_bank=abilities.experience_bank,
        notes=notes,
    )
