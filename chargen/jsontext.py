"""JSON as chargen writes it, made by orjson: the very text `json.dumps(..., ensure_ascii=False)` makes.

Where the two spell a value differently, the value is handed to orjson already spelled as json spells it
(an `orjson.Fragment`): a float below 1e-4 (json `1e-05`, orjson `0.00001`) and NaN or infinity (json
`NaN`, orjson `null`). What orjson refuses (an int past 64 bits, a key that is not a string, a lone
surrogate) is written by json itself. tests/test_jsontext.py holds both to json's text.
"""

from __future__ import annotations

import json
import math

import orjson

from chargen.model import PLANS, Character, Characteristics, flat_characteristics, record_plan, to_document

__all__ = ["character_line", "indented"]


def character_line(character: Character) -> str:
    """The character file on one line (a batch's JSONL line, without its newline), as
    `json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))` writes it."""
    if character.history:  # written as its ledger, the character as created (chargen.ledger_file)
        return json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))
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
    """orjson's `default` for a dataclass of the Character: its fields as the file writes them
    (chargen.model.record_plan), one level deep (orjson comes back here for the records inside)."""
    kind = value.__class__
    if kind is Characteristics:
        return flat_characteristics(value)  # type: ignore[arg-type]
    document: dict[str, object] = {}
    for name, omitted, _, floating in PLANS.get(kind) or record_plan(kind):
        entry = getattr(value, name)
        if omitted and (entry is None or entry == []):
            continue
        document[name] = _float(entry) if floating and entry.__class__ is float else entry
    return document


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
