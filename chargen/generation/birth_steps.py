"""6.1-6.3, 6.6, 6.9 and 7.1 as steps of their own (gender, hand, race and type, aspect), so a mistake in
one hides none of the others (chargen.all_problems); each declares the file's keys it reads."""

from __future__ import annotations

from collections.abc import Callable

from chargen.all_problems import reads
from chargen.character_file import CharacterInput
from chargen.dice import Dice
from chargen.errors import InputError, Problem
from chargen.generation import birthrights
from chargen.generation.decisions import Birthrights, RaceResult
from chargen.names import unknown_name
from chargen.tables import Tables
from chargen.tables.schema import Race
from chargen.vocabulary import GENDERS


def birthrights_step(spec: CharacterInput, dice: Dice, tables: Tables) -> Birthrights:
    """6.1-6.3, 6.6, 6.9, 7.1: gender, hand, race, type, aspect (generate runs each as a step of its own)."""
    gender = gender_step(spec, dice)
    hand = hand_step(spec, dice, tables)
    outcome, race_type = race_type_step(spec, race_step(spec, dice, tables), dice, tables)
    aspect = aspect_step(spec, tables.races[outcome.race], dice, tables)
    return Birthrights(gender, hand, outcome, race_type, aspect)


@reads("gender")
def gender_step(spec: CharacterInput, dice: Dice) -> str:
    """6.1: the gender the file gives, or chosen."""
    return spec.gender or dice.choice(GENDERS)


@reads("hand", "rolls.hand")
def hand_step(spec: CharacterInput, dice: Dice, tables: Tables) -> str:
    """6.2: the hand the file gives, or rolled (both given, they must agree)."""
    return _given_or_rolled("hand", spec.hand, dice, lambda: birthrights.primary_hand(dice, tables))


@reads("race_type", "rolls.race_type")
def race_type_step(
    spec: CharacterInput, outcome: RaceResult, dice: Dice, tables: Tables
) -> tuple[RaceResult, str | None]:
    """6.6, 6.9: the race with its type (a giant's or shape-changer's), a step of its own so that a type
    found wrong hides neither the race's price of armor nor its purse."""
    return outcome, birthrights.race_type(outcome.race, spec.race_type, dice, tables)


@reads("aspect", "rolls.aspect")
def aspect_step(spec: CharacterInput, race: Race, dice: Dice, tables: Tables) -> str:
    """7.1: the aspect the file gives, or rolled."""
    return birthrights.aspect(race, spec.aspect, dice, tables)


@reads("race", "race_attempts", "rolls.race")
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
