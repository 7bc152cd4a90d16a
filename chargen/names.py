"""Names as people write them: a table entry is found by its id or its display name, in any case, with
spaces, hyphens or `&`/`and` between the words (`Short Bow`, `hand & half`, `Hand-and-a-Half`, ` Elf`).

Files and outputs always hold the id; only what a person types is forgiven.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from chargen.errors import InputError, KeyPath, Problem, shown

_WORD = re.compile(r"[^\W_]+")
#: Small words a chart leaves out of a display name (`Hand & Half` for `hand-and-a-half`).
_FILLER = frozenset({"a", "an", "of", "the"})


#: Longest file name made from a character's name, in characters (any file system takes 255 bytes).
FILE_NAME_LENGTH = 60


def file_name(name: str, fallback: str = "character") -> str:
    """The file name a character is written under, by the page, `chargen new` and `batch --out` alike:
    `Þóra Eldrún` -> `þóra-eldrún`. Letters of any script and digits are kept, in lower case; anything else
    (a slash, a dot, a space) separates words, so a name never leaves its folder or hides a file."""
    kept = "".join(
        char if unicodedata.category(char)[0] in "LNM" else " "
        for char in unicodedata.normalize("NFC", name).lower()
    )
    words = "-".join(kept.split())[:FILE_NAME_LENGTH].strip("-")
    return words or fallback


def name_key(text: str) -> str:
    """The form two spellings of one name share: lower case words joined by hyphens, `&` read as `and`."""
    words = _WORD.findall(text.casefold().replace("&", " and "))
    return "-".join(word for word in words if word not in _FILLER)


def _spellings(entries: Mapping[str, Any] | Iterable[str]) -> dict[str, tuple[str, str]]:
    """name_key -> (id, how a person reads it), for every id and display name."""
    found: dict[str, tuple[str, str]] = {}
    items = entries.items() if isinstance(entries, Mapping) else ((key, None) for key in entries)
    for entry_id, entry in items:
        display = getattr(entry, "name", None)
        shown = str(display) if isinstance(display, str) else entry_id
        found.setdefault(name_key(entry_id), (entry_id, shown))
        if isinstance(display, str):
            found.setdefault(name_key(display), (entry_id, shown))
    return found


def resolve(value: str, entries: Mapping[str, Any] | Iterable[str]) -> str | None:
    """The id `value` names (by id or display name, spelled loosely), or None. Natural spellings are
    forgiven when they name one entry only: the words run together or apart (`chain mail` for Chainmail),
    or the words that tell it from the rest (`kite` for Kite Shield)."""
    ids = entries if isinstance(entries, Mapping) else list(entries)
    if value in ids:
        return value
    spellings = _spellings(ids)
    key = name_key(value)
    match = spellings.get(key)
    if match:
        return match[0]
    return _one_of({entry for spelling, entry in spellings.items() if _joined(spelling) == _joined(key)}) or (
        _one_of({entry for spelling, entry in spellings.items() if _has_words(spelling, key)})
    )


def _joined(key: str) -> str:
    return key.replace("-", "")


def _has_words(spelling: str, key: str) -> bool:
    """Whether every word typed, each once, is a word of the spelling (`kite` of `kite-shield`)."""
    typed = key.split("-")
    return bool(key) and len(set(typed)) == len(typed) and set(typed) <= set(spelling.split("-"))


def _one_of(found: set[tuple[str, str]]) -> str | None:
    ids = {entry_id for entry_id, _ in found}
    return ids.pop() if len(ids) == 1 else None


def unknown_problem(
    where: str | KeyPath, value: str, entries: Mapping[str, Any] | Iterable[str], what: str
) -> Problem:
    """`race: 'elfe' is not a race (6.3); did you mean 'elf'?` at a key path of the file, or at a label for
    what is not in a file (`--race`); ids and display names are both suggested."""
    spellings = _spellings(entries)
    key = name_key(value)
    close = difflib.get_close_matches(key, list(spellings), n=1, cutoff=0.6)
    holding = _holding_words(spellings, key)
    if len(holding) > 1:  # `plate`: each entry whose name holds the words typed
        hint = f"; did you mean one of: {', '.join(holding)}?"
    elif close:
        entry_id, shown_as = spellings[close[0]]
        named = f" ({shown_as})" if shown_as.casefold() != entry_id.casefold() else ""
        hint = f"; did you mean {entry_id!r}{named}?"
    else:
        hint = f"; one of: {', '.join(sorted({entry_id for entry_id, _ in spellings.values()}))}"
    message = f"{shown(value)} is not {what}{hint}"
    if isinstance(where, str):
        return Problem(label=where, message=message, value=value)
    return Problem(path=where, message=message, value=value)


def _holding_words(spellings: dict[str, tuple[str, str]], key: str) -> list[str]:
    """The entries whose id or name holds every word of `key`, as a suggestion shows them."""
    found = sorted({entry for spelling, entry in spellings.items() if _has_words(spelling, key)})
    return [
        f"{entry_id!r} ({shown_as})" if shown_as.casefold() != entry_id.casefold() else repr(entry_id)
        for entry_id, shown_as in found
    ]


def unknown_name(
    where: str | KeyPath, value: str, entries: Mapping[str, Any] | Iterable[str], what: str
) -> InputError:
    return InputError(unknown_problem(where, value, entries, what))


def resolved(where: str | KeyPath, value: str, entries: Mapping[str, Any] | Iterable[str], what: str) -> str:
    """The id `value` names, else the unknown_name error."""
    found = resolve(value, entries)
    if found is None:
        raise unknown_name(where, value, entries, what)
    return found
