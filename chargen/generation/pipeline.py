"""The generation pipeline in the book's order (5.1 -> 8.8). Whatever the file gives is used and checked;
whatever it leaves out is rolled or chosen with the seeded RNG and recorded, so the output rebuilds itself.

Each step is a function of (the file, the dice, the tables, what earlier steps decided), so a test can call
one step alone."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from chargen.all_problems import Problems
from chargen.character_file import CharacterInput
from chargen.dice import Dice
from chargen.errors import InputError, Problem
from chargen.generation import birthrights, characteristics
from chargen.generation.abilities import (
    bought_abilities,
    file_abilities,
    given_abilities,
    with_abilities,
)
from chargen.generation.decisions import (
    NO_ABILITIES,
    Abilities,
    Birthrights,
    Decisions,
    Kit,
    Modifiers,
    Points,
    RaceResult,
)
from chargen.generation.derived import character
from chargen.generation.equipment import (
    Equipment,
    bought_kit,
    check_equipment,
    equipment_cost,
    given_equipment,
)
from chargen.generation.heritage import Heritage, heritage
from chargen.generation.points_steps import RolledPoints, allocation_step, points_row, points_step
from chargen.generation.variety import varied_equipment
from chargen.model import Character
from chargen.names import unknown_name
from chargen.rules.characteristics import combined_modifiers, modified_characteristics
from chargen.tables import Tables
from chargen.tables.memo import per_tables
from chargen.tables.schema import Race
from chargen.vocabulary import GENDERS

Equip = Literal["none", "buy", "give"]


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class Options:
    """How to fill what the file leaves out. `equip`: none (as given), buy (a rolled character buys its
    archetype's kit, unranked) or give (an NPC is given its archetype's kit at typical Ranks, and its
    skills and magic)."""

    equip: Equip = "none"
    # 8.8 for a character the file leaves unnamed: a name for (race, gender), or None for the tables'
    # own draw. The batch names its NPCs from their own seeds (bynames, fewer namesakes).
    namer: Callable[[str, str], str | None] | None = None


#: The file's keys each step reads (`rolls.x`: a die the file gives): a step is skipped when one of them is
#: found wrong (chargen.all_problems), as it is when a step before it that it needs failed.
_ROW_BY_ROLL = ("points", "rolls.points")
_ROW_BY_TOTAL = ("points", "allocation")
_ALLOCATION = ("archetype", "strategy", "points", "allocation", "rolls.points")
_OPTIONAL = ("optional", "rolls.beauty")
_BIRTH = (
    *("gender", "hand", "race", "race_attempts", "race_type", "aspect"),
    *("rolls.hand", "rolls.race", "rolls.race_type", "rolls.aspect"),
)
_HERITAGE = tuple(
    f"rolls.{key}" for key in ("social_status", "birth_order", "sibling_rank", "experience", "silver")
)
_KIT = ("weapons", "shield", "equipment_given", "unarmed_rank")
_ABILITIES = ("college", "abilities_given")
_ABILITY_LISTS = ("skills", "languages", "spells")


def generate(
    spec: CharacterInput,
    tables: Tables,
    *,
    seed: int,
    options: Options | None = None,
    problems: Problems | None = None,
) -> Character:
    """Make (or rebuild) a character. Every step runs that reads no key found wrong and needs no failed
    step; every problem they find (and any `problems` found before, in reading the file) is raised at once."""
    options = options or Options()
    problems = problems if problems is not None else Problems()
    step = problems.step
    dice = Dice(random.Random(seed), given=_given_rolls(spec))
    row_reads = _ROW_BY_ROLL if "points" in dice.given else _ROW_BY_TOTAL
    row = step(row_reads, points_row, spec, dice, tables)
    rolled = step(_ALLOCATION, points_step, spec, row, dice, tables) if row is not None else None
    optional = step(_OPTIONAL, characteristics.optional_characteristics, spec.optional, dice, tables)
    born = step(_BIRTH, birthrights_step, spec, dice, tables)
    background = step(_HERITAGE, heritage, dice, tables)
    chosen = None
    if born is not None and background is not None:
        listed, reads = problems.set_aside(spec, _ABILITY_LISTS, ("college",))
        args = (listed, born.race.race, born.race_type, background.experience_points, tables)
        chosen = step((*_ABILITIES, *reads), file_abilities, *args)
    if rolled is None or born is None or background is None:
        raise problems.error()
    run = _Run(spec, seed, dice, tables, options, problems)
    made = _made(run, rolled, optional, born, background)
    if made is None:
        raise problems.error()
    whole = with_abilities(made, spec, chosen)  # 8.6 and rule 3's record
    problems.raise_any()
    return whole


def _given_rolls(spec: CharacterInput) -> dict[str, object]:
    """The rolls the file gives. A rolled character gives none: nothing to dump (pydantic's dump is a
    cost on the batch's hot path); the slots behind model_fields_set and model_extra are read without
    those properties' Python calls."""
    rolls = spec.rolls
    if rolls.__pydantic_fields_set__ or rolls.__pydantic_extra__:
        return rolls.model_dump(exclude_none=True)
    return {}


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class _Run:
    """What every step of one generation shares: the file, its seed, the dice, the tables, the options and
    the problems found so far."""

    spec: CharacterInput
    seed: int
    dice: Dice
    tables: Tables
    options: Options
    problems: Problems


def _made(
    run: _Run,
    rolled: RolledPoints,
    optional: dict[str, int] | None,
    born: Birthrights,
    background: Heritage,
) -> Character | None:
    """The character of the steps' outcomes, with its kit (8.7) and name (8.8); None on any problem."""
    spec, dice, tables, options, problems = run.spec, run.dice, run.tables, run.options, run.problems
    equipped = _equipped(run, rolled, born, background)
    name = spec.name if spec.name is not None else _name(born.race.race, born.gender, dice, tables, options)
    if equipped is None or optional is None:
        return None
    problems.add(dice.unused())  # only once every step that reads a given roll has run
    if problems.items:
        return None
    points, modifiers, kit = equipped
    decided = Decisions(
        spec=spec,
        seed=spec.seed if spec.seed is not None else (run.seed if dice.used_rng else None),
        points=points,
        optional=optional,
        born=born,
        heritage=background,
        modifiers=modifiers,
        kit=kit,
        name=name,
        rolls=dice.record,
        abilities=abilities_step(spec, options, points.archetype, born, background.experience_points, tables),
    )
    return character(decided, tables)


def _equipped(
    run: _Run, rolled: RolledPoints, born: Birthrights, background: Heritage
) -> tuple[Points, Modifiers, Kit] | None:
    """5.2 with the race's and gender's modifiers (6.x), and the kit checked against them (8.7)."""
    tables, problems = run.tables, run.problems
    modifiers = modifiers_step(born, tables)
    points = allocation_step(rolled, modifiers, tables)
    primaries = modified_characteristics(points.allocation, modifiers.race, modifiers.gender)
    race = tables.races[born.race.race]
    kit_spec, reads = problems.set_aside(run.spec, ("armor",), ("weapons", "shield"))
    kit = problems.step(
        (*_KIT, *reads),
        kit_step,
        kit_spec,
        run.options,
        points.archetype,
        primaries,
        background,
        race,
        tables,
        run.dice,
    )
    return None if kit is None else (points, modifiers, kit)


def abilities_step(
    spec: CharacterInput,
    options: Options,
    archetype: str | None,
    born: Birthrights,
    experience_points: int,
    tables: Tables,
) -> Abilities:
    """The skills, college and magic chosen without dice: an NPC's given, a rolled character's
    bought with its 8.5 Experience (as its kit); none otherwise (a file's own are added by
    with_abilities)."""
    race, race_type = born.race.race, born.race_type
    if options.equip == "give":
        return given_abilities(spec, archetype, race, race_type, tables)
    if options.equip == "buy":
        return bought_abilities(spec, archetype, race, race_type, experience_points, tables)
    return NO_ABILITIES


@per_tables(1024, key=lambda born, _tables: (born.race.race, born.race_type, born.gender))
def modifiers_step(born: Birthrights, tables: Tables) -> Modifiers:
    """6.1, 6.4-6.9: the race's modifiers (with its type's) and the gender's, worked out once per Tables
    for each race, type and gender (a Modifiers is never changed once made)."""
    race = tables.races[born.race.race]
    type_modifiers = race.types[born.race_type].modifiers if born.race_type else {}
    gender = tables.birthrights.genders[born.gender]  # type: ignore[index]
    return Modifiers.of(combined_modifiers(race.modifiers, type_modifiers), dict(gender.modifiers))


def birthrights_step(spec: CharacterInput, dice: Dice, tables: Tables) -> Birthrights:
    """6.1-6.3, 6.6, 6.9, 7.1: gender, hand, race, type, aspect."""
    gender: str = spec.gender or dice.choice(GENDERS)
    hand = _given_or_rolled("hand", spec.hand, dice, lambda: birthrights.primary_hand(dice, tables))
    outcome = race_step(spec, dice, tables)
    race = tables.races[outcome.race]
    race_type = birthrights.race_type(outcome.race, spec.race_type, dice, tables)
    aspect = birthrights.aspect(race, spec.aspect, dice, tables)
    return Birthrights(gender, hand, outcome, race_type, aspect)


def race_step(spec: CharacterInput, dice: Dice, tables: Tables) -> RaceResult:
    """6.3: the race the file sets, or the first of its attempts that succeeds, or rolled attempts."""
    if spec.race_attempts is not None:
        outcome = birthrights.race_by_attempts(spec.race_attempts, dice, tables)
        if spec.race is not None and spec.race != outcome.race:
            raise InputError(
                Problem(
                    ("race",),
                    f"file says {spec.race} but race_attempts {outcome.attempts} with rolls.race "
                    f"{dice.record['race']} give {outcome.race}",
                    "6.3",
                    spec.race,
                )
            )
        return outcome
    if spec.race is not None:
        if spec.race not in tables.races:
            raise unknown_name(("race",), spec.race, tables.races, "a race (6.3)")
        return RaceResult(spec.race, None)
    return birthrights.race_by_attempts(birthrights.non_human_attempts(dice, tables), dice, tables)


def kit_step(
    spec: CharacterInput,
    options: Options,
    archetype: str | None,
    primaries: dict[str, int],
    background: Heritage,
    race: Race,
    tables: Tables,
    dice: Dice | None = None,
) -> Kit:
    """8.7: equipment as given, or bought within the purse, or given to an NPC (varied by its own `dice`
    within its archetype); checked and priced."""
    given = spec.equipment_given
    has_kit = bool(spec.weapons or spec.armor or spec.shield)
    if options.equip != "none" and not has_kit and archetype is not None:
        if options.equip == "give":  # checked when given_equipment first made it for these PS and MD
            base = given_equipment(archetype, primaries, tables)
            if dice is not None:
                base = varied_equipment(base, archetype, primaries, dice.choice, tables)
            return Kit(base, True, 0)
        bought = bought_kit(archetype, primaries, background.starting_silver, race, tables)
        if bought.problems:
            raise InputError(list(bought.problems))
        equipment, cost = bought.equipment, bought.cost
    else:
        equipment = Equipment(list(spec.weapons), spec.armor, spec.shield)
        cost = _checked_cost(equipment, primaries, race, tables, priced=not given)
    if given:
        return Kit(equipment, given, 0)
    if cost > background.starting_silver:
        raise InputError(
            Problem(
                label="equipment",
                message=f"costs {cost} Silver Pennies but the purse holds {background.starting_silver} (8.5); "
                "buy less, or set equipment_given: true",
                value=cost,
            )
        )
    return Kit(equipment, given, cost)


def _checked_cost(
    equipment: Equipment, primaries: dict[str, int], race: Race, tables: Tables, *, priced: bool
) -> int:
    """8.7: the file's own kit checked, then (unless given) priced at the charts."""
    problems = check_equipment(equipment, primaries, tables)
    if problems:
        raise InputError(problems)
    if not priced:
        return 0
    cost, problems = equipment_cost(equipment, race, tables)
    if problems:
        raise InputError(problems)
    return cost


def _given_or_rolled(key: str, chosen: str | None, dice: Dice, roll: Callable[[], str]) -> str:
    """A value the GM may set outright, or roll; when both are given they must agree."""
    if chosen is not None and key not in dice.given:
        return chosen
    rolled = roll()
    if chosen is not None and chosen != rolled:
        raise InputError(
            Problem(
                (key,), f"file says {chosen} but rolls.{key} {dice.record[key]} gives {rolled}", value=chosen
            )
        )
    return rolled


def _name(race: str, gender: str, dice: Dice, tables: Tables, options: Options) -> str:
    """8.8: a name for an unnamed character, the last step (so its draws change nothing before it)."""
    named = options.namer(race, gender) if options.namer is not None else None
    if named is not None:
        return named
    parts = tables.names.get(race) or tables.names.get("human")
    if parts is None:
        return "Unnamed"
    first = dice.choice(parts.male if gender == "male" else parts.female)
    return f"{first} {dice.choice(parts.family)}" if parts.family else first
