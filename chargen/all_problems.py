"""Every problem of a character file in one run: a file with seven mistakes hears of seven.

Each step of reading and building a character (the file's shape, the names in it, then each step of the
book) adds what it finds wrong to one `Problems`, and notes the file's keys those problems are at. A step
that reads a key found wrong, or needs what a failed step would have made, is skipped: its problems may be
the broken key's doing, not the file's, and chargen never reports a problem the file does not have. The
player hears of those, if real, once the key is right. Nothing is run twice."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import ParamSpec, TypeVar

from chargen.character_file import CharacterInput
from chargen.errors import InputError, KeyPath, Problem
from chargen.yamlio import Located

P = ParamSpec("P")
T = TypeVar("T")

#: Keys every step rests on: the tables they name, the dice they roll, the file's format.
EVERY_STEP = frozenset({"rules", "seed", "schema_version"})


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

    def blocked(self, reads: Collection[str]) -> bool:
        """Whether a step that reads the keys `reads` cannot be trusted to run."""
        return self.whole or not self.failed.isdisjoint(reads)

    def step(
        self, reads: Collection[str], run: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T | None:
        """`run(*args)`, or None when it reads a key found wrong or fails (its problems added)."""
        if (self.failed or self.whole) and self.blocked(reads):  # a good file's steps: one test
            return None
        try:
            return run(*args, **kwargs)
        except InputError as error:
            self.add(error.items)
            return None

    def set_aside(
        self, spec: CharacterInput, keys: tuple[str, ...], others: tuple[str, ...]
    ) -> tuple[CharacterInput, tuple[str, ...]]:
        """`spec` with those of `keys` found wrong left out, for a step whose checks of the rest do not
        rest on them (a weapon's Rank on the armor, a spell on the skills) and whose sums (the purse of
        8.5, the Experience of 8.6) can then be told too little, never wrongly; and which of `keys` the
        step still reads. A step left with nothing of `keys` or `others` reads them all (it is skipped)."""
        if not self.failed:
            return spec, keys
        failed = [key for key in keys if key in self.failed]
        if not failed or not any(getattr(spec, key) for key in (*keys, *others) if key not in failed):
            return spec, keys
        fields = CharacterInput.model_fields
        empty = {key: fields[key].get_default(call_default_factory=True) for key in failed}
        return spec.model_copy(update=empty), tuple(key for key in keys if key not in failed)

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
