"""Every problem of a character file in one run (issue 30): a file with nine mistakes hears of nine.

`build` stops at the first step that fails; when it does, the file is read again here, step by step, each
time without the keys found wrong, until it builds or nothing more can be set aside. A problem found once a
key it rests on was set aside is not reported (it may be the set-aside key's doing, not the file's): the
player hears of it on the next run, never of a problem the file does not have. The shape of the file
(pydantic) and the names in it (chargen.resolve) are checked whole at once, so they are never held back.
Only a failing file comes here: a good one builds once, as before."""

from __future__ import annotations

import copy
from typing import Any

from chargen.character_reading import character_input
from chargen.errors import InputError, KeyPath, Problem
from chargen.generation.pipeline import generate
from chargen.resolve import resolve_names
from chargen.tables import Tables
from chargen.tables.loader import with_recorded_rules
from chargen.yamlio import Located

#: The file's keys by the step of the book that reads them; a problem at a key of one group may come from
#: any key of the groups it rests on (_RESTS_ON).
_GROUPS = {
    "characteristics": {
        "points",
        "allocation",
        "rolls.points",
        "optional",
        "rolls.beauty",
        "archetype",
        "strategy",
    },
    "birth": {
        "gender",
        "hand",
        "rolls.hand",
        "race",
        "race_attempts",
        "rolls.race",
        "race_type",
        "rolls.race_type",
        "aspect",
        "rolls.aspect",
    },
    "heritage": {
        "rolls.social_status",
        "rolls.birth_order",
        "rolls.sibling_rank",
        "rolls.experience",
        "rolls.silver",
    },
    "kit": {"weapons", "armor", "shield", "equipment", "equipment_given", "unarmed_rank"},
    "abilities": {"skills", "languages", "college", "spells", "abilities_given"},
}
_RESTS_ON = {
    "characteristics": {"characteristics"},
    "birth": {"birth"},
    "heritage": {"heritage"},
    "kit": {"characteristics", "birth", "heritage", "kit"},
    "abilities": {"characteristics", "birth", "heritage", "abilities"},
}
#: Keys every step rests on: the tables they name, the dice they roll.
_EVERYTHING = {"rules", "seed", "schema_version"}
#: Rounds of setting keys aside: one per step of the book that can fail, and a few more.
_ROUNDS = 12


def every_problem(located: Located, tables: Tables | None, first: InputError) -> InputError:
    """All the problems of the file `located` that `first` (the first failing step's) is part of, each
    placed at its file:line:column and in the file's order."""
    data = copy.deepcopy(located.data) if isinstance(located.data, dict) else {}
    found: list[Problem] = []
    aside: set[str] = set()
    taken: set[KeyPath] = set()
    for _ in range(_ROUNDS):
        try:
            spec = character_input(data)
            stage_tables = with_recorded_rules(tables or _book_tables(), spec.rules)
            named = resolve_names(spec, stage_tables)
        except InputError as error:
            # The file's shape and its names, each checked on its own; a key taken out and now missing is
            # not the file's problem.
            found.extend(item for item in error.items if not _within(item.path, taken))
            if not _set_aside(data, error.items, aside, taken):
                break
            continue
        try:
            generate(named, stage_tables, seed=spec.seed or 0)
            break
        except InputError as error:
            found.extend(item for item in error.items if _alone(item) or not _rests_on(_key_of(item), aside))
            if not _set_aside(data, error.items, aside, taken):
                break
    placed = [_placed(item, located) for item in _unique([*first.items, *found])]
    ordered: list[Problem] = sorted(placed, key=lambda item: _order(item, located))
    return InputError(ordered)


def _book_tables() -> Tables:
    from chargen.tables import load_tables

    return load_tables()


def _key_of(problem: Problem) -> str | None:
    """The key a problem is at, as _GROUPS names keys (`rolls.points`, `weapons`); None for none."""
    if problem.label == "equipment":
        return "weapons"
    path = problem.path
    if not path or not isinstance(path[0], str):
        return None
    if path[0] == "rolls" and len(path) > 1:
        return f"rolls.{path[1]}"
    return path[0]


def _alone(problem: Problem) -> bool:
    """Whether a problem is in its value alone: a name no table knows, or a die showing what it cannot
    (`40 is not a 2D10 roll`; a race type's die rests on the race, so it is not counted here)."""
    if problem.alone:
        return True
    path = problem.path
    return (
        len(path) > 1
        and path[:1] == ("rolls",)
        and path[1] != "race_type"
        and " roll (" in problem.message
        and problem.message.split(" is not a ", 1)[-1].startswith(("D", "1D", "2D", "3D", "4D"))
    )


def _group(key: str) -> str | None:
    return next((name for name, keys in _GROUPS.items() if key in keys), None)


def _rests_on(key: str | None, aside: set[str]) -> bool:
    """Whether a problem at `key` may come from a key set aside rather than from the file."""
    if aside & _EVERYTHING:
        return True
    group = _group(key) if key else None
    if group is None:
        return False
    return any(_group(other) in _RESTS_ON[group] for other in aside)


def _set_aside(data: dict[str, Any], problems: list[Problem], aside: set[str], taken: set[KeyPath]) -> bool:
    """Take what `problems` are at out of `data`: the very key where it is in a mapping (a Rank of one
    weapon), else the file's key (the whole kit for a purse problem); a key taken out before that is still
    wrong takes its file's key with it. False when nothing new can be taken out."""
    progress = False
    for problem in problems:
        key = _key_of(problem)
        if key is None:
            return False
        paths = [("weapons",), ("armor",), ("shield",)] if problem.label == "equipment" else [problem.path]
        for path in paths:
            if path in taken or not _take(data, path):
                path = _top(path)
                _take(data, path)
                if path == ("archetype",):
                    data.pop("strategy", None)  # its old name: the same choice
            progress |= path not in taken
            taken.add(path)
            aside.add(key)
    return progress


def _within(path: KeyPath, taken: set[KeyPath]) -> bool:
    return any(tuple(path[:length]) in taken for length in range(1, len(path) + 1))


def _top(path: KeyPath) -> KeyPath:
    """The file's own key of a path (`rolls.points` for the rolls, whose dice stand apart)."""
    return tuple(path[:2]) if path[:1] == ("rolls",) and len(path) > 1 else tuple(path[:1])


def _take(data: dict[str, Any], path: KeyPath) -> bool:
    """Take the key at `path` out of its mapping; False when the path does not end at a mapping's key."""
    parent: Any = data
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):  # not in the file as the path says
            return False
    if path and isinstance(parent, dict) and path[-1] in parent:
        del parent[path[-1]]
        return True
    return False


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[object, ...]] = set()
    kept = []
    for item in problems:
        key = (item.path, item.label, item.message, item.rule)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _placed(problem: Problem, located: Located) -> Problem:
    if problem.place is not None:
        return problem
    known = bool(problem.path) and problem.path[:1] in located.marks
    return problem.at(located.where(problem.path) if known else located.source)


def _order(problem: Problem, located: Located) -> tuple[int, int]:
    """The file's order: by the line and column of the key a problem is at (the file as a whole last)."""
    key = tuple(problem.path)
    while key and key not in located.marks:
        key = key[:-1]
    if not key:
        return (1 << 30, 0)
    return located.marks[key]
