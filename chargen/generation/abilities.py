"""8.6 and the rest of rule 3's record: skills (48-62), languages (49), a college and its magic (34-47),
the Experience they cost, and what else the player writes down (equipment, notes, player, campaign).

Runs after the derived values: it needs the race, its type, the 8.5 Experience and the 6.3 multiplier, and
changes none of them. A file that lists none of these gets back the Character unchanged. An NPC
is given its archetype's typical skills, college and magic instead: given, not bought (8.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from chargen.character_file import Ability, CharacterInput, MagicAbility
from chargen.errors import InputError, KeyPath, Problem
from chargen.generation.decisions import NO_ABILITIES, Abilities
from chargen.messages import unlisted_magic
from chargen.model import Character, Gear, MagicRanked, Ranked
from chargen.names import name_key, resolve, unknown_problem
from chargen.rules.experience import experience_spent, race_costs
from chargen.rules.magic import may_cast, opposed_to_element
from chargen.tables import Tables
from chargen.tables.abilities_schema import MagicEntry
from chargen.tables.memo import per_tables
from chargen.tables.schema import Archetype


@dataclass(frozen=True, slots=True)
class FileAbilities:
    """A file's own skills, languages, college and magic as checked, and the 8.6 Bank they leave."""

    skills: list[Ranked]
    languages: list[Ranked]
    college: str | None
    spells: list[MagicRanked]
    bank: int | None


def file_abilities(
    spec: CharacterInput, race: str, race_type: str | None, experience_points: int | None, tables: Tables
) -> FileAbilities | None:
    """The file's skills, languages, college and magic checked for this race (6.4-6.9) and the 8.5
    Experience (None: not known, its heritage found wrong; the Experience then unchecked), with the Bank 8.6
    leaves; every problem raised at once. None when the file lists none."""
    if not _lists_abilities(spec):
        return None
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
    college = _college(spec.college, race, race_type, tables, problems)
    spells = _magic(spec.spells, race, college, tables, problems)
    bank = None
    if (skills or languages or spells) and not spec.abilities_given and experience_points is not None:
        spending = experience_spent(
            ((item.name, item.rank) for item in skills),
            ((item.name, item.rank) for item in languages),
            ((item.name, item.rank) for item in spells),
            race_costs(tables.races[race]),
            tables.abilities.experience,
        )
        bank = experience_points - spending.spent
        if bank < 0:
            problems.append(_overspent(spending.spent, experience_points, tables))
    if problems:
        raise InputError(problems)
    return FileAbilities(skills, languages, college, spells, bank)


def with_abilities(made: Character, spec: CharacterInput, chosen: FileAbilities | None) -> Character:
    """`made` with the file's skills, languages, college and magic (`chosen`, checked by file_abilities),
    equipment, player, campaign and notes."""
    if not _lists_any(spec):
        return made
    if chosen is None and not spec.abilities_given:  # the abilities as made: bought, or none
        return replace(
            made,
            player=spec.player,
            campaign=spec.campaign,
            equipment=[Gear(item.name, item.weight, item.count) for item in spec.equipment],
            notes=_notes(made, spec),
        )
    return replace(
        made,
        player=spec.player,
        campaign=spec.campaign,
        equipment=[Gear(item.name, item.weight, item.count) for item in spec.equipment],
        skills=chosen.skills if chosen else [],
        languages=chosen.languages if chosen else [],
        college=chosen.college if chosen else None,
        spells=chosen.spells if chosen else [],
        abilities_given=True if spec.abilities_given else None,
        # a character as it stands keeps the bank its file gives: its 8.5 Experience is not known
        experience_bank=made.experience_bank if made.standing else chosen.bank if chosen else None,
        notes=_notes(made, spec),
    )


def _notes(made: Character, spec: CharacterInput) -> list[str]:
    """The derived notes, then the file's own that are not among them."""
    return [*made.notes, *(note for note in spec.notes or [] if note not in made.notes)]


def given_abilities(
    spec: CharacterInput, archetype_id: str | None, race: str, race_type: str | None, tables: Tables
) -> Abilities:
    """An NPC knows its archetype's typical skills, the first college of its preference list that
    its race may join (6.6), and the talents and spells that college (or any, 4.2) casts, each at its typical
    Rank within the table's maximum. Given, not bought, so the Experience Point Bank is not charged (8.6);
    chosen without dice, so the rest of the NPC is as it was. A file that lists skills, languages, a college
    or magic keeps its own."""
    if _lists_abilities(spec):
        return NO_ABILITIES
    return _typical_of(archetype_id, race, race_type, tables)


@per_tables(1024)
def _typical_of(archetype_id: str | None, race: str, race_type: str | None, tables: Tables) -> Abilities:
    """An archetype's typical abilities for a race and type, worked out once per Tables: a batch meets a
    handful of these thousands of times."""
    return _typical_abilities(tables.archetypes.get(archetype_id or ""), race, race_type, tables)


def _typical_abilities(
    archetype: Archetype | None, race: str, race_type: str | None, tables: Tables
) -> Abilities:
    if archetype is None:
        return NO_ABILITIES
    typical = archetype.abilities
    college = next((key for key in typical.colleges if _may_join(key, race, race_type, tables)), None)
    entries = tables.abilities.magic.entries
    spells = tuple(
        MagicRanked(item.name, _capped(item.rank, entry.max_rank), entry.kind)
        for item in typical.magic
        if may_cast(entry := entries[item.name], college) and race not in entry.granted_to
    )
    listed = tables.abilities.skills
    skills = tuple(
        Ranked(item.name, _capped(item.rank, listed[item.name].max_rank)) for item in typical.skills
    )
    if not (skills or college or spells):
        return NO_ABILITIES
    return Abilities(skills, college, spells, given=True)


def bought_abilities(
    spec: CharacterInput,
    archetype_id: str | None,
    race: str,
    race_type: str | None,
    experience_points: int,
    tables: Tables,
) -> Abilities:
    """A rolled character (or a file's partial character) chooses what its archetype's NPCs are
    given, but buys it with its own 8.5 Experience (8.6, 8.7): the college its race may join (choosing one
    costs nothing, 34), the talents and spells that college casts, then the skills, each at the highest of
    its typical Ranks the Cost Chart prices within what is left, else a skill at Rank 0 for 100 Experience
    Points (8.6's note) while they last. Magic the chart does not price (the shipped chart is empty) is
    taken at Rank 0 and the record says it was not charged. A file that lists abilities, or says they were
    given, keeps its own (`with_abilities`). Worked out once per Tables for each archetype, race, type
    and Experience (an Abilities is never changed once made)."""
    if _lists_abilities(spec) or spec.abilities_given or archetype_id is None:
        return NO_ABILITIES
    return _bought(archetype_id, race, race_type, experience_points, tables)


@per_tables(4096)
def _bought(
    archetype_id: str, race: str, race_type: str | None, experience_points: int, tables: Tables
) -> Abilities:
    # Every choice is an id of the tables at a Rank within its maximum, of a college the race may join
    # and magic that college casts (not the race's own talents), each once (tables.abilities_checks) and
    # within the Experience: what `with_abilities` checks of a file's, so it is not checked again.
    typical = _typical_of(archetype_id, race, race_type, tables)
    if typical is NO_ABILITIES:
        return NO_ABILITIES
    prices = _Prices(race, tables)
    spells, left = _bought_magic(typical.spells, prices, experience_points)
    skills: list[Ranked] = []
    for skill in typical.skills:
        rank = prices.affordable(skill.name, skill.rank, left, magic=False)
        if rank is not None:
            skills.append(Ranked(skill.name, rank))
            left -= prices.of(skill.name, rank, magic=False) or 0
    if not (skills or spells or typical.college):
        return NO_ABILITIES
    # 8.6's Bank: what is left, the charge being the sum of each entry's (rules.experience); none when
    # nothing was bought, as `with_abilities` records a file's.
    bank = left if skills or spells else None
    return Abilities(tuple(skills), typical.college, tuple(spells), experience_bank=bank)


def _bought_magic(
    typical: Sequence[MagicRanked], prices: _Prices, left: int
) -> tuple[list[MagicRanked], int]:
    """The talents and spells bought first, and the Experience left after them."""
    spells: list[MagicRanked] = []
    for item in typical:
        rank = prices.affordable(item.name, item.rank, left, magic=True)
        price = prices.of(item.name, rank or 0, magic=True)
        if rank is None and price is not None:
            continue  # priced, and beyond what is left
        spells.append(MagicRanked(item.name, rank or 0, item.kind))
        left -= price or 0
    return spells, left


class _Prices:
    """8.6's Experience for one entry at one Rank, for this character (None: the chart does not price it)."""

    def __init__(self, race: str, tables: Tables) -> None:
        self.race = race
        self.tables = tables

    def of(self, name: str, rank: int, *, magic: bool) -> int | None:
        return _price(name, rank, magic, self.race, self.tables)

    def affordable(self, name: str, typical: int, left: int, *, magic: bool) -> int | None:
        """The highest Rank from `typical` down to 0 the chart prices at `left` or less, or None."""
        for rank in range(typical, -1, -1):
            points = self.of(name, rank, magic=magic)
            if points is not None and points <= left:
                return rank
        return None


@per_tables(4096)
def _price(name: str, rank: int, magic: bool, race: str, tables: Tables) -> int | None:
    """Kept per Tables by (entry, Rank, magic or not, race): a few hundred prices serve every roll."""
    entry = [(name, rank)]
    experience, costs = tables.abilities.experience, race_costs(tables.races[race])
    spending = experience_spent(() if magic else entry, (), entry if magic else (), costs, experience)
    return None if spending.uncharged else spending.spent


def _capped(rank: int, maximum: int | None) -> int:
    """The typical Rank, within a GM's maximum for the entry."""
    return rank if maximum is None else min(rank, maximum)


def _lists_abilities(spec: CharacterInput) -> bool:
    return bool(spec.skills or spec.languages or spec.college or spec.spells)


def _element(race: str, race_type: str | None, tables: Tables) -> str | None:
    """The race type's element (6.6's giants), or None."""
    types = tables.races[race].types
    return types[race_type].element if race_type in types else None


def _may_join(college: str, race: str, race_type: str | None, tables: Tables) -> bool:
    element = _element(race, race_type, tables)
    return not opposed_to_element(
        element, tables.abilities.colleges[college], tables.abilities.opposed_elements
    )


def _lists_any(spec: CharacterInput) -> bool:
    return bool(
        _lists_abilities(spec)
        or spec.abilities_given
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


def _college(
    given: str | None, race: str, race_type: str | None, tables: Tables, problems: list[Problem]
) -> str | None:
    """34: one college, from the table; 6.6: never the one opposed to a giant's element."""
    if given is None:
        return None
    colleges = tables.abilities.colleges
    college = resolve(given, colleges)
    if college is None:
        problems.append(unknown_problem(("college",), given, colleges, "a college of magic (36-47)"))
        return None
    if not _may_join(college, race, race_type, tables):
        element = _element(race, race_type, tables)
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
        refused = unlisted_refused(path, item.name, item.kind, tables) if entry is None else None
        if refused is not None:
            problems.append(refused)
            continue
        name = entry_id or item.name
        rule = (entry.rule if entry else None) or "34"
        if entry is not None and race in entry.granted_to:
            message = f"{entry.name} is the race's own talent; the record lists it without typing it in"
            problems.append(Problem((*path, "name"), message, rule, item.name))
            continue
        kind = entry.kind if entry else item.kind
        if kind is None:  # an unlisted name without its kind: told by unlisted_refused above
            continue
        if entry is not None and item.kind not in (None, entry.kind):
            problems.append(Problem((*path, "kind"), f"{entry.name} is a {entry.kind}", rule, item.kind))
            continue
        refused_here = not_cast(entry, kind, college, tables)
        if refused_here:
            problems.append(Problem((*path, "name"), refused_here, "34", item.name))
        _check_once((*path, "name"), name, seen, rule, problems)
        _check_rank((*path, "rank"), item.rank, entry.max_rank if entry else None, rule, problems)
        found.append(MagicRanked(name, item.rank, kind))
    return found


def unlisted_refused(path: KeyPath, name: str, kind: str | None, tables: Tables) -> Problem | None:
    """34: one rule for a talent, spell or ritual the tables do not list (Book Two's lists are not in them),
    in the walk, the page and a file alike: kept with the kind it is given, its cast chance the GM's to
    fill, while the tables' list is open; None when kept, else the problem."""
    magic = tables.abilities.magic
    if not magic.open:
        return unknown_problem((*path, "name"), name, magic.entries, "magic (34-47)")
    if kind is None:
        return Problem((*path, "kind"), unlisted_magic(name), "34", kind)
    return None


def not_cast(entry: MagicEntry | None, kind: str, college: str | None, tables: Tables) -> str | None:
    """Why the character's college (or none) does not cast this entry (34, 4.2), or None."""
    if entry is None and (kind == "talent" or college is not None):
        return None
    if entry is not None and may_cast(entry, college):
        return None
    named = tables.abilities.colleges[college].name if college else "no college"
    if entry is not None and entry.college is not None:
        return f"{entry.name} is cast by adepts of {tables.abilities.colleges[entry.college].name}; the file names {named}"
    return f"a {kind} is cast by an adept of a college; the file names no college"


def _overspent(spent: int, experience: int, tables: Tables) -> Problem:
    flat = tables.abilities.experience.rank_zero_skill.cost
    return Problem(
        ("skills",),
        f"buying these costs {spent} Experience Points ({flat} for each skill or language at Rank 0) but "
        f"the character has {experience} (8.5)",
        "8.6",
        spent,
    )
