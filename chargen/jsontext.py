"""JSON as chargen writes it, made by orjson: the very text `json.dumps(..., ensure_ascii=False)` makes.

Where the two spell a value differently, the value is handed to orjson already spelled as json spells it
(an `orjson.Fragment`): a float below 1e-4 (json `1e-05`, orjson `0.00001`) and NaN or infinity (json
`NaN`, orjson `null`). What orjson refuses (an int past 64 bits, a key that is not a string, a lone
surrogate) is written by json itself. tests/test_jsontext.py holds both to json's text.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields, is_dataclass
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import orjson

from chargen.model import OMIT, Character, Characteristics, to_document
from chargen.vocabulary import EIGHT

__all__ = ["character_line", "indented"]

#: A record's fields as the file writes them: (name, left out when None or [], may hold a float).
RecordFields = tuple[tuple[str, bool, bool], ...]
_RECORD_FIELDS: dict[type, RecordFields] = {}


def character_line(character: Character) -> str:
    """The character file on one line (a batch's JSONL line, without its newline), as
    `json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))` writes it."""
    try:
        return orjson.dumps(character, default=_record, option=orjson.OPT_PASSTHROUGH_DATACLASS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))


def indented(value: object) -> str:
    """Plain data (a character file's mapping, a table, a schema) as `json.dumps(value, indent=2,
    ensure_ascii=False)` writes it."""
    try:
        return orjson.dumps(_as_json_spells(value), option=orjson.OPT_INDENT_2).decode()
    except (orjson.JSONEncodeError, _KeyNotText):
        return json.dumps(value, indent=2, ensure_ascii=False)


def _float(number: float) -> float | orjson.Fragment:
    """A float orjson spells as json does, or json's spelling of it: the two differ only below 1e-4 and for
    NaN and infinity (checked over two million random doubles)."""
    if math.isfinite(number) and (number == 0 or abs(number) >= 1e-4):
        return number
    return orjson.Fragment(json.dumps(number))


def _record(value: object) -> object:
    """orjson's `default` for a dataclass of the Character: its fields as the file writes them, one level
    deep (orjson comes back here for the records inside)."""
    kind = value.__class__
    if kind is Characteristics:
        return _characteristics(value)  # type: ignore[arg-type]
    known = _RECORD_FIELDS.get(kind)
    if known is None:
        known = _RECORD_FIELDS[kind] = _record_fields(kind)
    document: dict[str, object] = {}
    for name, omitted, floating in known:
        entry = getattr(value, name)
        if omitted and (entry is None or entry == []):
            continue
        document[name] = _float(entry) if floating and entry.__class__ is float else entry
    return document


def _characteristics(value: Characteristics) -> dict[str, object]:
    """One flat mapping in the file: the eight in the book's order, then the optional ones."""
    return {**{code: getattr(value, code) for code in EIGHT}, **value.optional}


def _record_fields(kind: type) -> RecordFields:
    if not is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not part of a Character")
    hints = get_type_hints(kind)
    return tuple(
        (item.name, bool(item.metadata.get(OMIT)), _may_be_float(hints[item.name])) for item in fields(kind)
    )


def _may_be_float(hint: Any) -> bool:
    """Whether a field declared `hint` holds a float itself (not inside a list or mapping: the Character
    declares none there)."""
    if get_origin(hint) in (Union, UnionType):
        return float in get_args(hint)
    return hint is float


class _KeyNotText(Exception):
    """A mapping's key that is not a string: json spells it as text, orjson refuses it."""


def _as_json_spells(value: object) -> object:
    """Plain data with every float orjson would spell otherwise replaced by json's spelling."""
    if isinstance(value, dict):
        if not all(key.__class__ is str for key in value):
            raise _KeyNotText
        return {key: _as_json_spells(entry) for key, entry in value.items()}
    if isinstance(value, list | tuple):
        return [_as_json_spells(entry) for entry in value]
    if isinstance(value, float) and value.__class__ is float:
        return _float(value)
    return value
