"""Load every rules table once, check it against its schema and against the other tables."""

from __future__ import annotations

import functools
import itertools
import os
import re
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from chargen.errors import ChargenError, InputError, Problem, TableError, format_path
from chargen.paths import tables_dir
from chargen.tables import schema
from chargen.tables.abilities_schema import AbilitiesFile, RecordFile
from chargen.tables.base import WholeTableError
from chargen.tables.groups_schema import Group, GroupsFile
from chargen.tables.memo import per_tables
from chargen.tables.overlay import Merge, Ruleset, find_ruleset, layered
from chargen.yamlio import TABLE_ALIAS_BUDGET, Located, load_located, read_file

if TYPE_CHECKING:
    from chargen.tables.index import TableIndex
    from chargen.tables.memo import Memos

Model = TypeVar("Model", bound=BaseModel)

FILES: dict[str, type[BaseModel]] = {
    "characteristics": schema.CharacteristicsFile,
    "birthrights": schema.BirthrightsFile,
    "races": schema.RacesFile,
    "aspects": schema.AspectsFile,
    "heritage": schema.HeritageFile,
    "weapons": schema.WeaponsFile,
    "shields": schema.ShieldsFile,
    "armor": schema.ArmorFile,
    "combat": schema.CombatFile,
    "archetypes": schema.ArchetypesFile,
    "names": schema.NamesFile,
    "abilities": AbilitiesFile,
    "record": RecordFile,
    "groups": GroupsFile,
}


@dataclass(frozen=True)
class Tables:
    """Every rules table, validated. Look-ups by id: tables.races["elf"], tables.weapons["broadsword"]."""

    directory: Path
    characteristics: schema.CharacteristicsFile
    birthrights: schema.BirthrightsFile
    race_file: schema.RacesFile
    aspect_file: schema.AspectsFile
    heritage: schema.HeritageFile
    weapon_file: schema.WeaponsFile
    shield_file: schema.ShieldsFile
    armor_file: schema.ArmorFile
    combat: schema.CombatFile
    archetype_file: schema.ArchetypesFile
    name_file: schema.NamesFile
    abilities: AbilitiesFile
    record: RecordFile
    group_file: GroupsFile
    rulesets: tuple[Ruleset, ...] = ()  # the house rules layered over the tables, in order
    #: The table files as read, with their line marks: the book's tables' own, shared by every ruleset
    #: layered over them (a ruleset's message names the line of a table it broke).
    sources: dict[str, Located] = field(default_factory=dict, compare=False, repr=False)
    #: With rulesets, the same folder's tables without them, whose tables these share: kept while these
    #: are, so the next ruleset layered over the folder shares them too.
    layered_over: Tables | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def races(self) -> dict[str, schema.Race]:
        return self.race_file.races

    @functools.cached_property
    def aspects(self) -> dict[str, schema.Aspect]:
        return self.aspect_file.aspects

    @functools.cached_property
    def weapons(self) -> dict[str, schema.Weapon]:
        return self.weapon_file.weapons

    @functools.cached_property
    def shields(self) -> dict[str, schema.Shield]:
        return self.shield_file.shields

    @functools.cached_property
    def armor(self) -> dict[str, schema.Armor]:
        return self.armor_file.armor

    @functools.cached_property
    def archetypes(self) -> dict[str, schema.Archetype]:
        return self.archetype_file.archetypes

    @functools.cached_property
    def groups(self) -> dict[str, Group]:
        return self.group_file.groups

    @functools.cached_property
    def names(self) -> dict[str, schema.NameParts]:
        return self.name_file.names

    @functools.cached_property
    def index(self) -> TableIndex:
        """The look-ups precompiled (chargen.tables.index), built on first use."""
        from chargen.tables.index import TableIndex

        return TableIndex(self)

    @functools.cached_property
    def memos(self) -> Memos:
        """What the layers worked out from these tables, kept with them (chargen.tables.memo)."""
        return {}

    def __getstate__(self) -> dict[str, Any]:
        # Sent to a worker process without the memos, the files as read and the tables layered over: they
        # would only make the pickle bigger; the worker fills its own memos, and loads its own tables for
        # any other rulesets.
        left_out: dict[str, object] = {"sources": {}, "layered_over": None}
        return {key: left_out.get(key, value) for key, value in self.__dict__.items() if key != "memos"}

    def raw(self, name: str) -> Any:
        """One table file as plain data (for `chargen tables NAME`), with the rulesets' changes."""
        if self.rulesets:
            return _layered_data(self)[name]
        if name in self.sources:
            return self.sources[name].data
        text = read_file(self.directory / f"{name}.yaml", name, regular=True)
        return load_located(text, name, alias_budget=TABLE_ALIAS_BUDGET).data


@per_tables(maxsize=1)
def _layered_data(tables: Tables) -> dict[str, Any]:
    """The table files' data with the rulesets' changes, made again when asked for (`chargen tables`, `rules
    show`) rather than kept with every ruleset's tables."""
    problems: list[str] = []
    # tables sent to a worker come without the files as read
    files = tables.sources or _read_all(tables.directory, tables.directory, problems)
    if problems:
        raise TableError("; ".join(problems), problems)
    return layered({name: item.data for name, item in files.items()}, tables.rulesets).data


def _validate(
    name: str, located: Located, merge: Merge, model: type[Model], problems: list[str]
) -> Model | None:
    from chargen.messages import rewritten

    try:
        return model.model_validate(merge.data[name], strict=True)  # "5" is not 5 in a table either
    except ValidationError as error:
        items = error.errors()
        wrong = {tuple(item["loc"]) for item in items}
        for item in items:
            loc = tuple(item["loc"])
            if _follows(item, loc, wrong):
                continue
            whole = (item.get("ctx") or {}).get("error")
            if not loc and isinstance(whole, WholeTableError):
                loc = merge.placed(name, whole.places)
            where = merge.where((name, *loc), located.where(loc))
            shown = format_path(merge.key_path((name, *loc), loc))
            problems.append(f"{where}: {shown}: {rewritten(item).message}")
        return None


def _follows(item: Any, loc: tuple[Any, ...], wrong: set[tuple[Any, ...]]) -> bool:
    """Whether a formula's `unknown input X` only follows from X's own problem beside it (a value refused
    is not there for the formula to read): one mistake, one line."""
    error = (item.get("ctx") or {}).get("error")
    named = re.search(r"unknown input `(\w+)`", str(error or ""))
    return named is not None and (*loc[:-1], named.group(1)) in wrong


#: How long loaded tables are trusted before their files are looked at again: a loop of `api.roll()` then
#: reads the tables it loaded first (14 file stats a call would cost about a third of a roll), and a table
#: file changed on disk is read again by the first load a second later at most.
RECHECK_SECONDS = 1.0
#: The most table sets kept (each directory and rulesets asked for).
KEPT_TABLES = 8
#: A table folder's files as they stood: each file's (mtime in ns, size), or None when missing.
Stamp = tuple[tuple[int, int] | None, ...]
_Key = tuple[str, str, tuple[Ruleset, ...]]


@dataclass
class _Loaded:
    tables: Tables
    stamp: Stamp
    checked: float  # monotonic() when the stamp was last compared with the files


_LOADED: dict[_Key, _Loaded] = {}
#: Every Tables still in use anywhere (a walk, a page's request), by its key and its files' stamp: asked
#: for again, it is that one, so the tables of a ruleset are in memory once however many hold them
#: (KEPT_TABLES bounds only those kept while nothing else holds them).
_SHARED: weakref.WeakValueDictionary[tuple[_Key, Stamp], Tables] = weakref.WeakValueDictionary()


def load_tables(directory: Path | str | None = None, rules: Sequence[str | Ruleset] = ()) -> Tables:
    """Load and check the tables, with `rules` (ruleset names or files) layered over them in order. Kept per
    directory and rulesets' contents, and loaded again when a table file changed (RECHECK_SECONDS)."""
    if directory is None and not rules:
        return _kept(_default_key())
    given = Path(directory) if directory is not None else tables_dir()
    rulesets = tuple(rule if isinstance(rule, Ruleset) else find_ruleset(rule) for rule in rules)
    return _kept((str(given.resolve()), str(given), rulesets))


@functools.cache
def _default_key() -> _Key:
    given = tables_dir()
    return (str(given.resolve()), str(given), ())


def _kept(key: _Key) -> Tables:
    now = monotonic()
    known = _LOADED.get(key)
    if known is not None and now - known.checked < RECHECK_SECONDS:
        return known.tables
    stamp = _stamp(Path(key[0]))  # before reading: a file changed while it is read is read again next time
    if known is not None and known.stamp == stamp:
        known.checked = now
        return known.tables
    tables = _current(key, stamp)
    _LOADED.pop(key, None)
    while len(_LOADED) >= KEPT_TABLES:
        del _LOADED[next(iter(_LOADED))]  # the longest kept
    _LOADED[key] = _Loaded(tables, stamp, now)
    return tables


def _current(key: _Key, stamp: Stamp) -> Tables:
    """The tables of `key` as its files stand (`stamp`): the ones in use if any, else loaded, with rulesets
    layered over the tables without them (loaded or found the same way), sharing what they do not change."""
    tables = _SHARED.get((key, stamp))
    if tables is None:
        base = _base(key, stamp) if key[2] else None
        tables = _load(*key, base=base)
        for ruleset in tables.rulesets:
            ruleset.let_parse_go()  # found again by its digest, never parsed for these tables again
        _SHARED[key, stamp] = tables
    return tables


def _base(key: _Key, stamp: Stamp) -> Tables | None:
    """The folder's tables without the rulesets of `key`; None when they do not load by themselves (a
    ruleset may mend what a --tables folder gets wrong: the folder is then read whole with it)."""
    try:
        return _current((key[0], key[1], ()), stamp)
    except TableError:
        return None


def _stamp(directory: Path) -> Stamp:
    stamps: list[tuple[int, int] | None] = []
    for name in FILES:
        try:
            found = os.stat(directory / f"{name}.yaml")
        except OSError:
            stamps.append(None)
        else:
            stamps.append((found.st_mtime_ns, found.st_size))
    return tuple(stamps)


def with_recorded_rules(tables: Tables, recorded: Sequence[Any] | None) -> Tables:
    """The tables a character file asks for: its recorded rulesets in order (a shipped one found by name, a
    GM's file only when given again with --rules, unchanged since), then any others given. A ruleset is
    known by its name and its content's digest together: two `house` files are two rulesets."""
    if not recorded:
        return tables
    given = list(tables.rulesets)
    chosen = [_recorded_ruleset(given, index, used) for index, used in enumerate(recorded)]
    ordered = (*chosen, *given)
    return tables if ordered == tables.rulesets else load_tables(tables.directory, ordered)


def _recorded_ruleset(given: list[Ruleset], index: int, used: Any) -> Ruleset:
    """The ruleset of that name and digest: taken from `given`, else the shipped one; else why not."""
    for position, ruleset in enumerate(given):
        if (ruleset.name, ruleset.digest) == (used.name, used.sha256):
            return given.pop(position)
    shipped = _shipped(used.name)
    if shipped is not None and shipped.digest == used.sha256:
        return shipped
    named = next((ruleset for ruleset in given if ruleset.name == used.name), shipped)
    if named is None:
        message = (
            f"made with the ruleset {used.name!r}, which is not given: add --rules FILE with that ruleset"
        )
    else:
        message = f"the ruleset {used.name!r} ({named.source}) has changed since the file was made (now {named.digest})"
    raise InputError(Problem(("rules", index), message, value=used.sha256))


def _shipped(name: str) -> Ruleset | None:
    from chargen.tables.overlay import shipped_names

    return find_ruleset(name) if name in shipped_names() else None


def _read_all(root: Path, shown: Path, problems: list[str]) -> dict[str, Located]:
    located: dict[str, Located] = {}
    for name in FILES:
        path = shown / f"{name}.yaml"
        try:
            text = read_file(root / f"{name}.yaml", str(path), regular=True)
            located[name] = load_located(text, str(path), alias_budget=TABLE_ALIAS_BUDGET)
        except ChargenError as error:
            problems.append(str(error))
    return located


def _load(
    directory: str, shown_as: str, rulesets: tuple[Ruleset, ...] = (), base: Tables | None = None
) -> Tables:
    """Tables of `directory` (resolved: the cache key); messages name the folder as the user gave it, or the
    ruleset's file, line and column for what a ruleset changed. With rulesets, `base` is the same folder's
    tables without them: its files as read, and every table no ruleset names, are used as they are."""
    shown = Path(shown_as)
    problems: list[str] = []
    located = base.sources if base is not None else _read_all(Path(directory), shown, problems)
    merge = layered({name: item.data for name, item in located.items()}, rulesets)
    problems.extend(merge.problems)
    kept = _table_models(base) if base is not None else {}
    models: dict[str, BaseModel] = {}
    for name, model in FILES.items():
        if name in kept and name not in merge.copied:
            models[name] = kept[name]
        elif name in located and not merge.problems:
            checked = _validate(name, located[name], merge, model, problems)
            if checked is not None:
                models[name] = checked
    if not problems:
        tables = Tables(
            Path(directory),
            *models.values(),  # type: ignore[arg-type,misc]
            rulesets=rulesets,
            sources=located,
            layered_over=base,
        )
        from chargen.tables.checks import cross_check

        for name, key_path, message in cross_check(tables):
            where = merge.where((name, *key_path), located[name].where(key_path))
            named = format_path(merge.key_path((name, *key_path), key_path))
            problems.append(f"{where}: {named}: {message}")
    if problems:
        count = f"{len(problems)} problems" if len(problems) > 1 else "1 problem"
        layers = f" with {', '.join(rule.source for rule in rulesets)}" if rulesets else ""
        folder = (
            "the book's tables" if Path(directory) == tables_dir().resolve() else f"rules tables in {shown}"
        )
        # One line each on the command line (TableError.lines), each naming its own file and key.
        raise TableError(f"{folder}{layers}: {count}: " + "; ".join(problems), problems)
    return tables


def _table_models(tables: Tables) -> dict[str, BaseModel]:
    """Each table file's checked model in `tables`, by file name (Tables' fields after `directory` are the
    FILES' models, in their order)."""
    names = [item.name for item in fields(Tables)[1 : 1 + len(FILES)]]
    return {file: getattr(tables, name) for file, name in zip(FILES, names, strict=True)}


def covers(bands: Iterable[schema.Band], low: int, high: int, dice: object = None) -> str | None:
    """Why `bands` fail to hold every result low..high of `dice` in exactly one row, or None. A row may reach
    past the die's results (a GM who changes D100 to 2D50 keeps the row 1-20: 1 is never rolled, 2-20 are),
    but no two rows may share a number."""
    ordered = sorted(bands, key=lambda band: band.low)
    rolled = f"; {dice} rolls {low}-{high}" if dice is not None else ""
    for before, after in itertools.pairwise(ordered):
        if after.low <= before.high:
            return f"two rows hold {after.low}{rolled}"
    expected = low
    for band in ordered:
        if band.high < expected or expected > high:
            continue  # wholly below the lowest roll, or above the highest: never rolled
        if band.low > expected:
            return f"no row holds {expected} (the next row starts at {band.low}){rolled}"
        expected = band.high + 1
    if expected <= high:
        return f"rows end at {expected - 1}, not {high}{rolled}"
    return None


Key = TypeVar("Key")


def row_for(rows: Iterable[tuple[Key, schema.Band]], roll: int, where: str) -> Key:
    """The key of the (key, row) pair whose row holds `roll`. The tables' checks make every result of a
    table's die land in exactly one row, so a miss is a table error (never a bare StopIteration)."""
    for key, row in rows:
        if row.holds(roll):
            return key
    raise TableError(f"{where}: no row holds the roll {roll}; the table's dice roll past its rows")
