"""chargen as a library: roll, build and validate characters. The CLI is a thin layer over these."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chargen.character_file import (
    DERIVED_KEYS,
    CharacterInput,
    character_input,
    locate_problems,
    parse_located,
)
from chargen.errors import ChargenError, InputError
from chargen.generation.pipeline import Equip, Options, generate
from chargen.resolve import resolve_names
from chargen.tables import Tables, load_tables
from chargen.yamlio import format_path, parse_path


def new_seed() -> int:
    """A fresh seed for a roll nobody seeded; it is written into the file so the roll can be repeated."""
    return secrets.randbelow(2**31)


def roll(
    *,
    seed: int | None = None,
    name: str | None = None,
    gender: str | None = None,
    race: str | None = None,
    race_attempts: Sequence[str] | None = None,
    strategy: str | None = None,
    optional: Sequence[str] = (),
    equip: Equip = "buy",
    tables: Tables | None = None,
) -> dict[str, Any]:
    """Roll a whole character. Anything not chosen is rolled or chosen with the seeded RNG."""
    spec = character_input(
        {
            "name": name,
            "gender": gender,
            "race": race,
            "race_attempts": list(race_attempts) if race_attempts else None,
            "strategy": strategy,
            "optional": list(optional),
        }
    )
    chosen_seed = new_seed() if seed is None else seed
    tables = tables or load_tables()
    return generate(resolve_names(spec, tables), tables, seed=chosen_seed, options=Options(equip=equip))


def build(
    text: str, source: str = "<input>", *, seed: int | None = None, tables: Tables | None = None
) -> dict[str, Any]:
    """Build a character from a character file's text (YAML or JSON): given rolls and choices are used and
    checked, the rest rolled with `seed` (else the file's seed, else a fresh one)."""
    spec, located = parse_located(text, source)
    try:
        return build_spec(spec, seed=seed, tables=tables)
    except InputError as error:
        raise locate_problems(error, located) from None


def build_spec(
    spec: CharacterInput, *, seed: int | None = None, tables: Tables | None = None
) -> dict[str, Any]:
    chosen_seed = seed if seed is not None else spec.seed if spec.seed is not None else new_seed()
    tables = tables or load_tables()
    return generate(resolve_names(spec, tables), tables, seed=chosen_seed)


def validate(text: str, source: str = "<input>", *, tables: Tables | None = None) -> list[str]:
    """Problems with a character file: anything `build` refuses (raised as ChargenError), plus derived values
    in the file that disagree with the rules (returned, one line each)."""
    spec, located = parse_located(text, source)
    try:
        rebuilt = build_spec(spec, tables=tables)
    except InputError as error:
        raise locate_problems(error, located) from None
    written = spec.model_dump(include=set(DERIVED_KEYS), exclude_none=True)
    problems: list[str] = []
    for key in DERIVED_KEYS:
        if key in written:
            problems.extend(_differences((key,), written[key], rebuilt.get(key)))
    return [f"{located.where(parse_path(problem.partition(': ')[0]))}: {problem}" for problem in problems]


def _differences(path: tuple[str | int, ...], written: Any, derived: Any) -> list[str]:
    if isinstance(written, dict) and isinstance(derived, dict):
        found = []
        for key in sorted(set(written) | set(derived), key=str):
            found.extend(_differences((*path, key), written.get(key), derived.get(key)))
        return found
    if isinstance(written, list) and isinstance(derived, list) and len(written) == len(derived):
        return [
            item
            for i, pair in enumerate(zip(written, derived, strict=True))
            for item in _differences((*path, i), *pair)
        ]
    if written != derived:
        return [
            f"{format_path(path)}: file says {written!r} but the rules give {derived!r}; build rewrites it"
        ]
    return []


def read_source(source: str) -> tuple[str, str]:
    """The text of FILE, or of standard input for `-`; returns (text, name for messages)."""
    if source == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(source).read_text(encoding="utf-8"), source
    except OSError as error:
        raise ChargenError(f"{source}: cannot read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise ChargenError(f"{source}: not a UTF-8 text file") from None
