"""Checks that span abilities.yaml, record.yaml and the other tables: every id (and weapon group) they name
exists."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping

from chargen.tables.abilities_schema import TypicalRank
from chargen.tables.loader import Tables
from chargen.vocabulary import EIGHT

Problem = tuple[str, tuple[str | int, ...], str]


def abilities_check(tables: Tables) -> Iterator[Problem]:
    abilities = tables.abilities
    for key, entry in abilities.magic.entries.items():
        for index, race in enumerate(entry.granted_to):
            if race not in tables.races:
                yield "abilities", ("magic", "entries", key, "granted_to", index), f"{race!r} is not a race"
        if entry.college is not None and entry.college not in abilities.colleges:
            yield "abilities", ("magic", "entries", key, "college"), f"{entry.college!r} is not a college"
    elements = set(abilities.opposed_elements)
    for key, college in abilities.colleges.items():
        if college.element is not None and college.element not in elements:
            yield "abilities", ("colleges", key, "element"), f"{college.element!r} has no opposed element"
    chart = abilities.experience.cost_chart
    listed: dict[str, Mapping[str, object]] = {
        "skills": abilities.skills,
        "languages": abilities.languages.entries,
        "magic": abilities.magic.entries,
    }
    for kind, entries in listed.items():
        for key in getattr(chart, kind):
            if key not in entries and not (kind != "skills" and _open(tables, kind)):
                yield "abilities", ("experience", "cost_chart", kind, key), f"{key!r} is not in {kind}"
    yield from _race_skill_costs(tables)
    yield from _chart_in_play(tables)
    yield from _archetype_abilities(tables)
    for index, weapon in enumerate(tables.record.knockout.barred_weapons):
        if weapon not in tables.weapons:
            yield "record", ("knockout", "barred_weapons", index), f"{weapon!r} is not on the Weapons Chart"
    groups = tables.weapon_file.groups
    increase = tables.combat.damage_increase
    named = [
        ("record", ("knockout", "barred_groups"), tables.record.knockout.barred_groups),
        ("combat", ("damage_increase", "strength_barred_groups"), increase.strength_barred_groups),
    ]
    for table, path, barred in named:
        for index, group in enumerate(barred):
            if group not in groups:
                yield table, (*path, index), f"{group!r} is not a group of the Weapons Chart"


def _race_skill_costs(tables: Tables) -> Iterator[Problem]:
    """6.4-6.9: the skills a race advances in for less are skills of abilities.yaml."""
    for race_id, race in tables.races.items():
        for key in race.skill_costs:
            if key not in tables.abilities.skills:
                yield "races", ("races", race_id, "skill_costs", key), f"{key!r} is not in skills"


def _chart_in_play(tables: Tables) -> Iterator[Problem]:
    """17, 87: the chart prices characteristics Experience raises (3, 3.7, 3.8) and what the Weapons and
    Shield Charts list."""
    chart = tables.abilities.experience.cost_chart
    listed: dict[str, tuple[Collection[str], str]] = {
        "characteristics": (EIGHT, "a characteristic Experience raises (3, 3.7, 3.8)"),
        "weapons": (tables.weapons, "on the Weapons Chart (20.2)"),
        "shields": (tables.shields, "on the Shield Chart (17.5)"),
    }
    for kind, (known, what) in listed.items():
        for key in getattr(chart, kind):
            if key not in known:
                yield "abilities", ("experience", "cost_chart", kind, key), f"{key!r} is not {what}"


def _open(tables: Tables, kind: str) -> bool:
    return tables.abilities.languages.open if kind == "languages" else tables.abilities.magic.open


def _archetype_abilities(tables: Tables) -> Iterator[Problem]:
    """An archetype's typical skills, colleges and magic name abilities.yaml's ids, each once; a
    spell tied to a college comes with that college in the list (34). A GM's maximum Rank caps the typical
    Rank when the NPC is made, so lowering one never breaks an archetype."""
    abilities = tables.abilities
    for name, archetype in tables.archetypes.items():
        typical, where = archetype.abilities, ("archetypes", name, "abilities")
        yield from _typical((*where, "skills"), typical.skills, abilities.skills, "a skill (48-62)")
        yield from _typical((*where, "magic"), typical.magic, abilities.magic.entries, "magic (34-47)")
        for index, college in enumerate(typical.colleges):
            if college not in abilities.colleges:
                yield "archetypes", (*where, "colleges", index), f"{college!r} is not a college (36-47)"
        for index, item in enumerate(typical.magic):
            tied = getattr(abilities.magic.entries.get(item.name), "college", None)
            if tied is not None and tied not in typical.colleges:
                message = f"{item.name!r} is cast by adepts of {tied!r}, which colleges does not list (34)"
                yield "archetypes", (*where, "magic", index, "name"), message


def _typical(
    where: tuple[str, ...], listed: list[TypicalRank], entries: Mapping[str, object], what: str
) -> Iterator[Problem]:
    seen: set[str] = set()
    for index, item in enumerate(listed):
        entry = entries.get(item.name)
        if entry is None:
            yield "archetypes", (*where, index, "name"), f"{item.name!r} is not {what} in abilities.yaml"
            continue
        if item.name in seen:
            yield "archetypes", (*where, index, "name"), f"{item.name!r} is listed twice ({what})"
        seen.add(item.name)
