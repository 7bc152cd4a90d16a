"""Stat blocks: each NPC as a GM writes it on an index card, as plain text or Markdown, made from the
roster card (chargen.views.cards.RosterCard), so a block and a card always show the same values.

    Theobald Stanmore (1): Bandit, Human, male
      PS 20  MD 21  AG 21  EN 14  MA 6  WP 9  FT 20  PC 8
      TMR 6  Defense 22  Initiative 28
      ...

A group's blocks stand under one heading that names the group, the party's best Initiative and the
leader's Perception: what the GM reads when the party meets them (chargen.batch.groups).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chargen.views.cards import CardAbility, CardWeapon, RosterCard, roster_card

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

#: The weapon table's columns after the name, for text: (heading, width), numbers set right, damage left.
WEAPON_COLUMNS = (("Rank", 4), ("SC", 3), ("Damage", -7), ("IV", 3))
NO_RANK = "-"  # an unranked weapon (no Rank bought: 17.x's base chance only)


@dataclass(frozen=True)
class GroupHeading:
    """What the GM reads first when a group appears."""

    title: str  # "Bandit band 1 of 2"
    members: str  # "Bandit Chief (leader), 5 Bandit"
    best_initiative: int
    quickest: str  # the name of the member with that Initiative (the first listed on a tie)
    leader: str
    leader_perception: int


def group_heading(title: str, members: str, cards: Sequence[RosterCard]) -> GroupHeading:
    """The heading of a group whose leader is `cards[0]`."""
    quickest = max(cards, key=lambda card: card.initiative)  # max keeps the first of equals
    leader = cards[0]
    return GroupHeading(
        title, members, quickest.initiative, quickest.name, leader.name, leader.characteristics["PC"]
    )


def _rank(rank: int | None) -> str:
    return NO_RANK if rank is None else str(rank)


def _shown_weapons(card: RosterCard) -> list[CardWeapon]:
    """Every weapon carried; bare hands only for an NPC who carries none (as on the roster card)."""
    return list(card.weapons) or [card.unarmed]


def _plain(text: str) -> str:
    return text


#: What Markdown reads as markup in running text: emphasis, links and images, HTML and autolinks, code,
#: table cells, headings' closing #, strikethrough. Each is written with a backslash, which
#: CommonMark and GitHub's Markdown read as the character itself, so a name such as `<img src=...>` or
#: `[l](javascript:...)` from a GM's table is text. Ordinary names hold none of them: unchanged. (An
#: entity such as `&lt;` only ever becomes text, so `&`, as in "Hand & Half", is left as it is.)
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|!#~])")


def escaped(text: str) -> str:
    """`text` as Markdown that shows exactly `text`."""
    return _MARKDOWN.sub(r"\\\1", text)


def _kit(card: RosterCard, bold: str = "", esc: Callable[[str], str] = _plain) -> str:
    armor = f"{esc(card.armor.name)} (Protection {card.armor.protection})" if card.armor else "none"
    line = f"{bold}Armor{bold} {armor}"
    if card.shield is not None:
        rank = f" (Rank {card.shield.rank})" if card.shield.rank is not None else ""
        line += f"; {bold}Shield{bold} {esc(card.shield.name)}{rank}"
    return line


def _abilities(items: Sequence[CardAbility], esc: Callable[[str], str] = _plain) -> str:
    """`Healer 3, Witchsight (racial)`: a Rank as a number, a race's talent named as such."""
    return ", ".join(
        f"{esc(item.name)} {item.rank}" if item.rank.isdigit() else f"{esc(item.name)} ({esc(item.rank)})"
        for item in items
    )


def _notable(card: RosterCard, bold: str = "", esc: Callable[[str], str] = _plain) -> list[str]:
    """College, magic and skills: nothing at all when the NPC has none."""
    lines = []
    if card.college or card.magic:
        college = f"{esc(card.college)}: " if card.college and card.magic else esc(card.college or "")
        lines.append(f"{bold}Magic{bold} {college}{_abilities(card.magic, esc)}")
    if card.skills:
        lines.append(f"{bold}Skills{bold} {_abilities(card.skills, esc)}")
    return lines


def _who(card: RosterCard, leader: bool, esc: Callable[[str], str] = _plain) -> str:
    """`Bandit, Human, male`; a character without an archetype is named by race and gender."""
    who = ", ".join(esc(part) for part in (card.archetype, card.race, card.gender) if part)
    return f"{who} (leader)" if leader else who


def _name(card: RosterCard) -> str:
    """The name with the NPC's number in its run; a character alone (number 0) has none."""
    return f"{card.name} ({card.number})" if card.number else card.name


def _set(text: str, width: int) -> str:
    """Right-aligned in `width`, or left-aligned in -`width`."""
    return text.rjust(width) if width > 0 else text.ljust(-width)


def text_block(card: RosterCard, *, leader: bool = False) -> str:
    """One NPC as plain text: a title line, then indented lines of values, ending in a newline."""
    weapons = _shown_weapons(card)
    name_width = max(len("Weapon"), *(len(weapon.name) for weapon in weapons))
    header = "Weapon".ljust(name_width) + "".join(f"  {_set(h, w)}" for h, w in WEAPON_COLUMNS)
    rows = [
        weapon.name.ljust(name_width)
        + "".join(
            f"  {_set(value, width)}"
            for value, (_, width) in zip(
                (_rank(weapon.rank), str(weapon.strike_chance), weapon.damage, str(weapon.initiative)),
                WEAPON_COLUMNS,
                strict=True,
            )
        )
        for weapon in weapons
    ]
    lines = [
        "  ".join(f"{code} {value}" for code, value in card.characteristics.items()),
        f"TMR {card.tmr}  Defense {card.defense}  Initiative {card.initiative}",
        header,
        *rows,
        _kit(card),
        f"Endurance {card.characteristics['EN']}  Fatigue {card.characteristics['FT']}",
        *_notable(card),
    ]
    title = f"{_name(card)}: {_who(card, leader)}"
    return "\n".join([title, *(f"  {line.rstrip()}" for line in lines)]) + "\n"


def _cell(text: object) -> str:
    """A Markdown table cell or heading: the text as text (a `|` would end the cell)."""
    return escaped(str(text))


def _table(headings: Sequence[str], aligns: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(headings) + " |", "|" + "|".join(aligns) + "|"]
    lines.extend("| " + " | ".join(_cell(value) for value in row) + " |" for row in rows)
    return lines


def markdown_block(card: RosterCard, *, leader: bool = False) -> str:
    """One NPC as Markdown: a level-3 heading, the values as two small tables, then the kit and abilities."""
    codes = list(card.characteristics)
    stats = _table(
        [*codes, "TMR", "Def", "Init"],
        ["---:"] * (len(codes) + 3),
        [[*card.characteristics.values(), card.tmr, card.defense, card.initiative]],
    )
    weapons = _table(
        ["Weapon", "Rank", "SC", "Damage", "IV"],
        ["---", "---:", "---:", "---", "---:"],
        [
            [weapon.name, _rank(weapon.rank), weapon.strike_chance, weapon.damage, weapon.initiative]
            for weapon in _shown_weapons(card)
        ],
    )
    endurance = f"**Endurance** {card.characteristics['EN']} · **Fatigue** {card.characteristics['FT']}"
    facts = [_kit(card, "**", escaped), endurance, *_notable(card, "**", escaped)]
    return (
        "\n".join(
            [
                f"### {_cell(_name(card))}",
                "",
                f"*{_who(card, leader, escaped)}*",
                "",
                *stats,
                "",
                *weapons,
                "",
                "  \n".join(facts),  # two spaces: a line break inside one paragraph
            ]
        )
        + "\n"
    )


def text_heading(heading: GroupHeading) -> str:
    title = f"== {heading.title}: {heading.members} =="
    values = (
        f"Best Initiative {heading.best_initiative} ({heading.quickest}); "
        f"leader's Perception {heading.leader_perception} ({heading.leader})"
    )
    return f"{title}\n{values}\n"


def markdown_heading(heading: GroupHeading) -> str:
    return (
        f"## {_cell(heading.title)}\n\n{_cell(heading.members)}  \n"
        f"**Best Initiative** {heading.best_initiative} ({_cell(heading.quickest)}) · "
        f"**Leader's Perception** {heading.leader_perception} ({_cell(heading.leader)})\n"
    )


def character_block(character: Character, tables: Tables, *, markdown: bool = False) -> str:
    """One character's block, for `chargen roll/build/render --statblock`: alone, so without a number."""
    card = roster_card(0, character, tables)
    return markdown_block(card) if markdown else text_block(card)
