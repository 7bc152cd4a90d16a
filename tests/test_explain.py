"""Every number explains itself: each derived value's working, evaluated again through the very formula
objects on the inputs it states, gives the value the character carries (and so the record prints)."""

from __future__ import annotations

import itertools

import pytest

from chargen import api
from chargen.generation.explained import workings
from chargen.model import Character
from chargen.rules.combat import damage_text
from chargen.rules.working import Working
from chargen.tables import Tables, load_tables


def printed(character: Character, key: str) -> object:
    """The value at a working's key, read from the Character as the record reads it."""
    combat = character.combat
    group, _, rest = key.partition(".")
    if group == "characteristics":
        return character.characteristics.get(rest)
    if group == "weapons":
        name, _, field = rest.partition(".")
        index = int(name.rsplit("-", 1)[1]) - 1 if name[-1].isdigit() and "-" in name else 0
        lines = [line for line in combat.weapons if line.name == name.split("-")[0] or line.name == name]
        return getattr(lines[index] if len(lines) > index else lines[0], field)
    if group == "unarmed":
        return getattr(combat.unarmed, rest) if rest != "base_chance" else None
    if group == "defense_postures":
        return (combat.defense_postures or {})[rest]
    if key == "tmr":
        return character.tmr
    if key == "combat.tmr":
        return combat.tmr
    return getattr(combat, key)


def check(character: Character, tables: Tables) -> int:
    """Each working of `character` against the value it carries; the number of values checked."""
    found = workings(character, tables)
    for working in found:
        again = working.recomputed()
        value = printed(character, working.key)
        if working.shown:  # a damage: the modifier the formula gives, as the record writes it
            assert damage_text(again) == value == working.shown, (character.name, working.key)
        elif value is not None or working.key != "unarmed.base_chance":
            assert again == value, (character.name, working.key, working.lines())
    return len(found)


def npcs(tables: Tables, count: int) -> list[Character]:
    """`count` NPCs, every archetype with every race in turn, each given its kit and abilities."""
    archetypes, races = itertools.cycle(sorted(tables.archetypes)), itertools.cycle(sorted(tables.races))
    return [
        api.roll(seed=seed, archetype=next(archetypes), race=next(races), equip="give", tables=tables)
        for seed in range(200, 200 + count)
    ]


@pytest.mark.parametrize("rules", [(), ("house-combat",)], ids=["book", "house-combat"])
def test_every_working_of_200_npcs_gives_the_value_printed(rules: tuple[str, ...]) -> None:
    tables = load_tables(None, list(rules))
    characters = npcs(tables, 200)
    assert {c.race for c in characters} == set(tables.races)
    assert {c.archetype for c in characters} == set(tables.archetypes)
    checked = sum(check(character, tables) for character in characters)
    assert checked > 200 * 25


def test_a_wrong_input_is_caught(tables: Tables) -> None:
    # The check re-evaluates: a working whose stated input were off would not give the printed value.
    character = npcs(tables, 1)[0]
    defense = next(item for item in workings(character, tables) if item.key == "defense")
    terms = (defense.terms[0].__class__("modified_agility", (defense.terms[0].value or 0) + 1),)
    wrong = Working(**{**_fields(defense), "terms": terms + defense.terms[1:]})
    assert wrong.recomputed() != character.combat.defense


def _fields(working: Working) -> dict[str, object]:
    return {name: getattr(working, name) for name in working.__dataclass_fields__}
