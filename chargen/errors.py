"""The one error root: every failure a user can cause is a ChargenError with a one-line message.

A problem with a character file or a choice is data: a Problem with its key path, message, rule and value;
its one-line text is formatted from those fields, and the file's line and column are added from the path
(chargen.all_problems), never parsed back out of the text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

#: Where a value stands in a file: its keys and list indexes from the top (`weapons[2].rank`).
KeyPath = tuple[str | int, ...]
#: A value is cut to this many characters in a message.
VALUE_WIDTH = 80


def shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut to VALUE_WIDTH characters."""
    # A string is cut before repr, so a 50 MB value is never copied whole into a message.
    text = repr(value[: VALUE_WIDTH + 1] if isinstance(value, str) else value)
    return text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 3] + "..."


#: A word of a message longer than this is cut (a 5,000-digit value, a path of 4,000 characters).
WORD_WIDTH = 120


def one_line(text: str) -> str:
    """A message as the command line prints it: one line, each overlong word cut (the last guard:
    messages quote values through `shown` already)."""
    words = text.split()
    return " ".join(word if len(word) <= WORD_WIDTH else word[: WORD_WIDTH - 3] + "..." for word in words)


#: A key is cut to this many characters in a key path (a real key is a word or two).
KEY_WIDTH = 40


def _shown_key(key: object) -> str:
    """A key as a path shows it: as typed when it is printable text, else quoted with its escapes, so a
    key holding a newline cannot break the one-line message; long keys are cut. A key YAML read as
    something else than text (a file's `null:` or `true:` key) is shown as YAML writes it."""
    if not isinstance(key, str):
        return "null" if key is None else "true" if key is True else "false" if key is False else repr(key)
    text = key if key.isprintable() and key.strip() == key and key else repr(key[: KEY_WIDTH + 1])
    return text if len(text) <= KEY_WIDTH else text[: KEY_WIDTH - 3] + "..."


def format_path(path: Iterable[str | int]) -> str:
    """`weapons[2].rank` style key path."""
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):  # a list's index
            text += f"[{part}]"
        else:
            text += f".{_shown_key(part)}" if text else _shown_key(part)
    return text or "(top level)"


@dataclass(frozen=True)
class Problem:
    """One thing wrong: where (key path in the file, or a label such as an option name), what, which rule,
    and the offending value. `place` is the file:line:column, once known, and `line_column` its line and
    column (problems are told in the file's order)."""

    path: KeyPath = ()
    message: str = ""
    rule: str | None = None
    value: object = None
    label: str | None = None  # shown instead of a key path, for what is not in the file (`--race`)
    place: str | None = None
    line_column: tuple[int, int] | None = None

    @property
    def text(self) -> str:
        head = self.label if self.label is not None else (format_path(self.path) if self.path else None)
        body = f"{head}: {self.message}" if head else self.message
        if self.rule is not None:
            body = f"{body}; rule {self.rule}"
        return f"{self.place}: {body}" if self.place else body

    def at(self, place: str, line_column: tuple[int, int] | None = None) -> Problem:
        return replace(self, place=place, line_column=line_column)

    def __str__(self) -> str:
        return self.text


class ChargenError(Exception):
    """A user-facing failure. The message names the field, the value and the rule broken."""

    @property
    def lines(self) -> list[str]:
        """The failure as the command line prints it: one line for each problem, each on one line."""
        return [one_line(str(self))]


class TableError(ChargenError):
    """A rules table under tables/ is missing, unreadable or breaks its schema. `problems`: each problem's
    own line (naming its file, line, column and key), when there are several."""

    def __init__(self, message: str, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)

    @property
    def lines(self) -> list[str]:
        return [one_line(problem) for problem in self.problems] or super().lines


class InputError(ChargenError):
    """A character file or a command-line choice breaks the rules or the file format. Takes one message,
    a Problem, or a list of either (a plain message is a Problem with no key path)."""

    def __init__(self, problems: Sequence[str | Problem] | str | Problem) -> None:
        given = [problems] if isinstance(problems, str | Problem) else list(problems)
        self.items = [item if isinstance(item, Problem) else Problem(message=item) for item in given]
        super().__init__("; ".join(item.text for item in self.items))

    @property
    def problems(self) -> list[str]:
        """Each problem's one-line text."""
        return [item.text for item in self.items]

    @property
    def lines(self) -> list[str]:
        return [one_line(text) for text in self.problems]
