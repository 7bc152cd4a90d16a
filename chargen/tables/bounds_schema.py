"""The bounds of the numbers a table, or a GM's ruleset over it, may set: what a character file holds and a
record prints. A race's Endurance modifier of +10,000,000 would build a box for each point; a Rank of
10**12 would be looped over. Each is refused when the tables load, naming its key path, value and bound."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from chargen.tables.base import MAX_DICE
from chargen.vocabulary import MAX_ENTRIES, MAX_POINTS, MAX_RANK


def _points(value: int) -> int:
    if not -MAX_POINTS <= value <= MAX_POINTS:
        raise ValueError(
            f"{value:,} is past what a characteristic can hold: a character file holds at most "
            f"{MAX_POINTS:,} points (rule 3's characteristics, printed a box a point)"
        )
    return value


def _count(value: int) -> int:
    if value > MAX_POINTS:
        raise ValueError(
            f"{value:,}: a count is at most {MAX_POINTS:,} (the most a character file's count holds)"
        )
    return value


def _rank(value: int) -> int:
    if not 0 <= value <= MAX_RANK:
        raise ValueError(f"Rank {value:,}: a Rank is from 0 to {MAX_RANK} (the most a character file holds)")
    return value


def _entries(value: int) -> int:
    if not 0 <= value <= MAX_ENTRIES:
        raise ValueError(
            f"{value:,}: from 0 to {MAX_ENTRIES} (the most entries a character file's list holds)"
        )
    return value


def _dice(value: int) -> int:
    if not 1 <= value <= MAX_DICE:
        raise ValueError(f"{value:,}: from 1 to {MAX_DICE} (the most dice a table may roll at once)")
    return value


#: A number on a characteristic's scale: a characteristic, a modifier of one, a row of a chart read by one.
Points = Annotated[int, AfterValidator(_points)]
#: A Rank a table gives or allows (a weapon's, skill's, language's or spell's maximum, an archetype's).
RankBound = Annotated[int, AfterValidator(_rank)]
#: How many of something a table asks for at once (a group's members of one archetype).
Count = Annotated[int, AfterValidator(_count)]
#: How many of something a character file lists (6.3's race attempts, each a roll in the file).
EntryCount = Annotated[int, AfterValidator(_entries)]
#: How many dice are rolled for one result (a leader's 5.1 roll, the best of this many).
DiceCount = Annotated[int, AfterValidator(_dice)]

#: The most points an Endurance or Fatigue track may hold: the record prints a box a point (3.4, 3.7), 28
#: a line, so 100 is four lines: twice the book's largest, a Fire Giant's Endurance of 50 (5.1's maximum of
#: 25, and 6.6's +25).
MOST_TRACK_POINTS = 100
