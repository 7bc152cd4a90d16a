"""The record's History box: a played character's ledger (12: Experience awarded; 17, 87: Experience spent
on a raise), one line an entry, in words, with the Experience it moved and the bank after it. The box keeps
the latest entries its room holds (chargen.render.page_fit) and sums the earlier ones in one line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from chargen.render.numbers import DASH, num, signed
from chargen.render.page_fit import history_kept
from chargen.render.sheet import HistoryRow

if TYPE_CHECKING:
    from chargen.model import HistoryLine

#: How the box says where a raise's cost came from (HistoryLine.charged).
CHARGED = {"chart": "chart \u00d7 race", "given": "as given"}
ARROW = "\u2192"
#: What a raise may find without a Rank and still held (HistoryLine.what): used unranked (17.1, 21).
UNRANKED = ("weapon", "shield", "unarmed")


def history_rows(lines: Sequence[HistoryLine], characteristics: Mapping[str, str]) -> list[HistoryRow]:
    """Every entry of the ledger, in the file's order; `characteristics`: the record's name for each
    characteristic's code (PS: Physical Strength)."""
    return [_row(line, characteristics) for line in lines]


def fitted_history(lines: Sequence[HistoryLine], characteristics: Mapping[str, str]) -> list[HistoryRow]:
    """The entries the box has room for, the latest; those before them, if any, summed in a first line."""
    rows = history_rows(lines, characteristics)
    kept = history_kept(rows)
    if kept == len(rows):
        return rows
    return [_earlier(lines[: len(lines) - kept]), *rows[len(rows) - kept :]]


def _row(line: HistoryLine, characteristics: Mapping[str, str]) -> HistoryRow:
    when = " \u00b7 ".join(part for part in (line.date, line.note) if part) or DASH
    return HistoryRow(
        kind=line.kind,
        when=when,
        change=_change(line, characteristics),
        experience=signed(line.experience),
        charged=CHARGED.get(line.charged or "", ""),
        bank=num(line.bank),
    )


def _change(line: HistoryLine, characteristics: Mapping[str, str]) -> str:
    """ "Awarded" (12), or what was raised from what to what (17, 87): a characteristic by its name, anything
    else by its Rank; a weapon, shield or Unarmed Combat used unranked, or a skill, language or spell
    learned (8.6), has no Rank before."""
    if line.kind == "award":
        return "Awarded"
    after = DASH if line.after is None else num(line.after)
    label = line.label or line.name or DASH
    if line.what == "characteristic":
        name = characteristics.get(line.name or "", label)
        return f"{name} {DASH if line.before is None else num(line.before)} {ARROW} {after}"
    if line.before is not None:
        return f"{label} Rank {num(line.before)} {ARROW} {after}"
    if line.what in UNRANKED:
        return f"{label} unranked {ARROW} Rank {after}"
    return f"{label} learned at Rank {after}"


def _earlier(lines: Sequence[HistoryLine]) -> HistoryRow:
    """The entries the box has no room for, as one line: how many, what they moved, the bank after them."""
    awards = sum(line.kind == "award" for line in lines)
    raises = len(lines) - awards
    return HistoryRow(
        kind="earlier",
        when=f"{len(lines)} earlier {'entry' if len(lines) == 1 else 'entries'}: in the character file",
        change=f"{_count(awards, 'award')}, {_count(raises, 'raise')}",
        experience=signed(sum(line.experience for line in lines)),
        charged="",
        bank=num(lines[-1].bank),
    )


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
