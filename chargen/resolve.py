"""Every table name in a character file, read as people write it and replaced by its id before generation.

A name no table knows is refused here, with the closest id or display name suggested; so the pipeline
below only ever sees ids. The skills, languages, college and magic are checked here too (the abilities
step resolves them again), so a name is told even when a step they rest on cannot run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from chargen.all_problems import Problems
from chargen.character_file import Ability, CharacterInput, Item, MagicAbility
from chargen.errors import InputError, KeyPath, Problem
from chargen.names import resolve, resolved
from chargen.tables import Tables


class _Lookup:
    """Looks names up, collecting every unknown one, so a file hears of all its mistakes at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def __call__(self, field: KeyPath, value: str, entries: Mapping[str, object], what: str) -> str:
        try:
            return resolved(field, value, entries, what)
        except InputError as error:
            self.problems.extend(error.items)
            return value


class _Ids(TypedDict, total=False):
    """The names of a file given as ids, each only where the file names one."""

    archetype: str
    race: str
    race_attempts: list[str]
    race_type: str
    aspect: str
    weapons: list[Item]
    armor: str
    shield: Item


def resolve_names(spec: CharacterInput, tables: Tables, problems: Problems | None = None) -> CharacterInput:
    """`spec` with races, race type, aspect, archetype, weapons, armor and shield given as ids. A name no
    table knows is added to `problems` (and left as written), else raised with every other."""
    look_up = _Lookup()
    update: _Ids = {}
    if spec.archetype is not None:
        # An older file names it `strategy`: the message points at the key the file used.
        update["archetype"] = look_up(
            (spec.archetype_key,), spec.archetype, tables.archetypes, "an archetype (tables/archetypes.yaml)"
        )
    if spec.race is not None:
        update["race"] = look_up(("race",), spec.race, tables.races, "a race (6.3)")
    if spec.race_attempts is not None:
        attempts = [
            look_up(("race_attempts", index), race, tables.races, "a race (6.3)")
            for index, race in enumerate(spec.race_attempts)
        ]
        if len(set(attempts)) != len(attempts):
            look_up.problems.append(
                Problem(("race_attempts",), "each attempt must be at a different race (6.3)")
            )
        update["race_attempts"] = attempts
    if spec.race_type is not None:
        update["race_type"] = _race_type(spec.race_type, update.get("race"), tables)
    if spec.aspect is not None:
        update["aspect"] = look_up(("aspect",), spec.aspect, tables.aspects, "an aspect (7.1)")
    update.update(_equipment_names(spec, tables, look_up))
    _ability_names(spec, tables, look_up)
    if problems is not None:
        problems.add(look_up.problems)
    elif look_up.problems:
        raise InputError(look_up.problems)
    return spec.model_copy(update=update)


def _ability_names(spec: CharacterInput, tables: Tables, look_up: _Lookup) -> None:
    """48-62, 49, 34-47: each skill, language, college and magic the file names, where its list is
    closed (an open one records a name as written)."""
    abilities = tables.abilities
    lists: tuple[tuple[str, Sequence[Ability | MagicAbility], Mapping[str, object], bool, str], ...] = (
        ("skills", spec.skills, abilities.skills, False, "a skill (48-62)"),
        (
            "languages",
            spec.languages,
            abilities.languages.entries,
            abilities.languages.open,
            "a language (49)",
        ),
        ("spells", spec.spells, abilities.magic.entries, abilities.magic.open, "magic (34-47)"),
    )
    for key, given, entries, open_list, what in lists:
        if not open_list:
            for index, item in enumerate(given):
                look_up((key, index, "name"), item.name, entries, what)
    if spec.college is not None:
        look_up(("college",), spec.college, abilities.colleges, "a college of magic (36-47)")


def _equipment_names(spec: CharacterInput, tables: Tables, look_up: _Lookup) -> _Ids:
    """8.7: weapons, armor and shield as ids."""
    update: _Ids = {
        "weapons": [
            item.model_copy(
                update={
                    "name": look_up(
                        ("weapons", index, "name"), item.name, tables.weapons, "on the Weapons Chart (20.2)"
                    )
                }
            )
            for index, item in enumerate(spec.weapons)
        ]
    }
    if spec.armor is not None:
        update["armor"] = look_up(("armor",), spec.armor, tables.armor, "on the Armor Chart (18.1)")
    if spec.shield is not None:
        name = look_up(("shield", "name"), spec.shield.name, tables.shields, "on the Shield Chart (17.5)")
        update["shield"] = spec.shield.model_copy(update={"name": name})
    return update


def _race_type(value: str, race: str | None, tables: Tables) -> str:
    """A giant's or shape-changer's type (6.6, 6.9), among its race's types when the race is set; an
    unknown one is left for the race step to refuse with the race's own types."""
    races = [tables.races[race]] if race in tables.races else list(tables.races.values())
    for candidate in races:
        found = resolve(value, candidate.types)
        if found is not None:
            return found
    return value
