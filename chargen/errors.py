"""The one error root: every failure a user can cause is a ChargenError with a one-line message."""

from __future__ import annotations


class ChargenError(Exception):
    """A user-facing failure. The message names the field, the value and the rule broken."""


class TableError(ChargenError):
    """A rules table under tables/ is missing, unreadable or breaks its schema."""


class InputError(ChargenError):
    """A character file or a command-line choice breaks the rules or the file format."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))
