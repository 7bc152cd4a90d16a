"""Load every rules table once, check it against its schema and against the other tables."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from chargen.errors import ChargenError, TableError
from chargen.paths import tables_dir
from chargen.tables import schema
from chargen.tables.abilities_schema import AbilitiesFile, RecordFile
from chargen.yamlio import TABLE_ALIAS_BUDGET, Located, format_path, load_located, read_file

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

    @property
    def races(self) -> dict[str, schema.Race]:
        return self.race_file.races

    @property
    def aspects(self) -> dict[str, schema.Aspect]:
        return self.aspect_file.aspects

    @property
    def weapons(self) -> dict[str, schema.Weapon]:
        return self.weapon_file.weapons

    @property
    def shields(self) -> dict[str, schema.Shield]:
        return self.shield_file.shields

    @property
    def armor(self) -> dict[str, schema.Armor]:
        return self.armor_file.armor

    @property
    def archetypes(self) -> dict[str, schema.Archetype]:
        return self.archetype_file.archetypes

    @property
    def names(self) -> dict[str, schema.NameParts]:
        return self.name_file.names

    def raw(self, name: str) -> Any:
        """One table file as plain data (for `chargen tables NAME`)."""
        text = read_file(self.directory / f"{name}.yaml", name)
        return load_located(text, name, alias_budget=TABLE_ALIAS_BUDGET).data


def _validate(located: Located, model: type[Model], problems: list[str]) -> Model | None:
    try:
        return model.model_validate(located.data, strict=True)  # "5" is not 5 in a table either
    except ValidationError as error:
        for item in error.errors():
            loc = tuple(item["loc"])
            problems.append(f"{located.where(loc)}: {format_path(loc)}: {item['msg']}")
        return None


def load_tables(directory: Path | str | None = None) -> Tables:
    """Load and check the tables (cached per directory for the life of the process)."""
    given = Path(directory) if directory is not None else tables_dir()
    return _load_cached(str(given.resolve()), str(given))


@functools.lru_cache(maxsize=8)
def _load_cached(directory: str, shown_as: str) -> Tables:
    """Tables of `directory` (resolved: the cache key); messages name the folder as the user gave it."""
    root = Path(directory)
    shown = Path(shown_as)
    problems: list[str] = []
    located: dict[str, Located] = {}
    models: dict[str, BaseModel] = {}
    for name, model in FILES.items():
        path = shown / f"{name}.yaml"
        try:
            text = read_file(root / f"{name}.yaml", str(path))
            located[name] = load_located(text, str(path), alias_budget=TABLE_ALIAS_BUDGET)
        except ChargenError as error:
            problems.append(str(error))
            continue
        checked = _validate(located[name], model, problems)
        if checked is not None:
            models[name] = checked
    if not problems:
        tables = Tables(
            root,
            models["characteristics"],  # type: ignore[arg-type]
            models["birthrights"],  # type: ignore[arg-type]
            models["races"],  # type: ignore[arg-type]
            models["aspects"],  # type: ignore[arg-type]
            models["heritage"],  # type: ignore[arg-type]
            models["weapons"],  # type: ignore[arg-type]
            models["shields"],  # type: ignore[arg-type]
            models["armor"],  # type: ignore[arg-type]
            models["combat"],  # type: ignore[arg-type]
            models["archetypes"],  # type: ignore[arg-type]
            models["names"],  # type: ignore[arg-type]
            models["abilities"],  # type: ignore[arg-type]
            models["record"],  # type: ignore[arg-type]
        )
        from chargen.tables.checks import cross_check

        for name, key_path, message in cross_check(tables):
            problems.append(f"{located[name].where(key_path)}: {format_path(key_path)}: {message}")
    if problems:
        count = f"{len(problems)} problems" if len(problems) > 1 else "1 problem"
        raise TableError(f"rules tables in {shown}: {count}: " + "; ".join(problems))
    return tables


def covers(bands: Iterable[schema.Band], low: int, high: int, dice: object = None) -> str | None:
    """Why `bands` fail to cover low..high exactly once (every result of `dice`, when named), or None."""
    ordered = sorted(bands, key=lambda band: band.low)
    rolled = f"; {dice} rolls {low}-{high}" if dice is not None else ""
    expected = low
    for band in ordered:
        if band.low != expected:
            return f"rows leave a gap or overlap at {expected} (next row starts at {band.low}){rolled}"
        expected = band.high + 1
    if expected != high + 1:
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
