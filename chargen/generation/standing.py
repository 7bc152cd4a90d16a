"""A played character as it stands: its file gives the characteristics, Experience and money as they are
now, and no creation (the 5.1 roll, 5.2's allocation, 8.1-8.5's dice). Nothing is rolled for it: what
the creation would have decided stays unknown; what the rules work out from the characteristics, race,
kit and Ranks (5.6, 12.3, 17-21) is worked out as for any character."""

from __future__ import annotations

from dataclasses import replace

from chargen.character_file import CharacterInput, Standing
from chargen.dice import Dice, NoSeed
from chargen.errors import InputError, Problem
from chargen.generation import birthrights
from chargen.generation.abilities import file_abilities, with_abilities
from chargen.generation.decisions import NO_ABILITIES, Birthrights, Decisions, Kit, RaceResult
from chargen.generation.derived import character
from chargen.generation.equipment import Equipment
from chargen.generation.equipment_check import kit_problems
from chargen.generation.ledger import ledger_step, raised_decisions, with_ledger
from chargen.model import Character, Characteristics
from chargen.model import Standing as StandingLine
from chargen.names import unknown_name
from chargen.tables import Tables

#: The keys of a creation: a file as it stands gives none of them (its creation is unknown, not rolled).
CREATION_KEYS = ("points", "allocation", "archetype", "strategy", "race_attempts")
#: What a character as it stands must name: the rules read each (6.1, 6.2, 6.3) and none may be rolled.
NAMED_KEYS = ("gender", "race", "hand")


def standing_character(spec: CharacterInput, standing: Standing, tables: Tables) -> Character:
    """The character `spec` gives as it stands; every problem of its keys raised at once."""
    problems = _creation_problems(spec)
    if problems:
        raise InputError(problems)
    born = _born(spec, tables)
    stats = standing.stats()
    kit = _kit(spec, stats, tables)
    chosen = file_abilities(spec, born.race.race, born.race_type, None, tables)
    from chargen.generation.pipeline import modifiers_step  # the pipeline imports this module

    decided = Decisions(
        spec=spec,
        seed=spec.seed,
        points=None,
        optional={},
        born=born,
        heritage=None,
        modifiers=modifiers_step(born, tables),
        kit=kit,
        name=spec.name or "Unnamed",
        rolls={},
        abilities=NO_ABILITIES,
    )
    ledger = ledger_step(decided, chosen, stats, tables)  # 12, 17, 87: what was played after it
    if ledger is not None:
        decided = raised_decisions(decided, ledger)
    made = replace(
        character(decided, tables),
        standing=_line(standing),
        experience_bank=standing.experience_bank,
        experience_total=standing.experience_total,
        silver_pennies=standing.silver_pennies,
    )
    return with_ledger(with_abilities(made, spec, chosen), ledger)


def _born(spec: CharacterInput, tables: Tables) -> Birthrights:
    """6.1-6.3, 6.6, 6.9, 7.1 as the file names them: nothing rolled (an aspect not named is unknown)."""
    assert spec.gender is not None and spec.race is not None and spec.hand is not None
    if spec.race not in tables.races:
        raise unknown_name(("race",), spec.race, tables.races, "a race (6.3)")
    race = tables.races[spec.race]
    dice = Dice(NoSeed())  # given values only: a draw would be an invented creation
    if race.types and spec.race_type is None:
        raise InputError(
            Problem(("race_type",), f"a {race.name} as it stands needs its type", race.type_rule)
        )
    race_type = birthrights.race_type(spec.race, spec.race_type, dice, tables)
    aspect = birthrights.aspect(race, spec.aspect, dice, tables) if spec.aspect or race.fixed_aspect else None
    return Birthrights(spec.gender, spec.hand, RaceResult(spec.race, None), race_type, aspect)


def _creation_problems(spec: CharacterInput) -> list[Problem]:
    """A creation's key beside `standing` is refused (the two would say two things), and so is a missing
    key that would otherwise be rolled."""
    found = [
        Problem((key,), "a character as it stands has no creation to give; leave it out", value=None)
        for key in CREATION_KEYS
        if key in spec.model_fields_set
    ]
    if spec.rolls.model_dump(exclude_none=True):
        found.append(Problem(("rolls",), "a character as it stands rolls nothing; leave it out"))
    if "PB" in spec.optional:
        found.append(Problem(("optional",), "PB as it stands goes under standing.characteristics", "5.5"))
    for key in NAMED_KEYS:
        if getattr(spec, key) is None:
            found.append(Problem((key,), "a character as it stands needs it named (nothing is rolled)"))
    return found


def _line(standing: Standing) -> StandingLine:
    return StandingLine(
        characteristics=standing.characteristics.model_dump(exclude_none=True),
        experience_bank=standing.experience_bank,
        experience_total=standing.experience_total,
        silver_pennies=standing.silver_pennies,
    )


def _kit(spec: CharacterInput, stats: Characteristics, tables: Tables) -> Kit:
    """8.7's checks on the kit as it stands (each Rank's PS and MD, 20.2): never priced, the purse that
    bought it being unknown."""
    equipment = Equipment(list(spec.weapons), spec.armor, spec.shield)
    primaries = {code: getattr(stats, code) for code in ("PS", "MD", "AG", "EN", "MA", "WP")}
    checked = kit_problems(equipment, primaries, None, None, tables)
    if checked.problems:
        raise InputError(checked.problems)
    return Kit(equipment, False, 0)
