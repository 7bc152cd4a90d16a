"""The generation pipeline in the book's order (5.1 -> 8.8). Whatever the file gives is used and checked;
whatever it leaves out is rolled or chosen with the seeded RNG and recorded, so the output rebuilds itself."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

from chargen.character_file import CharacterInput
from chargen.dice import Dice
from chargen.errors import InputError
from chargen.generation import birthrights, characteristics
from chargen.generation.derived import Generated, character_document
from chargen.generation.equipment import (
    Equipment,
    bought_equipment,
    check_equipment,
    equipment_cost,
    given_equipment,
)
from chargen.generation.heritage import heritage
from chargen.rules.characteristics import combined_modifiers, modified_characteristics
from chargen.tables import Tables

Equip = Literal["none", "buy", "give"]


@dataclass(frozen=True)
class Options:
    """How to fill what the file leaves out. `equip`: none (as given), buy (a rolled character buys its
    strategy's kit, unranked) or give (an NPC is given its archetype's kit at typical Ranks)."""

    equip: Equip = "none"


def generate(
    spec: CharacterInput, tables: Tables, *, seed: int, options: Options | None = None
) -> dict[str, Any]:
    """Make (or rebuild) a character; returns the character file as an ordered mapping."""
    options = options or Options()
    rng = random.Random(seed)
    dice = Dice(rng, given=spec.rolls.model_dump(exclude_none=True))

    # 5.1-5.2: Characteristic Points and their allocation (by the player, or by a strategy).
    strategy = spec.strategy
    if strategy is not None and strategy not in tables.archetypes:
        raise birthrights.unknown(
            "strategy", strategy, tables.archetypes, "an archetype (tables/archetypes.yaml)"
        )
    stated_total = spec.points.total if spec.points is not None else None
    row = characteristics.characteristic_points(spec.allocation, dice, tables, stated_total)
    if spec.allocation is not None:
        allocation = characteristics.checked_allocation(spec.allocation, row, tables)
    else:
        if strategy is None:
            strategy = dice.choice(
                sorted(key for key, kind in tables.archetypes.items() if kind.adventurer)
                or sorted(tables.archetypes)
            )
        allocation = characteristics.strategy_allocation(row, tables.archetypes[strategy], rng, tables)
    stated_maximum = (
        spec.points.maximum if spec.points is not None and spec.points.maximum is not None else row.maximum
    )
    if spec.points is not None and (spec.points.total, stated_maximum) != (row.points, row.maximum):
        raise InputError(
            f"points: file says {spec.points.total} (maximum {spec.points.maximum}) but the rolls give "
            f"{row.points} (maximum {row.maximum}); rule 5.1"
        )
    optional = characteristics.optional_characteristics(spec.optional, dice, tables)

    # 6.1-6.3, 6.6, 6.9, 7.1: gender, hand, race, type, aspect.
    gender = spec.gender or dice.choice(["male", "female"])
    hand = _given_or_rolled("hand", spec.hand, dice, lambda: birthrights.primary_hand(dice, tables))
    if spec.race_attempts is not None:
        outcome = birthrights.race_by_attempts(spec.race_attempts, dice, tables)
        if spec.race is not None and spec.race != outcome.race:
            raise InputError(
                f"race: file says {spec.race} but race_attempts {outcome.attempts} with rolls.race "
                f"{dice.record['race']} give {outcome.race}; rule 6.3"
            )
    elif spec.race is not None:
        if spec.race not in tables.races:
            raise birthrights.unknown("race", spec.race, tables.races, "a race (6.3)")
        outcome = birthrights.RaceResult(spec.race, None)
    else:
        outcome = birthrights.race_by_attempts(birthrights.non_human_attempts(dice, tables), dice, tables)
    race = tables.races[outcome.race]
    race_type = birthrights.race_type(race, spec.race_type, dice)
    aspect = birthrights.aspect(race, spec.aspect, dice, tables)

    # 8.1-8.5: heritage, starting Experience and money.
    background = heritage(dice, tables)

    # Characteristics after race and gender (6.1, 6.4-6.9), needed to judge Ranks and kit.
    race_modifiers = combined_modifiers(race.modifiers, race.types[race_type].modifiers if race_type else {})
    gender_modifiers = dict(tables.birthrights.genders[gender].modifiers)
    primaries = modified_characteristics(allocation, race_modifiers, gender_modifiers)

    # 8.7: equipment, bought within the purse unless given.
    equipment_given = spec.equipment_given
    equipment = Equipment(list(spec.weapons), spec.armor, spec.shield)
    has_kit = bool(spec.weapons or spec.armor or spec.shield)
    if options.equip != "none" and not has_kit and strategy is not None:
        archetype = tables.archetypes[strategy]
        if options.equip == "give":
            equipment, equipment_given = given_equipment(archetype, primaries, tables), True
        else:
            equipment = bought_equipment(archetype, primaries, background.starting_silver, race, tables)
    problems = check_equipment(equipment, primaries, tables)
    if problems:
        raise InputError(problems)
    cost = 0
    if not equipment_given:
        cost, problems = equipment_cost(equipment, race, tables)
        if problems:
            raise InputError(problems)
        if cost > background.starting_silver:
            raise InputError(
                f"equipment: costs {cost} Silver Pennies but the purse holds {background.starting_silver} "
                "(8.5); buy less, or set equipment_given: true"
            )

    # 8.8: a name.
    name = spec.name if spec.name is not None else _name(outcome.race, gender, dice, tables)

    unused = dice.unused()
    if unused:
        raise InputError(unused)
    generated = Generated(
        spec=spec,
        seed=spec.seed if spec.seed is not None else (seed if dice.used_rng else None),
        name=name,
        strategy=strategy,
        gender=gender,
        race=outcome.race,
        race_attempts=outcome.attempts,
        race_type=race_type,
        hand=hand,
        aspect=aspect,
        points=row,
        allocation=allocation,
        rolls=dice.record,
        optional=optional,
        race_modifiers=race_modifiers,
        gender_modifiers=gender_modifiers,
        heritage=background,
        equipment=equipment,
        equipment_given=equipment_given,
        cost=cost,
    )
    return character_document(generated, tables)


def _given_or_rolled(key: str, chosen: str | None, dice: Dice, roll: Any) -> str:
    """A value the GM may set outright, or roll; when both are given they must agree."""
    if chosen is not None and key not in dice.given:
        return chosen
    rolled: str = roll()
    if chosen is not None and chosen != rolled:
        raise InputError(f"{key}: file says {chosen} but rolls.{key} {dice.record[key]} gives {rolled}")
    return rolled


def _name(race: str, gender: str, dice: Dice, tables: Tables) -> str:
    parts = tables.names.get(race) or tables.names.get("human")
    if parts is None:
        return "Unnamed"
    first = dice.choice(parts.male if gender == "male" else parts.female)
    return f"{first} {dice.choice(parts.family)}" if parts.family else first
