"""The GM's rulings: a file's `overrides:` put in place of the values the rules compute, each kept with its
reason and the computed value; what depends on an overridden value is worked out again from it (a sprinting
TMR from the armored TMR, 18.2's rolls from a Strike Chance)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from chargen.character_file import Override
from chargen.errors import InputError, Problem
from chargen.generation.explained import workings
from chargen.model import Character, Combat, Overridden, UnarmedLine, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.working import Working, selected
from chargen.tables import Tables

EXPERIENCE_BANK = "experience_bank"
#: Values a GM may not rule directly: every combat value is worked out from them, so a ruling belongs on
#: the value that matters at the table (Defense, a Strike Chance) instead.
UNDERLYING = ("characteristics.", "modified_agility", "modified_manual_dexterity", "unarmed.base_chance")


def with_overrides(character: Character, given: Mapping[str, Override] | None, tables: Tables) -> Character:
    """`character` with the GM's values in place; every key that names no value a GM may rule is one
    problem (all of them in one InputError)."""
    if not given:
        return character
    found = workings(character, tables)
    problems: list[Problem] = []
    ruled: dict[str, Overridden] = {}
    for name, override in given.items():
        key = _key(name, found, problems)
        if key is None:
            continue
        computed = _rules_bank(character) if key == EXPERIENCE_BANK else _working(found, key).value
        ruled[key] = Overridden(value=override.value, reason=override.reason, computed=computed)
    if problems:
        raise InputError(problems)
    for key, ruling in ruled.items():
        character = _placed(character, key, ruling.value, tables)
    return replace(character, overrides=ruled)


def _key(name: str, found: list[Working], problems: list[Problem]) -> str | None:
    """The working key `name` names, or None with a problem said."""
    if name.strip().casefold().replace("-", "_").replace(" ", "_") == EXPERIENCE_BANK:
        return EXPERIENCE_BANK
    exact = [item for item in found if item.key.casefold() == name.strip().casefold()]
    if exact:  # `combat.tmr` is the armored TMR, though `tmr` would name both
        return _ruleable(name, exact[0], problems)
    try:
        matched = selected(found, [name])
    except InputError:
        told = f"is not a value chargen works out{_nearest(name, found)} (`chargen explain FILE` lists them)"
        problems.append(_problem(name, told))
        return None
    if len(matched) != 1:
        keys = ", ".join(item.key for item in matched[:4])
        problems.append(_problem(name, f"names {len(matched)} values ({keys}, ...): name one"))
        return None
    return _ruleable(name, matched[0], problems)


def _rules_bank(character: Character) -> int:
    """The Experience Point Bank as the rules leave it (8.6): what is left after buying, or every
    Experience Point when nothing was bought (the record shows the same)."""
    bank = character.experience_bank
    return character.experience_points if bank is None else bank


def _nearest(name: str, found: list[Working]) -> str:
    """`; did you mean 'defense'?` for a misspelt value's name (`defence`), by its whole key or its last
    part; '' when none is close."""
    keys = {item.key: item.key for item in found} | {EXPERIENCE_BANK: EXPERIENCE_BANK}
    keys |= {key.rsplit(".", 1)[-1]: key for key in list(keys) if key.rsplit(".", 1)[-1] not in keys}
    close = difflib.get_close_matches(name.strip().casefold(), list(keys), n=1)
    return f"; did you mean {keys[close[0]]!r}?" if close else ""


def _ruleable(name: str, working: Working, problems: list[Problem]) -> str | None:
    """The working's key, or None with a problem said when a GM may not rule it directly."""
    if working.key.startswith(UNDERLYING) or working.shown:
        problems.append(
            _problem(
                name, "is worked into other values: overrule the value that matters instead (Defense, ...)"
            )
        )
        return None
    return working.key


def _problem(name: str, message: str) -> Problem:
    return Problem(("overrides", name), message, value=name)


def _working(found: list[Working], key: str) -> Working:
    return next(item for item in found if item.key == key)


def _placed(character: Character, key: str, value: int, tables: Tables) -> Character:
    """`character` with `value` at `key` (and what depends on it worked out again)."""
    combat = character.combat
    if key == EXPERIENCE_BANK:
        return replace(character, experience_bank=value)
    if key == "tmr":
        return replace(character, tmr=value)
    group, _, rest = key.partition(".")
    if group == "combat" and rest == "tmr":
        formula = tables.combat.movement.sprint_formula
        sprint = combat.sprint_tmr if formula is None else formula(value)
        return replace(character, combat=replace(combat, tmr=value, sprint_tmr=sprint))
    if group == "defense_postures":
        return replace(
            character,
            combat=replace(combat, defense_postures={**(combat.defense_postures or {}), rest: value}),
        )
    if group == "unarmed":
        return replace(character, combat=replace(combat, unarmed=_line(combat.unarmed, rest, value, tables)))
    if group == "weapons":
        return replace(character, combat=_weapon_placed(combat, rest, value, tables))
    plain: dict[str, Any] = {key: value}  # defense, initiative, sprint_tmr, stun_*, breakage_check
    return replace(character, combat=replace(combat, **plain))


def _weapon_placed(combat: Combat, rest: str, value: int, tables: Tables) -> Combat:
    """The weapon line `rest` names: `broadsword.strike_chance`, or `broadsword-2.strike_chance` for the
    second Broadsword listed (chargen.generation.explained_weapons names them so)."""
    name, _, field = rest.partition(".")
    occurrence = 1
    if name not in tables.weapons:
        name, _, count = name.rpartition("-")
        occurrence = int(count)
    lines, seen = [], 0
    for line in combat.weapons:
        if line.name == name:
            seen += 1
            if seen == occurrence:
                line = _line(line, field, value, tables)
        lines.append(line)
    return replace(combat, weapons=lines)


Line = TypeVar("Line", WeaponLine, UnarmedLine)


def _line(line: Line, field: str, value: int, tables: Tables) -> Line:
    """A weapon (or unarmed) line with its Initiative or Strike Chance ruled; a Strike Chance reads 18.2's
    chart again for the rolls that do Endurance damage and Grievous Injury."""
    if field == "initiative":
        return replace(line, initiative=value)
    row = rules.special_damage_row(tables.combat.special_damage.rows, value)
    return replace(
        line,
        strike_chance=value,
        endurance_damage=rules.roll_range(row.endurance_high if row else None),
        grievous_injury=rules.roll_range(row.grievous_high if row else None),
    )
