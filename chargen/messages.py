"""pydantic's messages, told again in chargen's words: the key path, what is wrong, and the rule.

A player meets these when a character file (or an option of `chargen roll`) breaks the file's shape;
`Input should be a valid dictionary or instance of Item` means nothing at the table.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from pydantic_core import ErrorDetails

from chargen.errors import Problem, shown

#: The rule behind each top-level key of a character file, named in its messages.
RULES = {
    "points": "5.1",
    "allocation": "5.2",
    "optional": "5.5",
    "gender": "6.1",
    "hand": "6.2",
    "race": "6.3",
    "race_attempts": "6.3",
    "race_type": "6.6, 6.9",
    "aspect": "7.1",
    "weapons": "20.2",
    "armor": "18.1",
    "shield": "17.5",
    "unarmed_rank": "21",
}


def _context(item: ErrorDetails, key: str) -> Any:
    return (item.get("ctx") or {}).get(key)


def _expected(item: ErrorDetails) -> str:
    return str(_context(item, "expected")).replace("'", "")


_WORDS: dict[str, Callable[[ErrorDetails], str]] = {
    "missing": lambda item: "is required",
    "string_too_short": lambda item: "must not be empty",
    "string_too_long": lambda item: f"is longer than {_context(item, 'max_length')} characters",
    "too_short": lambda item: f"needs at least {_context(item, 'min_length')} item(s)",
    "too_long": lambda item: (
        f"has {_context(item, 'actual_length')} items; at most {_context(item, 'max_length')} are allowed"
    ),
    "string_type": lambda item: "should be text",
    "int_type": lambda item: "should be a whole number",
    "int_parsing": lambda item: "should be a whole number",
    "int_from_float": lambda item: "should be a whole number",
    "float_type": lambda item: "should be a number",
    "float_parsing": lambda item: "should be a number",
    "bool_type": lambda item: "should be true or false",
    "bool_parsing": lambda item: "should be true or false",
    "list_type": lambda item: "should be a list",
    "dict_type": lambda item: "should be a mapping of keys",
    "model_type": lambda item: "should be a mapping of keys",
    "model_attributes_type": lambda item: "should be a mapping of keys",
    "literal_error": lambda item: f"should be one of: {_expected(item)}",
    "greater_than_equal": lambda item: f"should be {_context(item, 'ge')} or more",
    "less_than_equal": lambda item: f"should be {_context(item, 'le')} or less",
    "value_error": lambda item: str(_context(item, "error") or item["msg"]),
}


def _value(item: ErrorDetails) -> str:
    if item["type"] == "missing" or isinstance(item["input"], dict | list):
        return ""
    return f" (got {shown(item['input'])})"


def _rule(loc: tuple[str | int, ...], words: str) -> str | None:
    rule = RULES.get(str(loc[0])) if loc else None
    return rule if rule and "rule" not in words and f"({rule})" not in words else None


#: The keys of the mappings inside a character file, for a did-you-mean on a mistyped one.
NESTED_KEYS = {
    "allocation": ("PS", "MD", "AG", "EN", "MA", "WP"),
    "points": ("total", "maximum"),
    "weapons": ("name", "rank"),
    "shield": ("name", "rank"),
}


def rewritten(item: ErrorDetails, known_keys: Iterable[str] = ()) -> Problem:
    """One pydantic error as a Problem: its key path, what is wrong (got value), and the rule."""
    loc = tuple(part for part in item["loc"] if not str(part).startswith("function-"))
    if item["type"] == "extra_forbidden":
        keys = list(known_keys) if len(loc) == 1 else list(NESTED_KEYS.get(str(loc[0]), ()))
        close = difflib.get_close_matches(str(loc[-1]), keys, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return Problem(loc, f"unknown key{hint}")
    if item["type"] == "invalid_key":  # `1:` in YAML is the number 1, not a list index: say which key
        key = loc[-1] if loc else item["input"]
        return Problem(loc[:-1], f"key {shown(key)} is a number; keys are names such as race or name")
    words = _WORDS[item["type"]](item) if item["type"] in _WORDS else str(item["msg"])
    return Problem(loc, f"{words}{_value(item)}", _rule(loc, words), item.get("input"))
