"""8.6 and the rest of rule 3's record: skills (48-62), languages (49), a college and its magic (34-47),
the Experience they cost, and what else the player writes down (equipment, notes, player, campaign).

Runs after the derived values: it needs the race, its type, the 8.5 Experience and the 6.3 multiplier, and
changes none of them. A file that lists none of these gets back the Character unchanged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chargen.character_file import Ability, CharacterInput, MagicAbility
from chargen.errors import InputError, KeyPath, Problem
from chargen.model import Character, Gear, MagicRanked, Ranked
from chargen.names import name_key, resolve, unknown_problem
from chargen.rules.experience import experience_spent
from chargen.tables import Tables


def with_abilities(made: Character, spec: CharacterInput, tables: Tables) -> Character:
    """`made` with the file's skills, languages, college, magic, equipment, player, campaign and notes,
    checked, and the Experience Point Bank 8.6 leaves; every problem raised at once."""
    if not _lists_any(spec):
        return made
    problems: list[Problem] = []
    skills = _ranked("skills", spec.skills, tables.abilities.skills, None, "a skill (48-62)", problems)
    languages = _ranked(
        "languages",
        spec.languages,
        tables.abilities.languages.entries,
        tables.abilities.languages.open,
        "a language (49)",
        problems,
    )
    college = _college(spec.college, made, tables, problems)
    spells = _magic(spec.spells, made.race, college, tables, problems)
    bank = None
    if skills or languages or spells:
        spending = experience_spent(
            ((item.name, item.rank) for item in skills),
            ((item.name, item.rank) for item in languages),
            ((item.name, item.rank) for item in spells),
            made.experience_multiplier,
            tables.abilities.experience,
        )
        bank = made.experience_points - spending.spent
        if bank < 0:
            problems.append(_overspent(spending.spent, made.experience_points, tables))
    if problems:
        raise InputError(problems)
    return replace(
        made,
        player=spec.player,
        campaign=spec.campaign,
        equipment=[Gear(item.name, item.weight, item.count) for item in spec.equipment],
        skills=skills,
        languages=languages,
        college=college,
        spells=spells,
        experience_bank=bank,
        notes=[*made.notes, *(note for note in spec.notes or [] if note not in made.notes)],
    )


def _lists_any(spec: CharacterInput) -> bool:
    return bool(
        spec.skills
        or spec.languages
        or spec.college
        or spec.spells
        or spec.equipment
        or spec.player
        or spec.campaign
        or spec.notes
    )


def _ranked(
    key: str,
    given: Sequence[Ability],
    entries: Mapping[str, Any],
    open_list: bool | None,
    what: str,
    problems: list[Problem],
) -> list[Ranked]:
    """Names as table ids (an open list keeps a name it does not know as written), each once, each Rank
    within the entry's maximum."""
    found: list[Ranked] = []
    seen: set[str] = set()
    for index, item in enumerate(given):
        entry_id = resolve(item.name, entries)
        if entry_id is None and not open_list:
            problems.append(unknown_problem((key, index, "name"), item.name, entries, what))
            continue
        name = entry_id or item.name
        entry = entries.get(name)
        rule = getattr(entry, "rule", None) or ("49" if key == "languages" else "48")
        _check_once((key, index, "name"), name, seen, rule, problems)
        _check_rank((key, index, "rank"), item.rank, getattr(entry, "max_rank", None), rule, problems)
        found.append(Ranked(name, item.rank))
    return found


def _check_once(path: KeyPath, name: str, seen: set[str], rule: str, problems: list[Problem]) -> None:
    if name_key(name) in seen:
        problems.append(Problem(path, f"{name} is listed twice; list it once with its Rank", rule, name))
    seen.add(name_key(name))


def _check_rank(path: KeyPath, rank: int, maximum: int | None, rule: str, problems: list[Problem]) -> None:
    if maximum is not None and rank > maximum:
        problems.append(Problem(path, f"Rank {rank} is above the table's maximum of {maximum}", rule, rank))


def _college(given: str | None, made: Character, tables: Tables, problems: list[Problem]) -> str | None:
    """34: one college, from the table; 6.6: never the one opposed to a giant's element."""
    if given is None:
        return None
    colleges = tables.abilities.colleges
    college = resolve(given, colleges)
    if college is None:
        problems.append(unknown_problem(("college",), given, colleges, "a college of magic (36-47)"))
        return None
    race = tables.races[made.race]
    element = race.types[made.race_type].element if made.race_type in race.types else None
    opposed = tables.abilities.opposed_elements.get(element or "")
    if opposed is not None and colleges[college].element == opposed:
        problems.append(
            Problem(
                ("college",),
                f"a {element} giant may not be a caster of {colleges[college].name}, the college of the "
                "opposed element",
                "6.6",
                given,
            )
        )
    return college


def _magic(
    given: Sequence[MagicAbility], race: str, college: str | None, tables: Tables, problems: list[Problem]
) -> list[MagicRanked]:
    """Talents, spells and rituals: the table's kind (or, for a name an open list does not know, the
    file's); a spell or ritual needs a college (34); what the race grants is not typed in (6.4-6.9)."""
    magic = tables.abilities.magic
    found: list[MagicRanked] = []
    seen: set[str] = set()
    for index, item in enumerate(given):
        path = ("spells", index)
        entry_id = resolve(item.name, magic.entries)
        entry = magic.entries.get(entry_id or "")
        if entry is None and not magic.open:
            problems.append(unknown_problem((*path, "name"), item.name, magic.entries, "magic (34-47)"))
            continue
        name = entry_id or item.name
        rule = (entry.rule if entry else None) or "34"
        if entry is not None and race in entry.granted_to:
            message = f"{entry.name} is the race's own talent; the record lists it without typing it in"
            problems.append(Problem((*path, "name"), message, rule, item.name))
            continue
        kind = entry.kind if entry else item.kind
        if kind is None or (entry is not None and item.kind not in (None, entry.kind)):
            expected = f"{entry.name} is a {entry.kind}" if entry else "give kind: talent, spell or ritual"
            problems.append(Problem((*path, "kind"), expected, rule, item.kind))
            continue
        if kind != "talent" and college is None:
            message = f"a {kind} is cast by an adept of a college; the file names no college"
            problems.append(Problem((*path, "name"), message, "34", item.name))
        _check_once((*path, "name"), name, seen, rule, problems)
        _check_rank((*path, "rank"), item.rank, entry.max_rank if entry else None, rule, problems)
        found.append(MagicRanked(name, item.rank, kind))
    return found


def _overspent(spent: int, experience: int, tables: Tables) -> Problem:
    flat = tables.abilities.experience.rank_zero_skill.cost
    return Problem(
        ("skills",),
        f"buying these costs {spent} Experience Points ({flat} for each skill or language at Rank 0) but "
        f"the character has {experience} (8.5)",
        "8.6",
        spent,
    )
