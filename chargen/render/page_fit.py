"""How the Character Record's boxes fit its pages: the name's size, where page two starts, the ruled blank
lines left for pencil and whether the Equipment box is kept whole, all read from the boxes themselves."""

from __future__ import annotations

from dataclasses import replace

from chargen.render import skill_boxes
from chargen.render.sheet import CHARACTERISTICS, HistoryRow, Sheet, WeaponRow
from chargen.render.tracks import Track, extra_lines

#: Blank lines under the Equipment carried, for pencil.
CARRIED_BLANK_LINES = 2
#: Entries (two columns of them) up to which the Equipment box is never split: about a third of a page,
#: the most a page may be left short by moving the box whole to the next.
CARRIED_WHOLE_LINES = 40


#: Ruled Wounds lines the front page holds beside a record with the fewest weapon lines and captions.
FRONT_WOUNDS_LINES = 3
#: Weapon lines (each weapon, and each two-handed damage under one) that leave the Wounds box its lines.
FRONT_WEAPON_LINES = 3
#: Characters of the formula captions under the weapons table with the book's rules; a house rule's longer
#: formulas take a ruled line for about every CAPTION_CHARS_PER_LINE more (two lines of the fine print).
FRONT_CAPTION_CHARS = 450
CAPTION_CHARS_PER_LINE = 300
#: Characters of a weapon's 18.5 note that one line of the Damage column holds (Letter; A4 is narrower).
NOTE_CHARS_PER_LINE = 40
#: Lines the History box prints at most: about a third of a page, as the Equipment box kept whole. A
#: longer ledger shows its latest entries, the earlier ones summed in the first line.
HISTORY_LINES = 20
#: The ruled lines the fine print under a character's Characteristics as it stands takes (two lines of it).
STANDING_NOTE_LINES = 1
#: Characters of an entry's date and note, and of what it changed, that one line of their columns holds
#: (Letter; A4 is narrower).
HISTORY_WHEN_CHARS = 48
HISTORY_CHANGE_CHARS = 30


def fitted_to_pages(sheet: Sheet) -> Sheet:
    """The sheet with its page fitting worked out from its boxes."""
    name = sheet.name
    # an optional characteristic's row (5.5: Physical Beauty) lengthens the Characteristics box by a line,
    # and the note of a character as it stands by its two lines of fine print
    longer = max(0, len(sheet.characteristics) - len(CHARACTERISTICS))
    longer += STANDING_NOTE_LINES if sheet.characteristics_note else 0
    wounds = _wounds_lines(sheet.weapons, sheet.tracks, sheet.rule_captions) - longer
    return replace(
        sheet,
        name_size="" if len(name) <= 36 else ("long" if len(name) <= 90 else "very-long"),
        # A front page that already spills over (many weapons, a very long name) runs straight on, so
        # no page is left holding one box.
        page_two_new_page=wounds > 0 and len(name) <= 90,
        blank_lines=_blank_lines(
            len(sheet.in_play) + _history_room(sheet.history),
            sheet.skills,
            sheet.magic,
            sheet.languages,
            sheet.notes,
            wounds,
        ),
        carried_whole=len(sheet.carried) + CARRIED_BLANK_LINES <= CARRIED_WHOLE_LINES,
    )


def _blank_lines(
    taken: int,
    skills: list[skill_boxes.RankRow],
    magic: skill_boxes.Magic,
    languages: list[skill_boxes.RankRow],
    notes: list[str],
    wounds: int,
) -> dict[str, int]:
    """The ruled blank lines under each box, for pencil: the boxes' usual room less what they print."""
    return {
        # the In play and History boxes take their lines (and two for a frame) from the ruled Skills and
        # Magic below
        "skills": max(2, 11 - len(skills) - taken - 2),
        "magic": max(2, 8 - len(magic.rows) - taken - 2),
        "languages": max(2, 4 - len(languages)),
        "notes": max(2, 4 - len(notes)),
        "wounds": max(1, wounds),
        "carried": CARRIED_BLANK_LINES,
    }


def _wounds_lines(weapons: list[WeaponRow], play_tracks: list[Track], rule_captions: list[str]) -> int:
    """How many ruled Wounds lines still fit on the front page: the tracks, weapon lines beyond the
    usual (a two-handed damage under a weapon is one more, and each line of its 18.5 note) and a house
    rule's extra captions each take one. Below one, the box will not fit at all."""
    weapon_lines = sum(
        1 + max(_lines_under_damage(row), _lines_under_chance(row), bool(row.ruled_initiative))
        for row in weapons
    )
    beside_tracks = max(1, FRONT_WOUNDS_LINES - extra_lines(play_tracks))  # long tracks still leave one
    # A record that mixes the ways of holding the shield (20) states each figure's configuration: the
    # Stun & Breakage box's note takes a line more.
    configurations = any(row.held for row in weapons)
    return (
        beside_tracks
        - configurations
        - max(0, weapon_lines - FRONT_WEAPON_LINES)
        - -(
            -max(0, sum(len(caption) + 1 for caption in rule_captions) - FRONT_CAPTION_CHARS)
            // CAPTION_CHARS_PER_LINE
        )
    )


def _lines_under_damage(row: WeaponRow) -> int:
    """The lines under a weapon's damage: its two-handed damage (20.2) and its 18.5 note."""
    return bool(row.two_handed_damage) + -(-len(row.damage_increase) // NOTE_CHARS_PER_LINE)


def _lines_under_chance(row: WeaponRow) -> int:
    """The lines under a weapon's Strike Chance: its MD with the shield slung (20), the GM's ruling."""
    return bool(row.held) + bool(row.ruled)


def history_kept(rows: list[HistoryRow]) -> int:
    """How many of the latest History rows the box prints: all when their lines fit in HISTORY_LINES,
    else as many as fit beside the line that sums the earlier ones; the latest always."""
    if sum(_history_lines(row) for row in rows) <= HISTORY_LINES:
        return len(rows)
    used = 1  # the earlier entries' line
    kept = 0
    for row in reversed(rows):
        used += _history_lines(row)
        if used > HISTORY_LINES and kept:
            break
        kept += 1
    return kept


def _history_room(rows: list[HistoryRow]) -> int:
    """The lines the History box takes: its rows', its table's heading and its frame's (two, as the
    In play box's); none without a History."""
    if not rows:
        return 0
    return sum(_history_lines(row) for row in rows) + 3


def _history_lines(row: HistoryRow) -> int:
    """The lines one History row takes: its longest cell's, wrapped."""
    return max(1, -(-len(row.when) // HISTORY_WHEN_CHARS), -(-len(row.change) // HISTORY_CHANGE_CHARS))
