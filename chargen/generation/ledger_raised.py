"""The characteristics a file's ledger raised (17, 87), as the derived values read them and as explain
tells them: one term a raise, after the allocation and the modifiers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from chargen.model import Character, Characteristics, HistoryLine, characteristics_raised
from chargen.rules.working import Term


def with_raised(stats: Characteristics, raised: Mapping[str, int]) -> Characteristics:
    """The characteristics with what the ledger raised each by added."""
    if not raised:
        return stats
    values = {code: value + raised.get(code, 0) for code, value in stats.items()}
    optional = {code: values[code] for code in stats.optional}
    return replace(
        stats, **{code: values[code] for code in raised if code not in optional}, optional=optional
    )


def raised_terms(character: Character, code: str) -> tuple[Term, ...]:
    """One term for each raise of `code`, in the ledger's order: `raised 2: to 17 — Adventure 2 (17, 87)`."""
    return tuple(
        Term("raised", line.after - line.before, f"to {line.after} — {_when(line, index)} (17, 87)")
        for index, line in enumerate(character.history)
        if line.what == "characteristic"
        and line.name == code
        and line.after is not None
        and line.before is not None
    )


def created(character: Character, code: str) -> int | None:
    """A characteristic as created, before the ledger raised it."""
    value = character.characteristics.get(code)
    if value is None:
        return None
    return value - characteristics_raised(character.history).get(code, 0)


def _when(line: HistoryLine, index: int) -> str:
    """The raise as the player named it: its note, else its date, else its place in the ledger."""
    if line.note:
        return line.note
    if line.date:
        return line.date
    return f"the ledger's entry {index + 1}"
