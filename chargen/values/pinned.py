"""The GM's rulings: a file's `overrides:` pinned as values of the graph, each kept with its reason and the
rules' value of that same node (`computed`); what depends on a pinned value is worked out from it (a
ruleset's own values from any value they read, 18.2's rolls from a Strike Chance)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from chargen.character_file import Override
from chargen.errors import InputError, Problem
from chargen.model import Character, Overridden, UnarmedLine, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.working import Node, Working, selected
from chargen.tables import Tables
from chargen.values.added import with_added
from chargen.values.evaluation import evaluate

EXPERIENCE_BANK = "experience_bank"
#: Values a GM may not rule directly: every combat value is worked out from them, so a ruling belongs on
#: the value that matters at the table (Defense, a Strike Chance) instead.
UNDERLYING = (
    Node("modified_agility"),
    Node("modified_manual_dexterity"),
    Node("base_chance", row_key="unarmed"),
)


def with_overrides(character: Character, given: Mapping[str, Override] | None, tables: Tables) -> Character:
    """`character` with the GM's values pinned in place (its ruleset's own values worked out again from
    them); every key that names no value a GM may rule is one problem (all of them in one InputError)."""
    if not given:
        return character
    found = list(evaluate(character, tables).values)
    problems: list[Problem] = []
    ruled: dict[str, Overridden] = {}
    nodes: dict[str, Node] = {}
    for name, override in given.items():
        working = _named(name, found, problems)
        if working is None:
            continue
        computed = _rules_bank(character) if working.key == EXPERIENCE_BANK else working.value
        ruled[working.key] = Overridden(value=override.value, reason=override.reason, computed=computed)
        nodes[working.key] = working.node
    if problems:
        raise InputError(problems)
    added = tables.combat.values
    for key, ruling in ruled.items():
        if key not in added:
            character = _pinned(character, nodes[key], ruling.value, tables)
    pins = {key: ruling.value for key, ruling in ruled.items() if key in added}
    return replace(with_added(character, tables, pins), overrides=ruled)


_BANK = Working(node=Node(EXPERIENCE_BANK), label="Experience Point Bank", value=None, rule="8.6", terms=())


def _named(name: str, found: list[Working], problems: list[Problem]) -> Working | None:
    """The value `name` names, or None with a problem said."""
    if name.strip().casefold().replace("-", "_").replace(" ", "_") == EXPERIENCE_BANK:
        return _BANK
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
    if bank is not None:
        return bank
    # a character as it stands gives no bank and no 8.5 Experience: the rules leave it nothing known
    return character.experience_points or 0


def _nearest(name: str, found: list[Working]) -> str:
    """`; did you mean 'defense'?` for a misspelt value's name (`defence`), by its whole key or its last
    part; '' when none is close."""
    keys = {item.key: item.key for item in found} | {EXPERIENCE_BANK: EXPERIENCE_BANK}
    keys |= {key.rsplit(".", 1)[-1]: key for key in list(keys) if key.rsplit(".", 1)[-1] not in keys}
    close = difflib.get_close_matches(name.strip().casefold(), list(keys), n=1)
    return f"; did you mean {keys[close[0]]!r}?" if close else ""


def _ruleable(name: str, working: Working, problems: list[Problem]) -> Working | None:
    """The working, or None with a problem said when a GM may not rule it directly."""
    if working.node in UNDERLYING or working.node.row_key == "characteristics" or working.shown:
        problems.append(
            _problem(
                name, "is worked into other values: overrule the value that matters instead (Defense, ...)"
            )
        )
        return None
    return working


def _problem(name: str, message: str) -> Problem:
    return Problem(("overrides", name), message, value=name)


def _pinned(character: Character, node: Node, value: int, tables: Tables) -> Character:
    """`character` with `value` at the value `node` is (and 18.2's rolls read again from a Strike Chance)."""
    combat = character.combat
    if node.name == EXPERIENCE_BANK:
        return replace(character, experience_bank=value)
    if node == Node("tmr"):
        return replace(character, tmr=value)
    if node.row is not None:
        lines = list(combat.weapons)
        lines[node.row] = _line(lines[node.row], node.name, value, tables)
        return replace(character, combat=replace(combat, weapons=lines))
    if node.row_key == "unarmed":
        return replace(
            character, combat=replace(combat, unarmed=_line(combat.unarmed, node.name, value, tables))
        )
    if node.row_key == "defense_postures":
        postures = {**(combat.defense_postures or {}), node.name: value}
        return replace(character, combat=replace(combat, defense_postures=postures))
    plain: dict[str, Any] = {node.name: value}  # defense, initiative, armored tmr, stun_*, breakage_check
    return replace(character, combat=replace(combat, **plain))


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
