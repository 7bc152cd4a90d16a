"""What a raise in the file's ledger names (17, 87): a characteristic, a weapon or shield the character holds,
Unarmed Combat (21), or a skill, language or spell (held, or new), read as people write names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from chargen.character_file import Item
from chargen.errors import KeyPath, Problem
from chargen.generation.abilities import not_cast
from chargen.model import MagicRanked, Ranked
from chargen.names import name_key, resolve, unknown_problem
from chargen.tables import Tables
from chargen.vocabulary import EIGHT

Kind = Literal["characteristic", "weapon", "shield", "unarmed", "skill", "language", "spell"]

#: 3, 3.7, 3.8: the primaries, Fatigue and Perception may be raised by Experience; Physical Beauty (3.9)
#: only by magic, for a while, so no optional characteristic is raised here.
RAISED_BY_EXPERIENCE = EIGHT
#: 21: Unarmed Combat, as a file may name it.
UNARMED = ("unarmed", "unarmed-combat", "bare-hands")


@dataclass(slots=True)
class Standing:
    """What the ledger may raise, as it stands before an entry: changed entry by entry as it is applied."""

    characteristics: dict[str, int]
    weapons: list[Item]
    shield: Item | None
    unarmed_rank: int | None
    skills: list[Ranked]
    languages: list[Ranked]
    spells: list[MagicRanked]
    college: str | None
    race: str
    bank: int
    total: int


@dataclass(frozen=True, slots=True)
class Target:
    """One thing a raise names: its kind, its id (a code, a chart id, a table id or a name as written), how
    the record names it, and its value or Rank before the raise (None: unranked, or not yet known)."""

    kind: Kind
    name: str
    label: str
    before: int | None


def target_of(path: KeyPath, written: str, standing: Standing, tables: Tables) -> Target | Problem:
    """What `written` names, in this order: a characteristic code, Unarmed Combat, a weapon held, the
    shield held, a skill, language or spell the character has, then one of the tables' it may learn."""
    code = written.strip().upper()
    if code in standing.characteristics:
        if code not in RAISED_BY_EXPERIENCE:
            return Problem(path, f"{code} is not raised with Experience", "3.9", written)
        return Target("characteristic", code, code, standing.characteristics[code])
    if name_key(written) in UNARMED:
        return Target("unarmed", "unarmed", "Unarmed Combat", standing.unarmed_rank)
    held = _held(written, standing, tables)
    if held is not None:
        return held
    known = _known(written, standing, tables)
    if known is not None:
        return known
    return _new(path, written, standing, tables)


def _held(written: str, standing: Standing, tables: Tables) -> Target | None:
    weapons = {item.name: tables.weapons[item.name] for item in standing.weapons}
    found = resolve(written, weapons)
    if found is not None:
        rank = next(item.rank for item in standing.weapons if item.name == found)
        return Target("weapon", found, weapons[found].name, rank)
    shield = standing.shield
    if shield is not None and resolve(written, {shield.name: tables.shields[shield.name]}) is not None:
        return Target("shield", shield.name, tables.shields[shield.name].name, shield.rank)
    return None


def _known(written: str, standing: Standing, tables: Tables) -> Target | None:
    """A skill, language or spell the character has, by its id or the table's name for it."""
    abilities = tables.abilities
    lists: tuple[tuple[Kind, list[Ranked] | list[MagicRanked], Mapping[str, object]], ...] = (
        ("skill", standing.skills, abilities.skills),
        ("language", standing.languages, abilities.languages.entries),
        ("spell", standing.spells, abilities.magic.entries),
    )
    for kind, have, entries in lists:
        ranks = {item.name: item.rank for item in have}
        found = resolve(written, {name: entries.get(name) for name in ranks})
        if found is not None:
            return Target(kind, found, _label(found, entries), ranks[found])
    return None


def _new(path: KeyPath, written: str, standing: Standing, tables: Tables) -> Target | Problem:
    """A skill, language or spell the character does not have yet (8.6: one may be learned after any
    adventure), from the tables: a name they do not list is refused even where the file's own lists are
    open (`languages:` takes any name), for it cannot be told from a misspelt characteristic or weapon."""
    abilities = tables.abilities
    lists: tuple[tuple[Kind, Mapping[str, object]], ...] = (
        ("skill", abilities.skills),
        ("language", abilities.languages.entries),
        ("spell", abilities.magic.entries),
    )
    for kind, entries in lists:
        found = resolve(written, entries)
        if found is not None:
            return _learned(path, Target(kind, found, _label(found, entries), None), standing, tables)
    named: dict[str, object] = {
        **{code: None for code in standing.characteristics},
        **{item.name: tables.weapons[item.name] for item in standing.weapons},
        **abilities.skills,
        **abilities.languages.entries,
        **abilities.magic.entries,
    }
    what = "a characteristic, a weapon or shield held, a skill, a language or a spell (17, 87)"
    return unknown_problem(path, written, named, what)


def _learned(path: KeyPath, target: Target, standing: Standing, tables: Tables) -> Target | Problem:
    """Magic learned is the race's own talent (6.4-6.9: granted, never bought) or one the character's
    college casts (34, 4.2), as a file's own spells are."""
    if target.kind != "spell":
        return target
    entry = tables.abilities.magic.entries[target.name]
    rule = entry.rule or "34"
    if standing.race in entry.granted_to:
        return Problem(
            path, f"{entry.name} is the race's own talent, not learned with Experience", rule, target.name
        )
    refused = not_cast(entry, entry.kind, standing.college, tables)
    return target if refused is None else Problem(path, refused, "34", target.name)


def _label(found: str, entries: Mapping[str, object]) -> str:
    display = getattr(entries.get(found), "name", None)
    return display if isinstance(display, str) else found
