"""pydantic's messages, told again in chargen's words: the key path, what is wrong, and the rule.

A player meets these when a character file (or an option of `chargen roll`) breaks the file's shape;
`Input should be a valid dictionary or instance of Item` means nothing at the table.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from pydantic_core import ErrorDetails

from chargen.errors import KeyPath, Problem, shown

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


def _length(item: ErrorDetails) -> Any:
    """A list's or mapping's length: pydantic stops counting a mapping's entries past its bound."""
    given = item.get("input")
    return _context(item, "actual_length") or (len(given) if isinstance(given, dict | list) else "too many")


def _expected(item: ErrorDetails) -> str:
    return str(_context(item, "expected")).replace("'", "")


_WORDS: dict[str, Callable[[ErrorDetails], str]] = {
    "missing": lambda item: "is required",
    "string_too_short": lambda item: "must not be empty",
    "string_too_long": lambda item: f"is longer than {_context(item, 'max_length')} characters",
    "too_short": lambda item: f"needs at least {_context(item, 'min_length')} item(s)",
    "too_long": lambda item: f"has {_length(item)} items; at most {_context(item, 'max_length')} are allowed",
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
    "greater_than": lambda item: f"should be more than {_context(item, 'gt')}",
    "less_than": lambda item: f"should be less than {_context(item, 'lt')}",
    "value_error": lambda item: str(_context(item, "error") or item["msg"]),
}


def _value(item: ErrorDetails) -> str:
    if item["type"] == "missing" or isinstance(item["input"], dict | list):
        return ""
    if item["type"] == "value_error" and shown(item["input"]) in _WORDS["value_error"](item):
        return ""  # the message quotes it already
    return f" (got {shown(item['input'])})"


def _rule(loc: tuple[str | int, ...], words: str) -> str | None:
    rule = RULES.get(str(loc[0])) if loc else None
    return rule if rule and "rule" not in words and f"({rule})" not in words else None


def unlisted_magic(name: str) -> str:
    """What a talent, spell or ritual the tables do not list is told, in the walk, the page and a file
    alike (chargen.generation.abilities.unlisted_refused): the tables hold only what the seeds give (Book
    Two's lists are not among them), how a GM adds one, and that it is kept when named with its kind."""
    return (
        f"{shown(name)} is not in the tables: Book Two's talents, spells and rituals are not (only what a race "
        "grants, 6.5); a GM adds it in a ruleset (add: abilities: magic: entries: ID: {name, kind, rule, "
        "college}), or it is kept when named with its kind (talent, spell or ritual): e.g. Fireball (spell) "
        "in the walk, kind: spell in a character file"
    )


def unlisted_kept(names: list[str]) -> str:
    """The note on what the walk keeps that the tables do not list (34)."""
    return (
        f"not in the tables, kept as named: {', '.join(names)}; Book Two's lists and cast chances are the GM's "
        "to fill"
    )


#: The keys of the mappings inside a character file, for a did-you-mean on a mistyped one.
NESTED_KEYS = {
    "allocation": ("PS", "MD", "AG", "EN", "MA", "WP"),
    "points": ("total", "maximum"),
    "weapons": ("name", "rank", "increase"),
    "shield": ("name", "rank"),
    "skills": ("name", "rank"),
    "languages": ("name", "rank"),
    "spells": ("name", "rank", "kind"),
    "equipment": ("name", "weight", "count"),
}


#: Words a player may write as a key for what the file names otherwise, for a did-you-mean on `Experience:`.
KEY_WORDS = {
    "experience": "experience_points",
    "xp": "experience_points",
    "silver": "silver_pennies",
    "money": "silver_pennies",
    "purse": "silver_pennies",
}


#: 5.1's six characteristics by the words a player may type for them, for a did-you-mean on `strenght:`.
CHARACTERISTIC_WORDS = {
    "strength": ("PS", "Physical Strength"),
    "physical_strength": ("PS", "Physical Strength"),
    "dexterity": ("MD", "Manual Dexterity"),
    "manual_dexterity": ("MD", "Manual Dexterity"),
    "agility": ("AG", "Agility"),
    "endurance": ("EN", "Endurance"),
    "aptitude": ("MA", "Magical Aptitude"),
    "magical_aptitude": ("MA", "Magical Aptitude"),
    "willpower": ("WP", "Willpower"),
}


#: How a tagged union names the member it chose in an error's path: `kind:raise` (no key of the file).
UNION_TAG = "kind:"


def key_path(item: ErrorDetails) -> KeyPath:
    """The file's key path of one pydantic error (without the validators' own steps, nor the member a
    tagged union chose)."""
    return tuple(part for part in item["loc"] if not str(part).startswith(("function-", UNION_TAG)))


def rewritten(item: ErrorDetails, known_keys: Iterable[str] = ()) -> Problem:
    """One pydantic error as a Problem: its key path, what is wrong (got value), and the rule; a mistyped
    key or a value off a fixed list gets the nearest one suggested."""
    loc = key_path(item)
    if item["type"] == "extra_forbidden":
        return Problem(loc, f"unknown key{_key_hint(loc, known_keys)}")
    if item["type"] == "invalid_key":  # `1:` in YAML is the number 1, not a list index: say which key
        key = loc[-1] if loc else item["input"]
        return Problem(loc[:-1], f"key {shown(key)} is a number; keys are names such as race or name")
    words = _WORDS[item["type"]](item) if item["type"] in _WORDS else str(item["msg"])
    if item["type"] == "literal_error" and isinstance(item["input"], str):
        words += _value(item) + _value_hint(item)
        return Problem(loc, words, _rule(loc, words), item.get("input"))
    return Problem(loc, f"{words}{_value(item)}", _rule(loc, words), item.get("input"))


def _key_hint(loc: tuple[str | int, ...], known_keys: Iterable[str]) -> str:
    """`; did you mean 'gender'?`, or for a characteristic's name (`strenght:`) where the file gives it."""
    typed = str(loc[-1])
    spelled = typed.strip().lower().replace(" ", "_").replace("-", "_")
    if len(loc) == 1 and spelled in KEY_WORDS:
        return f"; did you mean {KEY_WORDS[spelled]!r}?"
    keys = list(known_keys) if len(loc) == 1 else list(NESTED_KEYS.get(str(loc[0]), ()))
    close = difflib.get_close_matches(typed, keys, n=1)
    if close:
        return f"; did you mean {close[0]!r}?"
    named = difflib.get_close_matches(spelled, list(CHARACTERISTIC_WORDS), n=1, cutoff=0.75)
    if not named or len(loc) > 2:
        return ""
    code, name = CHARACTERISTIC_WORDS[named[0]]
    if len(loc) == 2:
        return f"; did you mean {code} ({name})?"
    return f"; did you mean {named[0]}? {name} is given under allocation, as allocation.{code} (rule 5.2)"


def _value_hint(item: ErrorDetails) -> str:
    """`; did you mean 'female'?` for a value off a fixed list (`femal`)."""
    expected = [word.strip(" '") for word in str(_context(item, "expected")).replace(" or ", ",").split(",")]
    close = difflib.get_close_matches(str(item["input"]).strip().lower(), expected, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""
