"""Values worked out from one Tables, kept with it: the one memo every layer that derives something from the
tables uses (`per_tables`).

A memoised function's answers live in its Tables (`Tables.memos`), so they go when the Tables goes (the
loader keeps a few, chargen.tables.loader.KEPT_TABLES) and never answer for another Tables. Each function
keeps at most `maxsize` answers a Tables, and starts again empty past that: a long run meets only so many.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

if TYPE_CHECKING:
    from chargen.tables.loader import Tables

Arguments = ParamSpec("Arguments")
Answer = TypeVar("Answer")
#: One Tables' memos: each memoised function's answers by their key, by the function.
Memos = dict[Callable[..., object], dict[Hashable, object]]


def per_tables(
    maxsize: int, key: Callable[..., Hashable] | None = None
) -> Callable[[Callable[Arguments, Answer]], Callable[Arguments, Answer]]:
    """A function whose last argument is a Tables, worked out once for each Tables and key: `key` of all
    the arguments, else the arguments but the Tables (then all hashable). Arguments are passed by
    position. The answer is shared by every caller: it must never be changed."""

    def memoised(function: Callable[Arguments, Answer]) -> Callable[Arguments, Answer]:
        work: Callable[..., Answer] = function  # called with the arguments `kept` was given, by position

        @functools.wraps(function)
        def kept(*arguments: Any) -> Any:
            memos = arguments[-1].memos
            # The Tables is left out of the key: kept in its own memos, it would hold itself in a cycle.
            found = arguments[:-1] if key is None else key(*arguments)
            try:  # the fewest steps on a hit: a roll asks the memos about fifteen times
                return memos[kept][found]
            except KeyError:
                pass
            answers = memos.setdefault(kept, {})
            if len(answers) >= maxsize:
                answers.clear()
            answer = answers[found] = work(*arguments)
            return answer

        return cast("Callable[Arguments, Answer]", kept)

    return memoised


def forget(tables: Tables) -> None:
    """Empty every memo of `tables`: what is made stays the same, its values are worked out again."""
    tables.memos.clear()
