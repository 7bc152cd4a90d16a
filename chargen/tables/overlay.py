"""Rulesets: a GM's house rules as a small YAML file layered over the book's tables.

A ruleset has three optional parts, each keyed by table name (`combat`, `weapons`, ...) then by the table's own
keys: `change` replaces values whose keys already exist (a formula, a number, part of an entry), `add` puts in
entries whose keys do not exist yet (a weapon, a race), and `remove` lists key paths to take out
(`weapons.weapons.club`). A key that matches nothing is the ruleset's mistake, named with its file:line:col.
Shipped rulesets live in tables/rulesets/ and are found by name; anything else is a path.
"""

from __future__ import annotations

import copy
import difflib
import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chargen.errors import ChargenError, format_path, shown
from chargen.paths import tables_dir
from chargen.yamlio import TABLE_ALIAS_BUDGET, Located, load_located, read_file

PARTS = ("change", "add", "remove")
KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its name (a shipped one's, or the file's stem), where it came from, a hash of its bytes
    (a character file records it), whether it is shipped, and its text. The text is parsed when first
    layered (`located`): tables already loaded with this ruleset are found by the hash without it."""

    name: str
    source: str
    digest: str
    shipped: bool
    text: str = field(compare=False, repr=False)

    @functools.cached_property
    def located(self) -> Located:
        """The parsed text with line marks (a ruleset is a mapping of change/add/remove)."""
        located = load_located(self.text, self.source, alias_budget=TABLE_ALIAS_BUDGET)
        if located.data is not None and not isinstance(located.data, dict):
            raise ChargenError(f"{located.where(())}: a ruleset is a mapping of change/add/remove")
        return located

    def let_parse_go(self) -> None:
        """Free the parsed text, parsed again if asked for: tables loaded with this ruleset need only its
        digest (a 1 MB ruleset's parse holds about 15 MB)."""
        self.__dict__.pop("located", None)

    @property
    def reference(self) -> dict[str, str]:
        """What a character file records: `{name: ..., sha256: ...}`."""
        return {"name": self.name, "sha256": self.digest}

    @property
    def tables_touched(self) -> list[str]:
        """The tables the ruleset changes, adds to or removes from, in the order it first names them."""
        names: list[str] = []
        for part, body in (self.located.data or {}).items():
            if part == "remove":
                keys = [str(path).partition(".")[0] for path in body or []]
            else:
                keys = [str(key) for key in body or {}]
            names.extend(key for key in keys if key not in names)
        return names


def shipped_dir() -> Path:
    return tables_dir() / "rulesets"


def shipped_names() -> list[str]:
    return sorted(path.stem for path in shipped_dir().glob("*.yaml"))


def find_ruleset(spec: str) -> Ruleset:
    """A shipped ruleset by name, else a ruleset file by path."""
    shipped = shipped_dir() / f"{spec}.yaml"
    is_shipped = "/" not in spec and not spec.endswith((".yaml", ".yml")) and shipped.is_file()
    path = shipped if is_shipped else Path(spec)
    if not is_shipped and not path.is_file():
        known = ", ".join(shipped_names()) or "none"
        raise ChargenError(
            f"--rules {spec!r}: no such ruleset file, and no shipped ruleset of that name ({known})"
        )
    shown = f"rulesets/{spec}.yaml" if is_shipped else spec
    name = spec if is_shipped else path.stem
    return ruleset_from_text(read_file(path, shown, regular=True), name, shown, shipped=is_shipped)


def ruleset_from_text(text: str, name: str, source: str, *, shipped: bool = False) -> Ruleset:
    """A ruleset from its text (a file's, or one uploaded to `chargen serve`), named as a file of that stem
    would be; its hash is of the UTF-8 bytes, as a file's (read_file decoded them exactly)."""
    _check_name(name, source)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return Ruleset(name, source, digest, shipped, text)


def _check_name(name: str, source: str) -> None:
    """A ruleset's name (its file's, without .yaml) goes into character files and the record's footer:
    one line the record's fonts print, like a character's name."""
    from chargen.printable import check_printable

    try:
        check_printable(name)
    except ValueError as error:
        message = f"{shown(source)}: a ruleset is named after its file, and {shown(name)}: {error}"
        raise ChargenError(f"{message}; rename the file") from None


@dataclass
class Merge:
    """The tables' data being changed, the overlay location of every key path a ruleset touched (so a schema
    error there names the ruleset's line), and the problems found so far."""

    data: dict[str, Any]
    touched: dict[KeyPath, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: The ruleset's own key path of each table key path it touched (`change.combat.stun`).
    origins: dict[KeyPath, KeyPath] = field(default_factory=dict)
    #: The tables copied to be changed (every other is the base's own data, unchanged).
    copied: set[str] = field(default_factory=set)

    def where(self, path: KeyPath, fallback: str) -> str:
        for length in range(len(path), 0, -1):
            if path[:length] in self.touched:
                return self.touched[path[:length]]
        return fallback

    def key_path(self, path: KeyPath, fallback: KeyPath) -> KeyPath:
        """The key path a message names: the ruleset's (`change.combat.stun.endurance_divisor`) where a
        ruleset set the value, else `fallback` (the table file's own)."""
        for length in range(len(path), 0, -1):
            origin = self.origins.get(path[:length])
            if origin is not None:
                return (*origin, *path[length:])
        return fallback

    def placed(self, table: str, places: tuple[KeyPath, ...]) -> KeyPath:
        """Where in `table` a problem of the whole table that lies at one of `places` (a cycle between its
        formulas) is told: the last of them a ruleset set (its change made the problem), else the first."""
        for path in reversed(self.touched):  # the latest change last (`_merge` moves a path set again)
            if path[:1] == (table,) and any(_within(path[1:], place) for place in places):
                return path[1:]
        return places[0]

    def problem(self, ruleset: Ruleset, path: KeyPath, message: str) -> None:
        self.problems.append(f"{ruleset.located.where(path)}: {format_path(path)}: {message}")


def _within(path: KeyPath, place: KeyPath) -> bool:
    """Whether a key path a ruleset set holds `place` or lies inside it."""
    shorter = min(len(path), len(place))
    return path[:shorter] == place[:shorter]


def apply(merge: Merge, ruleset: Ruleset) -> None:
    """Layer one ruleset over `merge.data` (in place), noting what it touched and what it got wrong."""
    document = ruleset.located.data or {}
    for part, body in document.items():
        if part not in PARTS:
            merge.problem(ruleset, (part,), f"unknown part (a ruleset has {', '.join(PARTS)})")
        elif part == "remove":
            _remove(merge, ruleset, body)
        elif not isinstance(body, dict):
            merge.problem(ruleset, (part,), "should be a mapping of table names")
        else:
            _merge(merge, ruleset, (part,), body, merge.data, adding=part == "add")


def _merge(
    merge: Merge, ruleset: Ruleset, at: KeyPath, changes: dict[str, Any], base: Any, adding: bool
) -> None:
    for key, value in changes.items():
        path = (*at, key)
        exists = isinstance(base, dict) and key in base
        if not isinstance(base, dict):
            merge.problem(
                ruleset, path, "matches nothing in the base tables (the value above is not a mapping)"
            )
        elif exists and isinstance(value, dict) and isinstance(base[key], dict):
            _merge(merge, ruleset, path, value, base[key], adding)
        elif exists and adding:
            merge.problem(ruleset, path, "already in the base tables: put it under `change` to replace it")
        elif not exists and not adding:
            close = difflib.get_close_matches(str(key), [str(known) for known in base], n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            merge.problem(
                ruleset, path, f"matches nothing in the base tables ({hint}to put in a new entry, use `add`)"
            )
        else:
            base[key] = copy.deepcopy(value)
            merge.touched.pop(path[1:], None)  # kept in the order the changes were made
            merge.touched[path[1:]] = ruleset.located.where(path)
            merge.origins[path[1:]] = path


def _remove(merge: Merge, ruleset: Ruleset, paths: Any) -> None:
    if not isinstance(paths, list):
        merge.problem(ruleset, ("remove",), "should be a list of key paths such as weapons.weapons.club")
        return
    for index, text in enumerate(paths):
        keys = str(text).split(".")
        parent: Any = merge.data
        for key in keys[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if len(keys) < 2:  # a whole file (`weapons`): the tables need every file, and a remove keeps it
            merge.problem(
                ruleset,
                ("remove", index),
                f"{shown(text)}: a whole table file cannot be removed; name its entries",
            )
        elif not isinstance(parent, dict) or keys[-1] not in parent:
            merge.problem(ruleset, ("remove", index), f"{shown(text)}: matches nothing in the base tables")
        else:
            del parent[keys[-1]]
            merge.touched[tuple(keys[:-1])] = ruleset.located.where(("remove", index))


def layered(data: dict[str, Any], rulesets: tuple[Ruleset, ...]) -> Merge:
    """The tables' data with every ruleset applied in order. The base data is not changed: a table a
    ruleset names is copied before it is changed, and every other is the base's own (`Merge.copied`)."""
    named = {table for ruleset in rulesets for table in _tables_named(ruleset.located.data)}
    copied = named & data.keys()
    merge = Merge({table: copy.deepcopy(body) if table in copied else body for table, body in data.items()})
    merge.copied = copied
    for ruleset in rulesets:
        apply(merge, ruleset)
    return merge


def _tables_named(document: Any) -> set[str]:
    """Every table a ruleset's parts name (what `apply` may change), whatever shape its parts have."""
    named: set[str] = set()
    for body in (document or {}).values():
        if isinstance(body, dict):
            named.update(str(table) for table in body)
        elif isinstance(body, list):
            named.update(str(path).partition(".")[0] for path in body)
    return named
