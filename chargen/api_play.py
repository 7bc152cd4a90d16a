"""chargen as a library, a character's life after creation (12, 17, 87): one entry added to its ledger,
and a character brought in from Roll20's DragonQuest sheet. Their modules are imported when they are used:
a batch never needs them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chargen.api_door import check_source
from chargen.character_file import dump_document
from chargen.errors import InputError, shown
from chargen.tables import Tables, load_tables

if TYPE_CHECKING:
    from chargen.advancing import Advanced
    from chargen.importing import Imported


def advance(
    text: str,
    source: str = "<input>",
    *,
    award: int | None = None,
    raise_: str | None = None,
    to: int | None = None,
    cost: int | None = None,
    note: str | None = None,
    date: str | None = None,
    tables: Tables | None = None,
) -> Advanced:
    """One entry added to the ledger (`advancement:`) of the character file `text`: `award` Experience
    (12), or a raise of `raise_` to `to` (17, 87) for `cost` (else the GM's chart's, which is written in).
    Returns the new text, every other byte kept, and the character it builds; a refusal raises."""
    from chargen.advancing import advanced, entry_of

    check_source(text, source, None, tables)
    entry = entry_of(award=award, raise_=raise_, to=to, cost=cost, note=note, date=date)
    return advanced(text, source, entry, tables)


def import_roll20(text: str, source: str = "<input>", *, tables: Tables | None = None) -> Imported:
    """A Roll20 DragonQuest sheet's character (VTT Enhancement Suite JSON) as it stands, with each value
    the sheet shows otherwise than the rules."""
    from chargen.importing import imported

    check_source(text, source, None, tables)
    return imported(text, source, tables or load_tables())


def imported_file(
    text: str, source: str = "<input>", *, fmt: str = "yaml", tables: Tables | None = None
) -> str:
    """`import_roll20`'s character file text: YAML, or JSON with `fmt="json"`."""

    if fmt not in ("yaml", "json"):
        raise InputError(f"fmt: 'yaml' or 'json', not {shown(fmt)}")
    return dump_document(import_roll20(text, source, tables=tables).character, fmt)
