"""A character for a virtual tabletop: the Roll20 DragonQuest sheet's character JSON, as the VTT
Enhancement Suite imports it (chargen.export.roll20), or a Foundry VTT "Simple Worldbuilding" actor
(chargen.export.foundry). What each target takes is read from its own source and kept, with where it
comes from, in tables/export_roll20.yaml and tables/export_foundry.yaml; the JSON Schemas of both formats
are shipped in chargen/export/schemas/.

    export_json(character, tables, "roll20") -> str
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chargen.errors import InputError

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

FORMATS = ("roll20", "foundry")
SCHEMAS = Path(__file__).resolve().parent / "schemas"


def check_format(fmt: str | None, option: str = "--to") -> str:
    if fmt not in FORMATS:
        raise InputError(f"{option}: must be {' or '.join(FORMATS)}, not {fmt!r}")
    return fmt


def export_document(character: Character, tables: Tables, fmt: str) -> dict[str, Any]:
    """The target's JSON document of one character."""
    from chargen.export import foundry, roll20

    maker = {"roll20": roll20.character_json, "foundry": foundry.actor_json}[check_format(fmt)]
    return maker(character, tables)


def export_json(character: Character, tables: Tables, fmt: str) -> str:
    """The same bytes for the same character: ids are made from the character, never from the clock."""
    from chargen.jsontext import indented

    return indented(export_document(character, tables, fmt)) + "\n"


def digest(character: Character, *parts: str) -> bytes:
    """A stable digest of the character (its whole file) and `parts`: the seed of every id it gets."""
    from chargen.model import to_document

    text = json.dumps(to_document(character), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256("\x1f".join([text, *parts]).encode("utf-8")).digest()


@lru_cache(maxsize=2)
def schema(fmt: str) -> dict[str, Any]:
    """The JSON Schema of a format, as shipped."""
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{check_format(fmt)}.json").read_text(encoding="utf-8"))
    return loaded
