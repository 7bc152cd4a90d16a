"""Each generation step alone: a function of (the file, the dice, the tables, earlier decisions)."""

from __future__ import annotations

import random

import pytest

from chargen.character_file import CharacterInput
from chargen.dice import Dice
from chargen.errors import InputError
from chargen.generation.birth_steps import birthrights_step, race_step
from chargen.generation.decisions import Birthrights, RaceResult
from chargen.generation.heritage import heritage
from chargen.generation.pipeline import Options, kit_step, modifiers_step
from chargen.generation.points_steps import allocation_step, points_row, points_step
from chargen.tables import Tables


def spec(**fields: object) -> CharacterInput:
    return CharacterInput.model_validate(fields)


def test_points_step_checks_the_stated_total_against_the_roll(tables: Tables) -> None:
    dice = Dice(random.Random(1), given={"points": 11})
    fighter = spec(archetype="fighter")
    rolled = points_step(fighter, points_row(fighter, dice, tables), dice, tables)
    # The archetype's allocation waits for the race and gender modifiers (allocation_step).
    assert rolled.allocation is None and len(rolled.jitter) == len(tables.characteristics.primaries)
    born = birthrights_step(spec(race="dwarf", gender="male"), Dice(random.Random(2)), tables)
    points = allocation_step(rolled, modifiers_step(born, tables), tables)
    assert points.archetype == "fighter" and sum(points.allocation.values()) == points.row.points
    stated = spec(archetype="fighter", points={"total": 1})
    dice = Dice(random.Random(1), given={"points": 11})
    with pytest.raises(InputError) as refused:
        points_step(stated, points_row(stated, dice, tables), dice, tables)
    assert refused.value.items[0].path == ("points",) and refused.value.items[0].rule == "5.1"


def test_race_step_binds_the_first_successful_attempt(tables: Tables) -> None:
    elf = tables.races["elf"].chance
    dice = Dice(random.Random(1), given={"race": [100, elf]})
    assert race_step(spec(race_attempts=["dwarf", "elf"]), dice, tables) == RaceResult(
        "elf", ["dwarf", "elf"]
    )


def test_birthrights_and_modifiers_steps(tables: Tables) -> None:
    born = birthrights_step(
        spec(gender="female", race="dwarf", hand="left", aspect="moon"), Dice(random.Random(2)), tables
    )
    assert born == Birthrights("female", "left", RaceResult("dwarf", None), None, "moon")
    modifiers = modifiers_step(born, tables)
    assert modifiers.race == dict(tables.races["dwarf"].modifiers)
    assert modifiers.gender == dict(tables.birthrights.genders["female"].modifiers)


def test_kit_step_refuses_what_the_purse_cannot_pay(tables: Tables) -> None:
    background = heritage(
        Dice(random.Random(3), given={"social_status": 1, "birth_order": 1, "silver": 1}), tables
    )
    primaries = {"PS": 20, "MD": 20, "AG": 15, "EN": 15, "MA": 10, "WP": 10, "FT": 20, "PC": 10}
    costly = spec(weapons=[{"name": "broadsword"}], armor="improved-plate")
    with pytest.raises(InputError, match="purse holds"):
        kit_step(costly, Options(), None, primaries, background, tables.races["human"], tables)
    given = spec(weapons=[{"name": "broadsword"}], armor="improved-plate", equipment_given=True)
    kit = kit_step(given, Options(), None, primaries, background, tables.races["human"], tables)
    assert (kit.given, kit.cost) == (True, 0)
