"""The generation pipeline in the book's order (5.1 -> 8.8). Whatever the file gives is used and checked;
whatever it leaves out is rolled or chosen with the seeded RNG and recorded, so the output rebuilds itself.

Each step is a function of (the file, the dice, the tables, what earlier steps decided), so a test can call
one step alone."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from chargen.all_problems import Problems, file_key, reads
from chargen.character_file import CharacterInput
from chargen.dice import Dice, NoSeed
from chargen.errors import InputError
from chargen.generation import characteristics
from chargen.generation.abilities import (
    FileAbilities,
    bought_abilities,
    file_abilities,
    given_abilities,
    with_abilities,
)
from chargen.generation.birth_steps import (
    aspect_step,
    gender_step,
    hand_step,
    race_step,
    race_type_step,
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
from chargen.generation.equipment import Equipment, bought_kit, given_equipment
from chargen.generation.equipment_check import kit_problems
from chargen.generation.heritage import Heritage, heritage
from chargen.generation.ledger import Ledger, ledger_step, raised_decisions, with_ledger
from chargen.generation.points_steps import RolledPoints, allocation_step, points_row, points_step
from chargen.generation.standing import standing_character
from chargen.generation.variety import varied_equipment
from chargen.model import Character
from chargen.rules.characteristics import combined_modifiers, modified_characteristics
from chargen.tables import Tables
from chargen.tables.memo import per_tables
from chargen.tables.schema import Race
from chargen.values import graph as value_graph

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


def generate(
    spec: CharacterInput,
    tables: Tables,
    *,
    seed: int,
    options: Options | None = None,
    problems: Problems | None = None,
) -> Character:
    """Make (or rebuild) a character. Every step runs on what it can trust (chargen.all_problems): a step
    is skipped when a key it needs was found wrong, and one whose input failed checks what it still can;
    every problem they find (and any `problems` found before, in reading the file) is raised at once."""
    options = options or Options()
    problems = problems if problems is not None else Problems()
    if spec.standing is not None:  # a played character as it stands: no creation to run
        problems.raise_any()
        return standing_character(spec, spec.standing, tables)
    # A seed found wrong rolls nothing: the steps that need no dice still check the file's choices.
    rng = NoSeed() if "seed" in problems.failed else random.Random(seed)
    run = _Run(spec, seed, Dice(rng, given=_given_rolls(spec)), tables, options, problems)
    parts = _parts(run)
    whole = parts.whole()
    if whole is None or problems.items:
        _checked_rest(run, parts)
        if whole is not None:  # every step that reads a given roll has run (a die found wrong: told)
            problems.add(item for item in run.dice.unused() if file_key(item.path) not in problems.failed)
        raise problems.error()
    made = _made(run, *whole, parts.chosen)
    if made is None:
        raise problems.error()
    character = with_ledger(with_abilities(made[0], spec, parts.chosen), made[1])  # 8.6, rule 3; 12, 17, 87
    problems.raise_any()
    return character


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class _Parts:
    """What the steps of 5.1 to 8.6 made of the file: each None when its step could not run."""

    rolled: RolledPoints | None
    optional: dict[str, int] | None
    gender: str | None
    hand: str | None
    outcome: RaceResult | None
    race: tuple[RaceResult, str | None] | None  # with its type
    aspect: str | None
    background: Heritage | None
    chosen: FileAbilities | None

    def born(self) -> Birthrights | None:
        if self.gender is None or self.hand is None or self.race is None or self.aspect is None:
            return None
        return Birthrights(self.gender, self.hand, self.race[0], self.race[1], self.aspect)

    def whole(self) -> tuple[RolledPoints, dict[str, int], Birthrights, Heritage] | None:
        born = self.born()
        if self.rolled is None or self.optional is None or born is None or self.background is None:
            return None
        return self.rolled, self.optional, born, self.background


def _parts(run: _Run) -> _Parts:
    """5.1 to 8.5 in the book's order (the dice drawn in that order), and the file's own abilities (8.6)."""
    spec, dice, tables, step = run.spec, run.dice, run.tables, run.problems.step
    row_step = ROW_BY_ROLL if "points" in dice.given else ROW_BY_TOTAL
    row = step(row_step, spec, dice, tables)
    if row is None and spec.allocation is not None and "rolls.points" in run.problems.failed:
        # 5.2's limits by the points the allocation adds up to, as for a file that gives no roll (no die read)
        row = step(ROW_BY_TOTAL, spec, Dice(NoSeed()), tables)
    points = ALLOCATED if spec.allocation is not None else POINTS
    rolled = run.problems.step_on(points, spec, row, dice, tables) if row is not None else None
    optional = step(OPTIONAL, spec.optional, dice, tables)
    gender = step(gender_step, spec, dice)
    hand = step(hand_step, spec, dice, tables)
    outcome = step(race_step, spec, dice, tables)
    race = step(race_type_step, spec, outcome, dice, tables) if outcome is not None else None
    aspect = (
        step(aspect_step, spec, tables.races[outcome.race], dice, tables) if outcome is not None else None
    )
    background = step(HERITAGE, dice, tables)
    chosen = None
    if race is not None:
        experience = background.experience_points if background is not None else None
        chosen = run.problems.step_on(FILE_ABILITIES, spec, race[0].race, race[1], experience, tables)
    return _Parts(rolled, optional, gender, hand, outcome, race, aspect, background, chosen)


#: 5.1: the row by the roll the file gives, or by the points or allocation it states.
ROW_BY_ROLL = reads("points", "rolls.points")(points_row)
ROW_BY_TOTAL = reads("points", "allocation")(points_row)
#: 5.2: the points allocated by the archetype (a broken one, or a broken roll of 5.1, would make up an
#: allocation and every problem of its PS and MD), or by the file, checked against the row its roll or its
#: own total gives whatever archetype it names.
POINTS = reads("archetype", "strategy", "points", "allocation", "rolls.points")(points_step)
ALLOCATED = reads("points", "allocation", spare=("archetype", "strategy", "rolls.points"))(points_step)
OPTIONAL = reads("optional", "rolls.beauty")(characteristics.optional_characteristics)
HERITAGE = reads(
    "rolls.social_status", "rolls.birth_order", "rolls.sibling_rank", "rolls.experience", "rolls.silver"
)(heritage)
#: 8.6: a skill, language or spell found wrong is set aside, the rest checked (the Experience spent on
#: them told too little, never wrongly).
FILE_ABILITIES = reads("college", "abilities_given", spare=("skills", "languages", "spells"))(file_abilities)


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
    optional: dict[str, int],
    born: Birthrights,
    background: Heritage,
    chosen: FileAbilities | None,
) -> tuple[Character, Ledger | None] | None:
    """The character of the steps' outcomes, with its kit (8.7) and name (8.8), and the file's ledger
    applied (its raises are what the derived values read); None on any problem."""
    spec, dice, tables, options, problems = run.spec, run.dice, run.tables, run.options, run.problems
    equipped = _equipped(run, rolled, born, background)
    name = spec.name if spec.name is not None else _name(born.race.race, born.gender, dice, tables, options)
    if equipped is None:
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
    if not spec.advancement:
        return character(decided, tables), None
    created = value_graph.characteristics(value_graph.Sheet.of_decisions(decided), tables)[0]  # before raises
    ledger = problems.step(ledger_step, decided, chosen, created, tables)
    if ledger is None:
        return None
    return character(raised_decisions(decided, ledger), tables), ledger


def _equipped(
    run: _Run, rolled: RolledPoints, born: Birthrights, background: Heritage
) -> tuple[Points, Modifiers, Kit] | None:
    """5.2 with the race's and gender's modifiers (6.x), and the kit checked against them (8.7)."""
    tables, problems = run.tables, run.problems
    modifiers = modifiers_step(born, tables)
    points = allocation_step(rolled, modifiers, tables)
    primaries = modified_characteristics(points.allocation, modifiers.race, modifiers.gender)
    race = tables.races[born.race.race]
    kit = problems.step_on(
        kit_step, run.spec, run.options, points.archetype, primaries, background, race, tables, run.dice
    )
    return None if kit is None else (points, modifiers, kit)


def _checked_rest(run: _Run, parts: _Parts) -> None:
    """For a file found wrong: its own kit checked on what the steps could still make (8.7), its Ranks'
    PS and MD only given its allocation, race and gender, its price only given its race, the purse only
    given its heritage: every problem of the kit the rest does not hide, none made up."""
    spec = run.problems.set_aside(kit_step.reads, run.spec)
    if run.problems.blocked(kit_step.reads.needs) or not (spec.weapons or spec.armor or spec.shield):
        return
    race = run.tables.races[parts.outcome.race] if parts.outcome is not None else None
    primaries = None
    if parts.rolled is not None and parts.gender is not None and parts.race is not None:
        # the modifiers read only the race, its type and the gender (6.1, 6.4-6.9): hand and aspect aside
        born = Birthrights(parts.gender, "right", parts.race[0], parts.race[1], "")
        modifiers = modifiers_step(born, run.tables)
        points = allocation_step(parts.rolled, modifiers, run.tables)
        primaries = modified_characteristics(points.allocation, modifiers.race, modifiers.gender)
    given = bool(spec.equipment_given)
    purse = None if parts.background is None or given else parts.background.starting_silver
    equipment = Equipment(list(spec.weapons), spec.armor, spec.shield)
    run.problems.add(kit_problems(equipment, primaries, None if given else race, purse, run.tables).problems)


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


@reads("equipment_given", "unarmed_rank", spare=("armor", "weapons", "shield"))
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
    within its archetype); checked and priced. An armor, weapon or shield found wrong is set aside, the
    rest checked (chargen.all_problems)."""
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
        if given or cost > background.starting_silver:  # never so: bought within the purse, for a file
            return _file_kit(equipment, primaries, background, race, tables, given=given)
        return Kit(equipment, given, cost)
    equipment = Equipment(list(spec.weapons), spec.armor, spec.shield)
    return _file_kit(equipment, primaries, background, race, tables, given=given)


def _file_kit(
    equipment: Equipment,
    primaries: dict[str, int],
    background: Heritage,
    race: Race,
    tables: Tables,
    *,
    given: bool,
) -> Kit:
    """8.7: a kit checked and, unless given, priced within the purse; every problem at once."""
    purse = None if given else background.starting_silver
    checked = kit_problems(equipment, primaries, None if given else race, purse, tables)
    if checked.problems:
        raise InputError(checked.problems)
    return Kit(equipment, given, checked.cost)


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
