"""What the record says of how its values were reached: the GM's rulings marked where they stand, the
configuration each figure assumes where the record mixes them (a shield prepared for one weapon, slung for
a two-handed one: 17.5, 20), and, with --explain, every value's working and a link to it from the value."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from chargen.render.numbers import DASH, num
from chargen.render.sheet import Item, Sheet, WeaponRow, WorkingRow
from chargen.values.evaluation import evaluate

if TYPE_CHECKING:
    from collections.abc import Collection

    from chargen.model import Character
    from chargen.rules.working import Working
    from chargen.tables import Tables

#: The key of each value of the Combat, movement and stun boxes, by its label on the record.
KEYS = {
    "Defense": "defense",
    "Initiative": "initiative",
    "Agility": "modified_agility",
    "Manual Dexterity": "modified_manual_dexterity",
    "TMR unarmored": "tmr",
    "TMR armored": "combat.tmr",
    "Stun threshold": "stun_threshold",
    "Stun recovery": "stun_recovery",
    "Breakage / drop": "breakage_check",
}


def annotated(sheet: Sheet, character: Character, tables: Tables, *, explain: bool = False) -> Sheet:
    """`sheet` with the GM's rulings marked, mixed configurations stated and, with `explain`, the workings;
    unchanged for a character with no ruling and no mixed configuration, without `explain`."""
    mixed = _mixed(character, tables)
    if not (character.overrides or mixed or explain):
        return sheet
    evaluation = evaluate(character, tables)
    found = evaluation.by_key()
    rows = evaluation.row_keys()
    return replace(
        sheet,
        combat=_items(sheet.combat, character, tables, found, mixed, explain),
        movement=_items(sheet.movement, character, tables, found, mixed, explain),
        stun=_items(sheet.stun, character, tables, found, mixed, explain),
        weapons=[
            _weapon(row, rows[index], character, found, mixed, explain)
            for index, row in enumerate(sheet.weapons)
        ],
        unarmed=_weapon(sheet.unarmed, "unarmed", character, found, False, explain),
        experience=_experience(sheet.experience, character),
        workings=[_row(item) for item in found.values()] if explain else [],
    )


def anchor(key: str) -> str:
    """The record's id for a value's working."""
    return "working-" + key.replace(".", "-").replace("_", "-")


def _mixed(character: Character, tables: Tables) -> bool:
    """Whether the record holds figures for both ways of holding the shield: a shield with a two-handed
    weapon (20: the shield slung for it) and Defense or a one-handed weapon read with it prepared."""
    if character.shield is None or character.shield.name not in tables.shields:
        return False
    return any(tables.weapons[item.name].hands == "2" for item in character.weapons)


def _ruled(character: Character, key: str) -> str:
    """`the GM's; the rules give 24` for a value the GM ruled, else ""."""
    ruling = (character.overrides or {}).get(key)
    if ruling is None:
        return ""
    return f"the GM's; the rules give {DASH if ruling.computed is None else num(ruling.computed)}"


def _items(
    items: list[Item],
    character: Character,
    tables: Tables,
    found: dict[str, Working],
    mixed: bool,
    explain: bool,
) -> list[Item]:
    changed = []
    # a house rule's postures and a ruleset's own values, by the label the record prints
    labelled = {label: key for key, label in tables.combat.graph_names().values()}
    for item in items:
        key = KEYS.get(item.label) or labelled.get(item.label)
        if key is None or key not in found:
            changed.append(item)
            continue
        notes = [item.note] if item.note else []
        if mixed and found[key].held:
            notes.append(_configuration(key, found[key], character, tables))
        if _ruled(character, key):
            notes.append(_ruled(character, key))
        changed.append(replace(item, note="; ".join(notes), working=anchor(key) if explain else ""))
    return changed


def _configuration(key: str, working: Working, character: Character, tables: Tables) -> str:
    """What the figure assumes, short (the working says it in full), and its value the other way (20)."""
    other = "" if working.alternative is None else f"; {num(working.alternative)} slung (20)"
    if key.startswith("defense") and working.alternative is not None:
        first = tables.weapons[character.weapons[0].name].name
        return f"{first} in both hands, shield slung (20); {num(working.alternative)} with it (17.5)"
    if key.startswith("defense") and held_two_handed_first(character, tables):
        return "shield slung (20)"
    return f"shield prepared (17.5){other}"


def held_two_handed_first(character: Character, tables: Tables) -> bool:
    return bool(character.weapons) and tables.weapons[character.weapons[0].name].hands == "2"


def _weapon(
    row: WeaponRow, key: str, character: Character, found: dict[str, Working], mixed: bool, explain: bool
) -> WeaponRow:
    """A weapon line with, where the record mixes them, the two-handed weapon's own MD (shield slung),
    the GM's values marked, and with `explain` the link to its working."""
    chance = found.get(f"{key}.strike_chance")
    slung = mixed and chance is not None and chance.held.startswith("in both hands")
    dexterity = (
        next((term.value for term in chance.terms if term.name == "modified_md"), None) if chance else None
    )
    return replace(
        row,
        held=f"slung: MD {num(dexterity)}" if slung and dexterity is not None else "",
        ruled=_ruled(character, f"{key}.strike_chance"),
        ruled_initiative=_ruled(character, f"{key}.initiative"),
        working=anchor(key) if explain else "",
    )


def _experience(items: list[Item], character: Character) -> list[Item]:
    ruling = (character.overrides or {}).get("experience_bank")
    if ruling is None:
        return items
    computed = DASH if ruling.computed is None else num(ruling.computed)
    note = f"the GM's: {ruling.reason}; the rules give {computed} (8.6)"
    return [replace(item, note=note) if item.label == "Experience Point Bank" else item for item in items]


def _row(item: Working) -> WorkingRow:
    lines = item.lines()
    return WorkingRow(anchor=anchor(item.key), headline=item.headline(), rule=item.rule, lines=lines[1:])


#: The workings that rest on nothing chosen with the weapons, armour and shield: the characteristics
#: (5.2-5.4, 6.1), TMR unarmored (5.6) and stun (19). Every other names the armour (18.1), the shield (17.5)
#: or a weapon (17.1, 20).
KIT_FREE = ("characteristics.", "tmr", "stun_threshold", "stun_recovery")


def explained_so_far(sheet: Sheet, undecided: Collection[str]) -> Sheet:
    """A walk's preview with --explain: until its weapons, armour and shield are chosen, only the workings
    that do not rest on them (the others would name the preview's stand-ins), and no link to one left out."""
    if not any(step in undecided for step in ("Weapons", "Armor", "Shield")):
        return sheet
    free = {anchor(key) for key in KIT_FREE}
    kept = [row for row in sheet.workings if row.anchor in free or row.anchor.startswith(anchor(KIT_FREE[0]))]
    shown = {row.anchor for row in kept}

    def linked(items: list[Item]) -> list[Item]:
        return [item if item.working in shown else replace(item, working="") for item in items]

    return replace(
        sheet,
        combat=linked(sheet.combat),
        movement=linked(sheet.movement),
        stun=linked(sheet.stun),
        unarmed=replace(sheet.unarmed, working=""),
        workings=kept,
    )
