"""Reading a character file: a player's YAML or JSON into the checked CharacterInput, every problem in
chargen's words at its key path and line:column; and a file chargen wrote read back into the typed Character
(chargen.character_file holds the schema and writes the file)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields as dataclass_fields
from functools import cache
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from chargen.character_file import CharacterInput
from chargen.errors import InputError, KeyPath, Problem, shown
from chargen.model import OMIT, Character, characteristics_from_mapping
from chargen.vocabulary import ARCHETYPE_KEY, OLD_ARCHETYPE_KEY
from chargen.yamlio import Located, format_path, load_located


def parse_character(text: str, source: str) -> CharacterInput:
    """Read a YAML or JSON character file; every problem is reported with its key path and line:column."""
    return parse_located(text, source)[0]


def parse_located(text: str, source: str, located: Located | None = None) -> tuple[CharacterInput, Located]:
    """parse_character, also returning where each key stands in the file (for later messages); `located`:
    the text already read as YAML."""
    located = located if located is not None else load_located(text, source)
    if not isinstance(located.data, dict):
        raise InputError(f"{source}: a character file is a mapping of keys (name, gender, allocation, ...)")
    return character_input(located.data, located.where), located


def character_input(
    data: dict[str, Any], where: Callable[[Iterable[str | int]], str] | None = None
) -> CharacterInput:
    """The checked character; every problem in chargen's words with its key path (and, given `where`,
    the file and line:column), raised as one InputError."""
    from chargen.messages import rewritten

    try:
        return CharacterInput.model_validate(data)
    except ValidationError as error:
        problems = []
        for problem in _missing_together(
            [rewritten(item, CharacterInput.model_fields) for item in error.errors()]
        ):
            problems.append(problem.at(where(problem.path)) if where else problem)
        raise InputError(problems) from None


def _missing_together(problems: list[Problem]) -> list[Problem]:
    """The keys missing from one mapping as one problem (`allocation: PS, MD and WP are missing`), not a
    line for each: one mistake, one line."""
    missing: dict[KeyPath, list[Problem]] = {}
    for problem in problems:
        if problem.message == "is required" and len(problem.path) > 1:
            missing.setdefault(problem.path[:-1], []).append(problem)
    joined = {}
    for parent, items in missing.items():
        if len(items) > 1:
            keys = [str(item.path[-1]) for item in items]
            told = f"{', '.join(keys[:-1])} and {keys[-1]} are missing"
            joined[parent] = Problem(parent, told, items[0].rule)
    kept: list[Problem] = []
    for problem in problems:
        parent = problem.path[:-1]
        if problem.message == "is required" and parent in joined:
            if joined[parent] not in kept:
                kept.append(joined[parent])
        else:
            kept.append(problem)
    return kept


def unvalidated_input(values: dict[str, Any]) -> CharacterInput:
    """What `character_input` makes of `values` that no validator would change or refuse (chargen's own
    checked choices, chargen.api.roll_checked), made without validating them: the fields given are the
    keys of `values`, the others have their defaults. The defaults a factory makes are made here, a
    model's as it stands: pydantic's model_construct reads each factory's signature first (about 0.1 ms a
    field, 12 ms over a batch's first hundred NPCs)."""
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


def locate_problems(error: InputError, located: Located) -> InputError:
    """Each problem placed at the file, line and column of its key path (the file alone when the key is not
    in the file, or the problem has no key path)."""
    problems = []
    for problem in error.items:
        known = bool(problem.path) and problem.path[:1] in located.marks
        problems.append(problem.at(located.where(problem.path) if known else located.source))
    return InputError(problems)


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


def from_document(data: Mapping[str, object], source: str = "<character>") -> Character:
    """A character file's mapping, as chargen wrote it (choices and derived values), read into the typed
    Character without re-deriving anything (the renderer shows a file as written). A missing or mistyped
    field is an InputError naming its key path."""
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
