"""`chargen advance`: one entry of what happened in play (12, 17, 87) added to a character file's ledger,
checked by building the file as it would then be, before anything is written. The text is edited by
chargen.advancing_text (the entry) and chargen.advancing_values (the derived values a whole file gives)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from chargen.advancing_text import LEDGER, added, is_json
from chargen.advancing_values import with_values
from chargen.character_file import Award, Raise, check_one_line
from chargen.errors import InputError, Problem, shown
from chargen.messages import rewritten
from chargen.model import Character, to_document
from chargen.tables import Tables

if TYPE_CHECKING:
    from chargen.api import Built


Entry = Award | Raise


def entry_of(
    *,
    award: object = None,
    raise_: object = None,
    to: object = None,
    cost: object = None,
    note: object = None,
    date: object = None,
) -> Entry:
    """The entry one call records, checked as the file's schema checks it: an award (12), or a raise (17,
    87) with the Rank or value it goes `to`, and the `cost` when the GM gives it."""
    if (award is None) == (raise_ is None):
        raise InputError("give either an award of Experience or a raise, one a call (12, 17)")
    told = {"note": note, "date": date}
    if award is not None:
        if to is not None or cost is not None:
            raise InputError("an award takes no to or cost; those go with a raise (87)")
        return _checked(Award, {"award": award, **told})
    if isinstance(raise_, str):
        _printable_name(raise_)
    if to is None:
        raise InputError([Problem(("to",), f"give the Rank or value {shown(raise_)} is raised to")])
    return _checked(Raise, {"raise": raise_, "to": to, "cost": cost, **told})


def entry_fields(entry: Entry) -> dict[str, Any]:
    """The entry as the file holds it, in its keys' order (award or raise first)."""
    fields: dict[str, Any] = entry.model_dump(by_alias=True, exclude_none=True)
    return fields


def _printable_name(name: str) -> None:
    """A name is one line of text, as every name of a file is (character_file.Name)."""
    try:
        check_one_line(name)
    except ValueError as error:
        raise InputError([Problem(("raise",), f"{error} (got {shown(name)})")]) from None


def _checked(model: type[Entry], values: dict[str, object]) -> Entry:
    given = {key: value for key, value in values.items() if value is not None}
    try:
        return model.model_validate(given)
    except ValidationError as error:
        raise InputError([rewritten(item, model.model_fields) for item in error.errors()]) from None


@dataclass(frozen=True)
class Advanced:
    """A file's text with one more ledger entry, the character it builds, and the entry as written (its
    `cost` the one the build charged when the GM's chart gave it)."""

    text: str
    character: Character
    entry: Entry


def advanced(text: str, source: str, entry: Entry, tables: Tables | None) -> Advanced:
    """`entry` added to the ledger of the file `text`, checked by building the file as it would then be:
    whatever the build refuses (the bank cannot pay, no cost known, past a limit of the rules) is raised
    as the build's ChargenError and nothing is made. The derived values a whole file gives are written as
    they then stand, so that `validate` accepts the file."""
    from chargen import api

    before = api.built(text, source, tables=tables)  # a file refused as it is: in its own words and lines
    changed, index = added(text, source, entry_fields(entry))
    made = _built(changed, source, index, tables)
    history = made.character.history
    charged = history[index].charged if index < len(history) else None
    if isinstance(entry, Raise) and entry.cost is None and charged == "chart":
        entry = entry.model_copy(update={"cost": -history[index].experience})  # the file says what was spent
        changed, _ = added(text, source, entry_fields(entry))
        made = _built(changed, source, index, tables)
    moved = [path for path in made.stale_at if path not in before.stale_at]  # the player's own stay theirs
    if moved:
        document = to_document(made.character)
        changed = with_values(changed, source, moved, document, in_json=is_json(changed))
        made = _built(changed, source, index, tables)
    return Advanced(changed, made.character, entry)


def _built(text: str, source: str, index: int, tables: Tables | None) -> Built:
    """The character `text` builds; a problem with the new entry told at the file's name alone, for the
    entry is not in the file (nothing was written)."""
    from chargen import api

    try:
        return api.built(text, source, tables=tables)
    except InputError as error:
        new = (LEDGER, index)
        told = [item.at(source) if item.path[:2] == new else item for item in error.items]
        raise InputError(told) from None


def summary(made: Advanced, target: str) -> str:
    """What a call recorded, one line: `hero.yaml: Long Bow raised to 2 for 300 Experience; bank 412`."""
    entry = made.entry
    if isinstance(entry, Award):
        said = f"{entry.award:,} Experience awarded"
    else:
        history = made.character.history
        label = history[-1].label if history and history[-1].label else entry.raise_
        spent = f" for {entry.cost:,} Experience" if entry.cost is not None else ""
        said = f"{label} raised to {entry.to}{spent}"
    bank = made.character.experience_bank
    return f"{target}: {said}" + (f"; bank {bank:,}" if bank is not None else "")
