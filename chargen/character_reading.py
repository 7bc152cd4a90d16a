"""Reading a character file: a player's YAML or JSON into the checked CharacterInput, every problem in
chargen's words at its key path and line:column; and a file chargen wrote read back into the typed Character
(chargen.character_file holds the schema and writes the file)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields as dataclass_fields
from functools import cache
from hashlib import sha256
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from chargen.all_problems import EVERY_STEP, Problems
from chargen.character_file import CharacterInput
from chargen.errors import ChargenError, InputError, KeyPath, Problem, format_path, shown
from chargen.messages import RULES, key_path, rewritten
from chargen.model import OMIT, Character, characteristics_from_mapping
from chargen.vocabulary import ARCHETYPE_KEY, OLD_ARCHETYPE_KEY
from chargen.yamlio import Located, load_located

if TYPE_CHECKING:
    from chargen.tables import Tables


def parse_character(text: str, source: str) -> CharacterInput:
    """Read a YAML or JSON character file; every problem is reported with its key path and line:column."""
    located = load_located(text, source, gather=True)
    problems = Problems()
    spec = read_located(located, problems)
    problems.raise_any(located)
    assert spec is not None  # read_located gives a spec or a problem
    return spec


#: The seeds a file's text gives: as many as `chargen.api.new_seed` draws from.
TEXT_SEEDS = 2**31


def text_seed(spec: CharacterInput) -> int:
    """The seed of the dice a file leaves out, when it names none: its content as read (its keys and
    values, whatever their order, spacing, quoting or comments) hashed, so every read of the same text
    rolls the same dice and gives the same character (docs/character-file.md)."""
    content = spec.model_dump(mode="json", exclude_unset=True)
    digest = sha256(orjson.dumps(content, option=orjson.OPT_SORT_KEYS)).digest()
    return int.from_bytes(digest[:8], "big") % TEXT_SEEDS


def read_located(located: Located, problems: Problems) -> CharacterInput | None:
    """The character file `located` checked: every problem added to `problems`; what the rest of the file
    says, without the keys found wrong, for the steps that do not read them (None when nothing can be
    trusted: the file is no mapping, or a problem is at the whole file or a key every step reads)."""
    problems.add(located.problems)
    if not isinstance(located.data, dict):
        problems.add(
            [Problem(message="a character file is a mapping of keys (name, gender, allocation, ...)")]
        )
        return None
    return checked_input(located.data, problems)


def character_input(data: dict[str, Any]) -> CharacterInput:
    """The checked character; every problem in chargen's words with its key path, raised as one InputError."""
    problems = Problems()
    spec = checked_input(data, problems)
    problems.raise_any()
    assert spec is not None
    return spec


def checked_input(data: dict[str, Any], problems: Problems) -> CharacterInput | None:
    """`data` checked against the file's schema, every problem added to `problems`; failing, the rest of it
    without the keys found wrong (None when nothing can be trusted)."""
    try:
        return CharacterInput.model_validate(data)
    except ValidationError as error:
        problems.add(_told(error.errors()))
    if problems.blocked(EVERY_STEP):
        return None
    try:
        return CharacterInput.model_validate(_without(data, problems.failed))
    except ValidationError:
        # A check across keys (rolls.beauty and optional, 5.5) of a file still wrong: told once it is right.
        return None


def _told(errors: list[ErrorDetails]) -> list[Problem]:
    """pydantic's errors in chargen's words; the keys missing from one mapping as one problem
    (`allocation: PS, MD and WP are missing`), not a line for each: one mistake, one line."""
    missing: dict[KeyPath, list[str]] = {}
    for item in errors:
        loc = key_path(item)
        if item["type"] == "missing" and len(loc) > 1:
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
    told: list[Problem] = []
    for item in errors:
        loc = key_path(item)
        keys = missing.get(loc[:-1], []) if item["type"] == "missing" else []
        if len(keys) > 1:
            joined = Problem(
                loc[:-1], f"{', '.join(keys[:-1])} and {keys[-1]} are missing", RULES.get(str(loc[0]))
            )
            if joined not in told:
                told.append(joined)
        else:
            told.append(rewritten(item, CharacterInput.model_fields))
    return told


def _without(data: dict[str, Any], failed: set[str]) -> dict[str, Any]:
    """`data` without the keys found wrong (a given roll on its own: each die stands apart)."""
    rest = {key: value for key, value in data.items() if key not in failed}
    rolls = rest.get("rolls")
    if isinstance(rolls, dict):
        rest["rolls"] = {key: value for key, value in rolls.items() if f"rolls.{key}" not in failed}
    if {ARCHETYPE_KEY, OLD_ARCHETYPE_KEY} & failed:  # the old name of one choice
        rest.pop(ARCHETYPE_KEY, None)
        rest.pop(OLD_ARCHETYPE_KEY, None)
    return rest


def unvalidated_input(values: dict[str, Any]) -> CharacterInput:
    """What `character_input` makes of `values` that no validator would change or refuse (chargen's own
    checked choices, chargen.api.roll_checked), made without validating them: the fields given are the
    keys of `values`, the others have their defaults. The defaults a factory makes are made here, a
    model's as it stands: pydantic's model_construct reads each factory's signature first, a cost on a
    batch's start (docs/performance.md)."""
    made = {
        name: _made_default(field.default_factory)
        for name, field in CharacterInput.model_fields.items()
        if field.default_factory is not None and name not in values
    }
    return CharacterInput.model_construct(set(values), **made, **values)


def _made_default(factory: Callable[..., Any]) -> Any:
    if isinstance(factory, type) and issubclass(factory, BaseModel):
        return factory.model_construct()
    return factory()


@cache
def _omitted_fields() -> dict[str, tuple[()] | None]:
    """The Character's fields that the file leaves out when empty, with the empty value each stands for:
    read off the model, so a new field cannot be forgotten here."""
    return {
        item.name: () if str(item.type).startswith("list[") and "None" not in str(item.type) else None
        for item in dataclass_fields(Character)
        if item.metadata.get(OMIT)
    }


@cache
def _character_adapter() -> TypeAdapter[Character]:
    return TypeAdapter(Character)


def from_document(
    data: Mapping[str, object], source: str = "<character>", tables: Tables | None = None
) -> Character:
    """A character file's mapping, as chargen wrote it (choices and derived values), read into the typed
    Character without re-deriving anything (the renderer shows a file as written); a played character's is
    built (its ledger applied) with `tables`, the ones it is shown with. A missing or mistyped field is an
    InputError naming its key path."""
    if data.get("advancement"):
        return _played(data, source, tables)
    fields = dict(data)
    if OLD_ARCHETYPE_KEY in fields and ARCHETYPE_KEY not in fields:
        fields[ARCHETYPE_KEY] = fields.pop(OLD_ARCHETYPE_KEY)
    for key, empty in _omitted_fields().items():
        fields.setdefault(key, list(empty) if isinstance(empty, tuple) else empty)
    fields.setdefault("equipment_given", False)
    combat = fields.get("combat")
    if isinstance(combat, dict):
        fields["combat"] = _combat_with_defaults(combat)
    stats = fields.get("characteristics")
    try:
        if isinstance(stats, dict):
            fields["characteristics"] = characteristics_from_mapping(stats)
        return _character_adapter().validate_python(fields)
    except KeyError as error:
        raise InputError(f"{source} has no characteristics.{error.args[0]}") from None
    except ValidationError as error:
        raise InputError([_document_problem(source, item) for item in error.errors()]) from None


def _played(data: Mapping[str, object], source: str, tables: Tables | None) -> Character:
    """A played character's mapping: it holds the character as created and its ledger (12, 17, 87), which
    only building applies (chargen.ledger_file), so it is built, as the file would be."""
    from chargen import api

    try:
        text = orjson.dumps(dict(data)).decode()
    except TypeError:
        raise InputError(f"{source}: a character file's mapping holds names, numbers and lists") from None
    try:
        return api.build(text, source, tables=tables)
    except ChargenError as error:
        raise InputError(str(error)) from None


def _document_problem(source: str, item: ErrorDetails) -> str:
    path = format_path(tuple(item["loc"]))
    if item["type"] == "missing" or item["input"] is None:
        return f"{source} has no {path}"
    return f"{source}: {path}: {item['msg']} (got {shown(item['input'])})"


def _combat_with_defaults(combat: dict[str, object]) -> dict[str, object]:
    """What a hand-written file may leave out of `combat`: no armor or shield, no weapons, no special damage
    ranges, no Rank; unarmed Initiative is the Initiative without a weapon (12.3)."""
    lines = {"rank": None, "endurance_damage": None, "grievous_injury": None}
    filled: dict[str, object] = {"armor": None, "shield": None, "weapons": [], **combat}
    unarmed = filled.get("unarmed")
    if isinstance(unarmed, dict):
        filled["unarmed"] = {**lines, "initiative": combat.get("initiative"), **unarmed}
    weapons = filled.get("weapons")
    if isinstance(weapons, list):
        filled["weapons"] = [
            {**lines, "damage_modifier": None, **weapon} if isinstance(weapon, dict) else weapon
            for weapon in weapons
        ]
    return filled
