"""chargen.api's arguments, checked at the door: a wrong type is one InputError naming
the argument and the value, never a TypeError or AttributeError from deep inside, and never a value the
library would write into a file it then refuses to read (a seed of -1 or 10**30, a name of two lines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import get_args

from chargen.errors import InputError, shown
from chargen.generation.pipeline import Equip
from chargen.tables import Tables
from chargen.yamlio import MAX_NUMBER

Namer = Callable[[str, str], str | None]
#: The equip values api.roll takes (read once: every roll checks its equip).
EQUIPS: tuple[str, ...] = get_args(Equip)


#: What a seed is, in every message that refuses one: a number a character file can hold, so what
#: `roll --seed` writes, `validate` reads.
SEED_RANGE = f"a whole number from 0 to {MAX_NUMBER:,}"


def whole_number(text: str) -> int | None:
    """`text` as a whole number written in ASCII digits (at most 20), else None. Python's int() also takes
    "²"-like digits it then refuses ("²".isdigit() is true), "٣", "1_000", "+5" and " -1": no count or
    seed a person types."""
    text = text.strip()
    if not (0 < len(text) <= 20 and text.isascii() and text.isdigit()):
        return None
    return int(text)


def seed_from_text(text: str) -> int | None:
    """The one check of a typed seed (the CLI's --seed, the GM page's): SEED_RANGE, else None."""
    number = whole_number(text)
    return number if number is not None and number <= MAX_NUMBER else None


def check_seed(seed: object) -> None:
    """None, or a whole number a character file can hold (0 to MAX_NUMBER)."""
    if seed is None:
        return
    if type(seed) is not int or not 0 <= seed <= MAX_NUMBER:
        raise InputError(f"seed: must be {SEED_RANGE}, not {shown(seed)}")


def check_text(label: str, value: object, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise InputError(f"{label}: must be a string, not {shown(value)} ({type(value).__name__})")


def check_names(label: str, values: object, *, optional: bool = False) -> None:
    """A list (or tuple) of strings; a bare string is not a list of its letters."""
    if values is None and optional:
        return
    if (
        type(values) is not tuple
        and type(values) is not list
        and (isinstance(values, str) or not isinstance(values, Sequence))
    ):  # a list or tuple, as most calls give, is known without the Sequence check
        raise InputError(f"{label}: must be a list of strings, not {shown(values)}")
    for value in values:
        check_text(label, value, optional=False)


def check_equip(equip: object) -> None:
    if not isinstance(equip, str) or equip not in EQUIPS:
        raise InputError(f"equip: must be {' or '.join(map(repr, EQUIPS))}, not {shown(equip)}")


def check_tables(tables: object) -> None:
    if tables is not None and not isinstance(tables, Tables):
        raise InputError(f"tables: must be chargen.tables.Tables (load_tables()), not {shown(tables)}")


def checked_namer(namer: object) -> Namer | None:
    """The namer, wrapped so that what it returns is checked as a character file's name would be."""
    if namer is None:
        return None
    if not callable(namer):
        raise InputError(f"namer: must be a function of (race, gender), not {shown(namer)}")

    def named(race: str, gender: str) -> str | None:
        from pydantic import TypeAdapter, ValidationError

        from chargen.character_file import Name

        name = namer(race, gender)
        if name is None:
            return None
        if not isinstance(name, str):
            raise InputError(f"namer: returned {shown(name)}, not a string")
        try:
            return str(TypeAdapter(Name).validate_python(name))
        except ValidationError as error:
            reason = error.errors()[0]["msg"].removeprefix("Value error, ")
            raise InputError(f"namer: returned {shown(name)}: {reason}") from None

    return named


def check_source(text: object, source: object, seed: object, tables: object) -> None:
    """A text, its name for messages, a seed and Tables as the library takes them (each refused by name)."""
    check_text("text", text, optional=False)
    check_text("source", source, optional=False)
    check_seed(seed)
    check_tables(tables)
