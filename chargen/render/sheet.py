"""The Character Record's view model: every word and number the templates print, as typed rows; `sheet` in
the templates is a Sheet (docs/record.md lists its fields, chargen.render.context_doc).

Templates only format. chargen.render.build makes the Sheet from the typed Character (chargen.model) and,
for display names, ranges, weights, captions and rule text, from the rules tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen.render import skill_boxes
from chargen.render.tracks import Track

#: The characteristics the record always prints, in the book's order (rule 3), with their names.
CHARACTERISTICS: tuple[tuple[str, str], ...] = (
    ("PS", "Physical Strength"),
    ("MD", "Manual Dexterity"),
    ("AG", "Agility"),
    ("EN", "Endurance"),
    ("MA", "Magical Aptitude"),
    ("WP", "Willpower"),
    ("FT", "Fatigue"),
    ("PC", "Perception"),
)


@dataclass(frozen=True)
class Item:
    label: str
    value: str
    note: str = ""
    working: str = ""  # with --explain: the id of this value's working on the record


@dataclass(frozen=True)
class CharacteristicRow:
    code: str
    name: str
    allocated: str
    race: str
    gender: str
    final: str
    raised: str = ""  # after play: what the ledger raised it by (17, 87); "" for one never raised


@dataclass(frozen=True)
class WeaponRow:
    name: str
    rank: str
    strike_chance: str
    damage: str
    two_handed_damage: str  # "" unless a (1-2) weapon (20.2: +1 in two hands)
    damage_increase: str  # "" unless the file chose 18.5 and the weapon gains by it
    initiative: str
    range: str
    damage_class: str
    use: str
    endurance: str
    grievous: str
    held: str = ""  # a two-handed weapon's MD, the shield slung (20), where the record mixes the two
    ruled: str = ""  # the GM's Strike Chance: what the rules give
    ruled_initiative: str = ""  # the GM's Initiative: what the rules give
    working: str = ""  # with --explain: the id prefix of this weapon's workings on the record


@dataclass(frozen=True)
class WorkingRow:
    """One value's working, as `chargen explain` prints it: its headline and the lines below it."""

    anchor: str
    headline: str
    rule: str
    lines: list[str]


@dataclass(frozen=True)
class EffectRow:
    when: str
    effect: str


@dataclass(frozen=True)
class Aspect:
    name: str
    rule: str
    window: str
    note: str
    rows: list[EffectRow]


@dataclass(frozen=True)
class CarriedRow:
    name: str
    weight: str
    pounds: float | None = None


@dataclass(frozen=True)
class HistoryRow:
    """One line of the History box: an entry of the file's ledger (12, 17, 87) as the record words it, or
    (kind "earlier") the entries before the lines the box has room for, summed."""

    kind: str  # "award", "raise" or "earlier"
    when: str  # the entry's date and note
    change: str  # "Awarded", "Physical Strength 15 \u2192 16"
    experience: str  # "+500", "\u2212300"
    charged: str  # where a raise's cost came from: the GM's chart, or the figure the file gives
    bank: str  # the Experience Point Bank after it


@dataclass(frozen=True, kw_only=True)
class Sheet:
    name: str
    # name_size, page_two_new_page, blank_lines and carried_whole: set by render.page_fit from the boxes.
    name_size: str = ""
    subtitle: str
    race: str
    identity: list[Item]
    life_span: str
    starting_age: str
    abilities: list[str]
    in_play: list[Item]
    characteristics: list[CharacteristicRow]
    movement: list[Item]
    combat: list[Item]
    stun: list[Item]
    weapons: list[WeaponRow]
    unarmed: WeaponRow
    armor: list[Item]
    shield: list[Item]
    aspect: Aspect
    experience: list[Item]
    carried: list[CarriedRow]
    carried_total: str
    rule_captions: list[str]
    notes: list[str]
    skills: list[skill_boxes.RankRow]
    languages: list[skill_boxes.RankRow]
    magic: skill_boxes.Magic
    tracks: list[Track]
    uncharged: str  # 8.6: Ranks recorded as given because the Cost Chart has no numbers for them
    footer: list[Item]
    version: str
    page_two_new_page: bool = False
    blank_lines: dict[str, int] = field(default_factory=dict)
    # The Equipment box kept whole on one page (moved on when it does not fit) unless it is long: split,
    # a box that just misses the page leaves a stub of blank lines and its frame on the next page.
    carried_whole: bool = False
    # With --explain: how each value was worked out ("How each value was worked out", a page of its own).
    workings: list[WorkingRow] = field(default_factory=list)
    # A played character's ledger, the latest entries the box has room for (render.page_fit); empty for a
    # character not played, whose record has no History box.
    history: list[HistoryRow] = field(default_factory=list)
    # A character as it stands: its values start from its file's, race and gender in them (the columns beside
    # say what they are, not what is added); "" for a character whose creation is known.
    characteristics_note: str = ""
