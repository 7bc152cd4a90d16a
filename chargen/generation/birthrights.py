"""Steps 6.1-6.3, 6.6, 6.9 and 7.1: gender, primary hand, race and its type, aspect."""

from __future__ import annotations

from chargen.dice import Dice
from chargen.errors import InputError, Problem, shown
from chargen.generation.decisions import RaceResult
from chargen.names import unknown_name
from chargen.tables import Tables
from chargen.tables.schema import Race


def primary_hand(dice: Dice, tables: Tables) -> str:
    """6.2: D5 and D10 (birthrights.yaml); the higher D10 means right-handed, the higher D5 left-handed,
    equal ambidextrous."""
    hands = tables.birthrights.hands
    left, right = dice.each("hand", [hands.left_die.sides, hands.right_die.sides], hands.rule)
    if right > left:
        return "right"
    return "left" if left > right else "ambidextrous"


def race_by_attempts(attempts: list[str], dice: Dice, tables: Tables) -> RaceResult:
    """6.3: up to three D100 rolls at different races; the first at or under the race's chance binds.
    All failing, the character is human."""
    allowed = tables.race_file.attempts
    if len(attempts) > allowed:
        raise InputError(
            Problem(
                ("race_attempts",), f"{len(attempts)} attempts, but rule 6.3 allows {allowed}", value=attempts
            )
        )
    for index, race_id in enumerate(attempts):
        race = tables.races.get(race_id)
        if race is None:
            raise unknown_name(("race_attempts", index), race_id, tables.races, "a race (6.3)")
        if race.chance >= 100:
            raise InputError(
                Problem(
                    ("race_attempts", index),
                    f"{race_id} needs no roll; rule 6.3 lets anyone be one",
                    value=race_id,
                )
            )
        roll = dice.nth("race", index, tables.race_file.attempt_die.sides, "6.3")
        if roll <= race.chance:
            return RaceResult(race_id, attempts[: index + 1])
    return RaceResult("human", list(attempts))


def non_human_attempts(dice: Dice, tables: Tables) -> list[str]:
    """A rolled character with no race asked for tries as many different non-human races as 6.3 allows
    (races.yaml `attempts`), in a random order."""
    candidates = tables.index.rolled_races
    return dice.sample(candidates, min(tables.race_file.attempts, len(candidates)))


def race_type(race_id: str, chosen: str | None, dice: Dice, tables: Tables) -> str | None:
    """6.6 and 6.9: a giant's or shape-changer's type by D10 (or as the GM set it)."""
    race = tables.races[race_id]
    if not race.types:
        if chosen is not None:
            raise InputError(
                Problem(
                    ("race_type",),
                    f"{race.name} has no types; rules 6.6 and 6.9 type giants and shape-changers",
                    value=chosen,
                )
            )
        return None
    if chosen is not None and "race_type" not in dice.given:
        if chosen not in race.types:
            raise unknown_name(("race_type",), chosen, race.types, f"a {race.name} type ({race.type_rule})")
        return chosen
    assert race.type_dice is not None  # the races schema requires type_dice beside types
    roll = dice.roll("race_type", race.type_dice, race.type_rule or race.rule)
    rolled = tables.index.race_types[race_id](roll)
    if chosen is not None and chosen != rolled:
        raise InputError(
            Problem(
                ("race_type",),
                f"file says {chosen} but rolls.race_type {roll} gives {rolled}",
                race.type_rule,
                chosen,
            )
        )
    return rolled


def aspect(race: Race, chosen: str | None, dice: Dice, tables: Tables) -> str:
    """7.1: D100 on the aspect table; a shape-changer is always Moon aspected (6.9)."""
    if race.fixed_aspect:
        if chosen is not None and chosen != race.fixed_aspect:
            raise InputError(
                Problem(
                    ("aspect",),
                    f"{shown(chosen)}, but a {race.name} is always {race.fixed_aspect}",
                    race.rule,
                    chosen,
                )
            )
        return race.fixed_aspect
    table = tables.aspect_file
    if chosen is not None and "aspect" not in dice.given:
        if chosen not in table.aspects:
            raise unknown_name(("aspect",), chosen, table.aspects, "an aspect (7.1)")
        return chosen
    roll = dice.roll("aspect", table.dice, table.rule)
    rolled = tables.index.aspect(roll)
    if chosen is not None and chosen != rolled:
        raise InputError(
            Problem(
                ("aspect",), f"file says {chosen} but rolls.aspect {roll} gives {rolled}", table.rule, chosen
            )
        )
    return rolled
