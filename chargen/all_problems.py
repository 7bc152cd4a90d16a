"""Every problem of a character file in one run: a file with seven mistakes hears of seven.

Each step of reading and building a character (the file's shape, the names in it, then each step of the
book) adds what it finds wrong to one `Problems`, and notes the file's keys those problems are at. Each step
declares the file's keys it reads (`@reads`, typed by FileKey): one it needs found wrong, the step is not
run, for its problems may be the broken key's doing, not the file's, and chargen never reports a problem the
file does not have; one it can spare found wrong is set aside and the rest checked. A step whose input a
failed step would have made runs on what it can still check (chargen.generation.pipeline). Nothing is run
twice, and no problem is told twice."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Concatenate, Generic, Literal, ParamSpec, TypeVar, get_args

from chargen.character_file import CharacterInput
from chargen.dice import Unrolled
from chargen.errors import InputError, KeyPath, Problem
from chargen.yamlio import Located

P = ParamSpec("P")
T = TypeVar("T")

#: A key of the character file a step reads: a field of CharacterInput, or `rolls.x`, a die the file gives
#: (each given die stands apart). tests/test_problems_in_one_run.py holds this to the file's schema.
FileKey = Literal[
    "schema_version", "name", "player", "campaign", "seed", "rules", "archetype", "strategy", "gender",
    "race", "race_attempts", "race_type", "hand", "aspect", "points", "allocation", "optional", "rolls",
    "weapons", "armor", "shield", "unarmed_rank", "equipment_given", "equipment", "skills", "languages",
    "college", "spells", "abilities_given", "characteristics", "modifiers", "tmr", "experience_multiplier",
    "life_span", "starting_age", "racial_talents", "heritage", "experience_points", "starting_silver",
    "silver_pennies", "combat", "experience_bank", "experience_total", "overrides", "notes", "advancement",
    "rolls.points", "rolls.hand", "rolls.race", "rolls.race_type", "rolls.aspect", "rolls.social_status",
    "rolls.birth_order", "rolls.sibling_rank", "rolls.experience", "rolls.silver", "rolls.beauty",
]  # fmt: skip
FILE_KEYS: frozenset[str] = frozenset(get_args(FileKey))

#: Keys every step rests on: the tables they name, the file's format. (A seed found wrong hides no
#: choice: the steps run without dice, chargen.dice.Unrolled.)
EVERY_STEP: tuple[FileKey, ...] = ("rules", "schema_version")


@dataclass(frozen=True, slots=True)
class Reads:
    """The keys of the file a step reads. `needs`: one found wrong, the step is not run (its problems might
    be the broken key's doing). `spare`: one found wrong is set aside (left empty, Problems.step_on) and
    the step checks the rest, for a step whose checks of the rest do not rest on it and whose sums can
    then be told too little, never wrongly."""

    needs: tuple[FileKey, ...]
    spare: tuple[FileKey, ...] = ()


class Step(Generic[P, T]):
    """A step of reading or building a character with the keys of the file it reads, declared where it is
    defined (`@reads(...)`); called as its function is, or through Problems.step."""

    def __init__(self, run: Callable[P, T], declared: Reads) -> None:
        self.run = run
        self.reads = declared
        functools.update_wrapper(self, run)  # its name and docstring, for a reader and a traceback

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.run(*args, **kwargs)


def reads(*needs: FileKey, spare: tuple[FileKey, ...] = ()) -> Callable[[Callable[P, T]], Step[P, T]]:
    """Declares a step: the file's keys it needs, and those it can spare (Reads)."""

    def declared(run: Callable[P, T]) -> Step[P, T]:
        return Step(run, Reads(needs, spare))

    return declared


def file_key(path: KeyPath) -> str | None:
    """The file's key a problem at `path` is at: the top key, or `rolls.points` for a given roll (each of
    the rolls stands apart); None for the file as a whole."""
    if not path or not isinstance(path[0], str):
        return None
    if path[0] == "rolls" and len(path) > 1:
        return f"rolls.{path[1]}"
    return path[0]


class Problems:
    """The problems found so far in reading and building one character, and the file's keys they are at."""

    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.failed: set[str] = set()
        #: A problem at the file as a whole (its shape, a check across keys): no step can be trusted.
        self.whole = False

    def add(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.items.append(problem)
            key = file_key(problem.path)
            if key is not None:
                self.failed.add(key)
            elif problem.label is None:
                self.whole = True

    def blocked(self, needs: Iterable[str]) -> bool:
        """Whether a step that needs the keys `needs` cannot be trusted to run."""
        return self.whole or not self.failed.isdisjoint(needs)

    def step(self, step: Step[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T | None:
        """`step(*args)`, or None when it needs a key found wrong, or fails (its problems added), or would
        roll a die with no seed to roll it (the seed found wrong)."""
        if (self.failed or self.whole) and self.blocked(step.reads.needs):  # a good file's steps: one test
            return None
        try:
            return step.run(*args, **kwargs)
        except InputError as error:
            self.add(error.items)
        except Unrolled:
            pass
        return None

    def step_on(
        self,
        step: Step[Concatenate[CharacterInput, P], T],
        spec: CharacterInput,
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T | None:
        """`step(spec, *args)` as Problems.step runs it, with the keys it can spare that were found wrong set
        aside, so it checks the rest."""
        return self.step(step, self.set_aside(step.reads, spec), *args, **kwargs)

    def set_aside(self, declared: Reads, spec: CharacterInput) -> CharacterInput:
        """`spec` with the keys a step `declared` it can spare that were found wrong left empty (a given die
        found wrong is left out of the file as it is read: chargen.character_reading)."""
        if not self.failed:  # a good file's steps: one test
            return spec
        fields = CharacterInput.model_fields
        failed = [key for key in declared.spare if key in self.failed and key in fields]
        if not failed:
            return spec
        empty: dict[str, object] = {key: fields[key].get_default(call_default_factory=True) for key in failed}
        return spec.model_copy(update=empty)

    def error(self, located: Located | None = None) -> InputError:
        """Every problem found, once each; given the file, each at its file:line:column, in the file's
        order."""
        unique = list(
            {(item.path, item.label, item.message, item.rule): item for item in reversed(self.items)}.values()
        )[::-1]
        if located is None:
            return InputError(unique)
        placed = [_placed(item, located) for item in unique]
        ordered: list[Problem] = sorted(placed, key=_order)
        return InputError(ordered)

    def raise_any(self, located: Located | None = None) -> None:
        if self.items:
            raise self.error(located)


def _placed(problem: Problem, located: Located) -> Problem:
    """`problem` at its file:line:column (the file alone when its key is not in the file)."""
    if problem.place is not None:
        return problem
    found = located.line_column(problem.path)
    if found is None:
        return problem.at(located.source)
    return problem.at(f"{located.source}:{found[0]}:{found[1]}", found)


def _order(problem: Problem) -> tuple[int, int]:
    """The file's order: by the line and column a problem is at (the file as a whole last)."""
    return problem.line_column or (1 << 30, 0)
