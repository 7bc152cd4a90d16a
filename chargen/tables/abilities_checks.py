"""Checks that span abilities.yaml, record.yaml and the other tables: every id (and weapon group) they name
exists."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from chargen.tables.loader import Tables

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


def _open(tables: Tables, kind: str) -> bool:
    return tables.abilities.languages.open if kind == "languages" else tables.abilities.magic.open
