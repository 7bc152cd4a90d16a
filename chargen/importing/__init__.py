"""`chargen import`: a character of Roll20's DragonQuest sheet (the VTT Enhancement Suite's character
JSON, chargen's own Roll20 export among them) as a chargen character file as it stands, with every value
the sheet shows that the rules give otherwise."""

from __future__ import annotations

from dataclasses import dataclass, replace

from chargen.errors import InputError, KeyPath, Problem, format_path
from chargen.importing.differences import Difference, differences
from chargen.importing.reading import read_character
from chargen.importing.sheet import read_sheet
from chargen.model import Character
from chargen.tables import Tables


@dataclass(frozen=True, slots=True)
class Imported:
    """The character as it stands, and each value the sheet shows otherwise than the rules (also in the
    character's notes)."""

    character: Character
    differences: tuple[Difference, ...]


def imported(text: str, source: str, tables: Tables) -> Imported:
    """The sheet's character in `text`, built by the rules; a problem named by the sheet's attribute."""
    from chargen.api import build_spec

    sheet = read_sheet(text, source)
    reading = read_character(sheet, source, tables)
    try:
        character = build_spec(reading.spec, tables=tables)
    except InputError as error:
        raise InputError([_on_sheet(item, reading.origins, source) for item in error.items]) from None
    found = tuple(differences(sheet, character, tables))
    notes = [*character.notes, *(item.text for item in found if item.text not in character.notes)]
    return Imported(replace(character, notes=notes), found)


def _on_sheet(problem: Problem, origins: dict[KeyPath, str], source: str) -> Problem:
    """A problem of the file the sheet gives, named by the sheet's attribute it came from."""
    path = problem.path
    for length in range(len(path), 0, -1):
        origin = origins.get(path[:length])
        if origin is not None:
            return replace(problem, label=f"{source}: {origin} ({format_path(path)})")
    return replace(problem, label=f"{source}: {format_path(path)}" if path else source)
