"""The record's Skills, Languages and Magic boxes, the 8.6 Experience Point Bank and the equipment the
player entered: view-model pieces built from the typed Character and tables/abilities.yaml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chargen.render.numbers import num, pounds, weight
from chargen.rules.experience import experience_spent, race_costs

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables


@dataclass(frozen=True)
class RankRow:
    name: str
    rank: str
    rule: str = ""


@dataclass(frozen=True)
class MagicRow:
    name: str
    kind: str
    rank: str
    rule: str
    columns: list[str]  # one per Magic.columns name, "" where the table gives none


@dataclass(frozen=True)
class Magic:
    college: str
    college_rule: str
    columns: list[str]
    rows: list[MagicRow]


def _display(entries: Mapping[str, object], entry_id: str) -> tuple[str, str]:
    """(display name, rule) of a table entry; an open list's name as written, without a rule."""
    entry = entries.get(entry_id)
    return str(getattr(entry, "name", entry_id)), str(getattr(entry, "rule", None) or "")


def skills(character: Character, tables: Tables) -> list[RankRow]:
    rows = []
    for item in character.skills:
        name, rule = _display(tables.abilities.skills, item.name)
        rows.append(RankRow(name, num(item.rank), rule))
    return rows


def languages(character: Character, tables: Tables) -> list[RankRow]:
    entries = tables.abilities.languages.entries
    return [RankRow(_display(entries, item.name)[0], num(item.rank), "49") for item in character.languages]


def magic(character: Character, tables: Tables) -> Magic:
    """The college, the talents the race grants (6.4-6.9, no Rank), then the file's talents, spells and
    rituals; the columns are the names any listed entry's table row gives, in first-seen order."""
    entries = tables.abilities.magic.entries
    granted = [(key, None) for key, entry in entries.items() if character.race in entry.granted_to]
    listed = [*granted, *((item.name, item) for item in character.spells)]
    columns: list[str] = []
    for key, _ in listed:
        for column in entries[key].columns if key in entries else {}:
            if column not in columns:
                columns.append(column)
    rows = []
    for key, item in listed:
        entry = entries.get(key)
        shown = entry.columns if entry else {}
        rows.append(
            MagicRow(
                name=entry.name if entry else key,
                kind=(item.kind if item else entry.kind if entry else "").capitalize(),
                rank="racial" if item is None else num(item.rank),
                rule=(entry.rule or "") if entry else "",
                columns=[shown.get(column, "") for column in columns],
            )
        )
    college, rule = ("", "")
    if character.college is not None:
        college, rule = _display(tables.abilities.colleges, character.college)
    return Magic(college, rule, columns, rows)


def uncharged(character: Character, tables: Tables) -> str:
    """8.6: the Ranks recorded as given because the Experience Point Cost Chart gives no numbers for them
    (an NPC's abilities are all given: the bank says so)."""
    if character.abilities_given:
        return ""
    spending = experience_spent(
        ((item.name, item.rank) for item in character.skills),
        ((item.name, item.rank) for item in character.languages),
        ((item.name, item.rank) for item in character.spells),
        race_costs(tables.races[character.race]),
        tables.abilities.experience,
    )
    if not spending.uncharged:
        return ""
    return (
        "Recorded as given, not charged (the Experience Point Cost Chart, 8.6, lists no cost for them): "
        + ", ".join(_display_name(entry_id, tables) for entry_id in spending.uncharged)
        + "."
    )


def _display_name(entry_id: str, tables: Tables) -> str:
    """A skill's, language's or magic entry's name as the tables print it (an open list's as written)."""
    abilities = tables.abilities
    for entries in (abilities.skills, abilities.languages.entries, abilities.magic.entries):
        if entry_id in entries:
            return _display(entries, entry_id)[0]
    return entry_id


def bank_points(character: Character) -> int | None:
    """The Experience Point Bank every door shows (8.6; after the History, 12 and 87; the GM's where an
    override rules it, which is written in `experience_bank`); None: unknown, as it stands."""
    if character.history:
        return character.history[-1].bank if character.experience_bank is None else character.experience_bank
    if character.experience_points is None:  # as it stands: the bank its file gives, or unknown
        return character.experience_bank
    if character.abilities_given or character.experience_bank is None:
        return character.experience_points
    return character.experience_bank


def bank(character: Character, tables: Tables) -> tuple[str, str]:
    """The Experience Point Bank (`bank_points`) as the record prints it, and how it was reached."""
    points = bank_points(character)
    shown = "\u2014" if points is None else num(points)
    if character.history:
        return shown, "after the History (12, 87)"
    if character.experience_points is None:
        return shown, "as it stands"
    if character.abilities_given:
        return shown, "abilities given, not bought (8.6)"
    if character.experience_bank is None:
        return shown, "nothing bought (8.6)"
    return shown, f"{num(character.experience_points - character.experience_bank)} spent (8.6)"


@dataclass(frozen=True)
class GearRow:
    name: str
    weight: str
    pounds: float | None


def gear(character: Character) -> list[GearRow]:
    """The player's equipment: each line's weight times its count."""
    rows = []
    for item in character.equipment:
        total = None if item.weight is None else item.weight * item.count
        name = item.name if item.count == 1 else f"{item.name} \u00d7{item.count}"
        rows.append(GearRow(name, weight(total), pounds(total)))
    return rows
