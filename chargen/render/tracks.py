"""Page 1's play tracks: a box to tick for each point of Endurance and Fatigue (3.4, 3.7, 19)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from chargen.render.numbers import num

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables


#: How many boxes one line of the track holds on letter or A4 (7.27in to 7.5in between the margins, less
#: the label's 9.5em; a box and its gap 14.5pt): layout, not a rule; used to give back ruled lines the
#: tracks take from page 1.
BOXES_PER_LINE = 28


def extra_lines(found: list[Track]) -> int:
    """Lines the tracks take beyond one each."""
    return sum(max(0, -(-len(track.boxes) // BOXES_PER_LINE) - 1) for track in found)


@dataclass(frozen=True)
class TrackBox:
    number: str
    mark: str  # "" or what happens when this box is reached ("unconscious")


@dataclass(frozen=True)
class Track:
    label: str
    value: str
    rule: str
    note: str
    boxes: list[TrackBox]


def tracks(character: Character, tables: Tables) -> list[Track]:
    """A box for each point, ticked from the left as points are lost or spent, each numbered with what is
    left once it is ticked (the value less one, down to 0). The Endurance box whose tick leaves the
    Endurance at which 19 knocks the character out is marked: 19 "When figure's Endurance reaches 3, he
    falls unconscious", so the box that brings it to 3, not the one after (one point late)."""
    record = tables.record
    endurance = character.characteristics.EN
    fatigue = character.characteristics.FT
    out = record.endurance.unconscious
    return [
        Track(
            "Endurance",
            num(endurance),
            record.endurance.rule,
            f"unconscious at {num(out)}, dead at 0 ({record.endurance.rule})",
            [
                TrackBox(num(left), "unconscious" if left == out else "")
                for left in range(endurance - 1, -1, -1)
            ],
        ),
        Track(
            "Fatigue",
            num(fatigue),
            record.fatigue.rule,
            "",
            [TrackBox(num(left), "") for left in range(fatigue - 1, -1, -1)],
        ),
    ]
