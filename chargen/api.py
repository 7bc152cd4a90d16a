"""chargen as a library: roll, build and validate characters. The CLI is a thin layer over these."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from chargen.all_problems import Problems, reads
from chargen.api_door import (
    check_equip,
    check_names,
    check_seed,
    check_source,
    check_tables,
    check_text,
    checked_namer,
)

# A character's life after creation (12, 17, 87), part of the library as much as rolling one.
from chargen.api_play import advance as advance
from chargen.api_play import import_roll20 as import_roll20
from chargen.api_play import imported_file as imported_file
from chargen.character_file import DERIVED_KEYS, CharacterInput
from chargen.character_reading import character_input, read_located, text_seed, unvalidated_input
from chargen.errors import InputError, KeyPath, Problem, shown
from chargen.generation.pipeline import Equip, Options, generate
from chargen.model import Character, Characteristics, to_document_value
from chargen.resolve import resolve_names
from chargen.rules.working import Working
from chargen.tables import Tables, load_tables
from chargen.tables.loader import with_recorded_rules
from chargen.tables.memo import per_tables
from chargen.values.pinned import with_overrides
from chargen.yamlio import Located, load_located, read_file, read_stdin


def new_seed() -> int:
    """A fresh seed for a roll nobody seeded; it is written into the file so the roll can be repeated."""
    return secrets.randbelow(2**31)


#: api.roll's arguments that are text, by name (for their messages).
_TEXT_CHOICES = ("name", "gender", "race", "archetype", "strategy")


def roll(
    *,
    seed: int | None = None,
    name: str | None = None,
    gender: str | None = None,
    race: str | None = None,
    race_attempts: Sequence[str] | None = None,
    archetype: str | None = None,
    optional: Sequence[str] = (),
    equip: Equip = "buy",
    tables: Tables | None = None,
    strategy: str | None = None,
    namer: Callable[[str, str], str | None] | None = None,
) -> Character:
    """Roll a whole character. Anything not chosen is rolled or chosen with the seeded RNG.
    `strategy` is the old name of `archetype` (deprecated, still accepted). `namer(race, gender)` names
    the character when no name is given (None: the tables' own draw)."""
    check_seed(seed)
    for label, text in zip(_TEXT_CHOICES, (name, gender, race, archetype, strategy), strict=True):
        check_text(label, text)
    check_names("race_attempts", race_attempts, optional=True)
    check_names("optional", optional)
    check_equip(equip)
    check_tables(tables)
    namer = checked_namer(namer)
    chosen = (
        name,
        gender,
        race,
        tuple(race_attempts) if race_attempts else None,
        archetype if archetype is not None else strategy,
        tuple(optional),
    )
    chosen_seed = new_seed() if seed is None else seed
    tables = tables or load_tables()
    return generate(
        _rolled_spec(chosen, tables), tables, seed=chosen_seed, options=Options(equip=equip, namer=namer)
    )


def roll_checked(
    *,
    seed: int,
    gender: str | None,
    race: str | None,
    archetype: str,
    tables: Tables,
    equip: Equip = "give",
    namer: Callable[[str, str], str | None] | None = None,
) -> Character:
    """`roll` for choices chargen has itself checked against `tables` (a batch's plan, through
    chargen.batch.checked_plan): ids of the tables and a gender of 6.1. The same character as `roll`
    makes of them; its input is made without pydantic's validation, so a batch that reads no character
    file never builds pydantic's model of one (a cost on its start)."""
    chosen = (None, gender, race, None, archetype, ())
    return generate(
        _rolled_spec(chosen, tables, checked=True),
        tables,
        seed=seed,
        options=Options(equip=equip, namer=namer),
    )


Choices = tuple[str | None, str | None, str | None, tuple[str, ...] | None, str | None, tuple[str, ...]]


def _names_only(chosen: Choices) -> bool:
    """Whether every choice is None, a str or a tuple of str (one call a roll: this is on a batch's path)."""
    for value in chosen:
        if value is None or type(value) is str:
            continue
        if type(value) is not tuple or (value and not all(type(x) is str for x in value)):
            return False
    return True


def _rolled_spec(chosen: Choices, tables: Tables, *, checked: bool = False) -> CharacterInput:
    # Only names are remembered: other values (1 == True == 1.0) could stand for each other in the memo.
    # Checked choices are names (roll_checked's contract): not looked at again for every batch NPC.
    if checked or _names_only(chosen):
        return _resolved_spec(chosen, checked, tables)
    return _spec_of(chosen, checked, tables)


@per_tables(1024)
def _resolved_spec(chosen: Choices, checked: bool, tables: Tables) -> CharacterInput:
    """Checked, name-resolved inputs of `roll` by its choices, kept per Tables: a batch rolls thousands of
    characters from a handful of choices, and a spec is never changed once made."""
    return _spec_of(chosen, checked, tables)


def _spec_of(chosen: Choices, checked: bool, tables: Tables) -> CharacterInput:
    name, gender, race, race_attempts, archetype, optional = chosen
    values: dict[str, Any] = {
        "name": name,
        "gender": gender,
        "race": race,
        "race_attempts": list(race_attempts) if race_attempts else None,
        "archetype": archetype,
        "optional": list(optional),
    }
    # tests/test_batch_npcs.py compares the two for every choice a batch makes
    spec = unvalidated_input(values) if checked else character_input(values)
    return resolve_names(spec, tables)


def build(
    text: str, source: str = "<input>", *, seed: int | None = None, tables: Tables | None = None
) -> Character:
    """Build a character from a character file's text (YAML or JSON): given rolls and choices are used and
    checked, the rest rolled with `seed` (else the file's seed, else the seed its text gives)."""
    return built(text, source, seed=seed, tables=tables).character


@dataclass(frozen=True)
class Built:
    """A character built from a file; the dice chargen rolled for it (their keys under `rolls`) and the
    seed its text gives when neither the file nor the caller names one (else None); and, one line each,
    the derived values the file gives that the rules give otherwise (validate's problems)."""

    character: Character
    rolled: tuple[str, ...]
    text_seed: int | None
    stale: tuple[str, ...]
    stale_at: tuple[KeyPath, ...] = ()  # where each stale value stands in the file

    def note(self, source: str) -> str | None:
        """What a door says of dice rolled from the file's text, or None when it rolled none that way."""
        if self.text_seed is None:
            return None
        rolled = ", ".join(f"rolls.{key}" for key in self.rolled) or "what it leaves out"
        file = "-" if source == "<stdin>" else source
        return (
            f"note: {source} gives no seed: chargen rolled {rolled} with seed {self.text_seed}, which the "
            f"file's own text gives (the same text, the same character); `chargen build {file} -o FILE` "
            "writes them into FILE"
        )


def built(
    text: str, source: str = "<input>", *, seed: int | None = None, tables: Tables | None = None
) -> Built:
    """`build`, saying which dice chargen rolled and which values the file gives are stale (Built)."""
    check_source(text, source, seed, tables)
    located = load_located(text, source, gather=True)
    spec, made, stale = _made(located, seed, tables)
    if "combat" not in spec.model_fields_set:  # a file as a player writes it, not one chargen wrote whole
        _refuse_typed(stale, located)
    return made


def _made(
    located: Located, seed: int | None, tables: Tables | None
) -> tuple[CharacterInput, Built, list[Problem]]:
    """The file built (_built), with the dice it rolled and its stale values (also as problems)."""
    spec, character = _built(located, seed, tables)
    given = spec.rolls.model_dump(exclude_none=True)
    rolled = tuple(key for key in character.rolls if key not in given)
    from_text = seed is None and spec.seed is None and character.seed is not None
    stale = _stale(spec, character)
    lines = tuple(problem.at(located.where(problem.path)).text for problem in stale)
    at = tuple(problem.path for problem in stale)
    return spec, Built(character, rolled, character.seed if from_text else None, lines, at), stale


def _refuse_typed(stale: list[Problem], located: Located) -> None:
    """A value typed in that the rules give otherwise is refused (a GM's value is an override); notes are
    the player's as well as chargen's, and a value the file leaves out is not typed in. A file chargen
    wrote whole has its stale values rewritten instead (validate names them), so a removed override
    gives the rules' value back."""
    typed = [p for p in stale if p.path[0] != "notes" and p.value is not None]
    if typed:
        raise InputError([problem.at(located.where(problem.path)) for problem in typed])


def _built(located: Located, seed: int | None, tables: Tables | None) -> tuple[CharacterInput, Character]:
    """The file read, checked and built in one pass: failing, every problem of the file (all_problems), each
    at its file:line:column."""
    check_seed(seed)
    check_tables(tables)
    problems = Problems()
    spec = read_located(located, problems)
    if spec is None:
        raise problems.error(located)
    try:
        return spec, _generated(spec, seed, tables, problems)
    except InputError as error:
        problems.add(error.items)  # those of a check outside the steps too (each problem is told once)
        raise problems.error(located) from None


def build_spec(spec: CharacterInput, *, seed: int | None = None, tables: Tables | None = None) -> Character:
    if not isinstance(spec, CharacterInput):
        raise InputError(f"spec: must be a CharacterInput (chargen.character_file), not {shown(spec)}")
    check_seed(seed)
    check_tables(tables)
    return _generated(spec, seed, tables, Problems())


#: The tables a file's rulesets make (house rules), and the GM's rulings laid on the rules' values.
_RULESETS = reads("rules")(with_recorded_rules)
_RULINGS = reads("overrides")(with_overrides)


def _generated(
    spec: CharacterInput, seed: int | None, tables: Tables | None, problems: Problems
) -> Character:
    """`spec` made whole; every problem of its names and steps (with `problems`, its reading's) raised."""
    # A file that names no seed rolls with the seed its own text gives: one text, one character.
    chosen_seed = seed if seed is not None else spec.seed if spec.seed is not None else text_seed(spec)
    recorded = problems.step(_RULESETS, tables or load_tables(), spec.rules)
    if recorded is None:
        raise problems.error()
    tables = recorded
    # A partial file (one with none of the derived values chargen writes) is made whole as `roll` makes a
    # character: what it leaves out of the kit and abilities is bought for its archetype within the purse
    # and the Experience (none when it says its equipment was given). A whole file is rebuilt as it is.
    partial = not spec.model_fields_set & set(DERIVED_KEYS)
    options = Options(equip="buy" if partial and not spec.equipment_given else "none")
    named = resolve_names(spec, tables, problems)
    character = generate(named, tables, seed=chosen_seed, options=options, problems=problems)
    ruled = problems.step(_RULINGS, character, spec.overrides, tables)
    if ruled is None:  # the GM's rulings, each with its reason
        raise problems.error()
    return ruled


def record_tables(character: Character, tables: Tables | None = None) -> Tables:
    """The tables `character` was made with: the rulesets its file records, layered over `tables` (else the
    book's) as `build` layers them, so a record's captions describe the formulas that made its numbers."""
    from chargen.character_file import RulesetUsed

    base = tables or load_tables()
    if not character.rules:
        return base
    used = [RulesetUsed(name=item["name"], sha256=item["sha256"]) for item in character.rules]
    return with_recorded_rules(base, used)


def validate(text: str, source: str = "<input>", *, tables: Tables | None = None) -> list[str]:
    """Problems with a character file: anything `build` refuses (raised as ChargenError), plus derived values
    in the file that disagree with the rules (returned, one line each)."""
    return checked(text, source, tables=tables)[0]


def checked(
    text: str, source: str = "<input>", *, tables: Tables | None = None
) -> tuple[list[str], list[str]]:
    """`validate`'s problems, and its notes: one line for each value the GM ruled (overrides), which are
    not problems, and one naming the dice chargen rolled from the file's text."""
    check_source(text, source, None, tables)
    located = load_located(text, source, gather=True)
    spec, made, _ = _made(located, None, tables)
    rebuilt = made.character
    notes = []
    for name, ruled in zip(spec.overrides or {}, (rebuilt.overrides or {}).values(), strict=True):
        computed = "none" if ruled.computed is None else ruled.computed
        note = f"note: the GM's {ruled.value} in place of the rules' {computed}: {ruled.reason}"
        notes.append(Problem(("overrides", name), note).at(located.where(("overrides", name))).text)
    rolled = made.note(source)
    return list(made.stale), notes if rolled is None else [*notes, rolled]


def _stale(spec: CharacterInput, rebuilt: Character) -> list[Problem]:
    """The derived values the file gives that the rules give otherwise."""
    written = spec.model_dump(include=set(DERIVED_KEYS), exclude_none=True)
    problems: list[Problem] = []
    for key in DERIVED_KEYS:
        if key in written:
            problems.extend(_differences((key,), written[key], getattr(rebuilt, key)))
    return problems


def _fields(derived: object) -> dict[str, object] | None:
    """A typed value's fields by name (the flat characteristics mapping for Characteristics); a mapping as
    it is; None for a plain value."""
    if isinstance(derived, Characteristics):
        return dict(derived.items())
    if is_dataclass(derived) and not isinstance(derived, type):
        return {item.name: getattr(derived, item.name) for item in fields(derived)}
    return dict(derived) if isinstance(derived, dict) else None


def _differences(path: KeyPath, written: object, derived: object) -> list[Problem]:
    """What the file says against the rebuilt Character's typed fields, value by value."""
    named = _fields(derived)
    if isinstance(written, dict) and named is not None:
        found = []
        for key in sorted(set(written) | {key for key, value in named.items() if value is not None}, key=str):
            found.extend(_differences((*path, key), written.get(key), named.get(key)))
        return found
    if isinstance(written, list) and isinstance(derived, list) and len(written) == len(derived):
        return [
            item
            for i, pair in enumerate(zip(written, derived, strict=True))
            for item in _differences((*path, i), *pair)
        ]
    if written != derived:
        message = (
            f"file says {shown(written)} but the rules give {shown(_plain(derived))}; leave it out and build "
            "works it out, or keep a GM's value under overrides: with a reason"
        )
        return [Problem(path, message, value=written)]
    return []


def _plain(derived: object) -> object:
    """A typed value as the file writes it, for a message."""
    return to_document_value(derived)


def read_source(source: str) -> tuple[str, str]:
    """The text of FILE, or of standard input for `-`; returns (text, name for messages)."""
    if source == "-":
        return read_stdin(), "<stdin>"
    return read_file(Path(source)), source


def explain(
    text: str, source: str = "<input>", names: Sequence[str] = (), *, tables: Tables | None = None
) -> list[Working]:
    """How each derived value of the character in `text` was worked out (each named one, as `defense` or
    `weapons.broadsword.strike_chance`, else every one): the formula, its inputs and where they came from."""
    from chargen.rules.working import selected
    from chargen.values.evaluation import evaluate

    check_source(text, source, None, tables)
    if isinstance(names, str) or not all(isinstance(name, str) for name in names):
        raise InputError(f"names: must be a list of value names, not {shown(names)}")
    character = build(text, source, tables=tables)
    return selected(list(evaluate(character, record_tables(character, tables)).values), names)
