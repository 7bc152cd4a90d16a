"""A walk's preview: what the player has not decided yet shows as a dash (or an empty box) rather than as
what the preview's fixed dice made of it. The walk names what is open (chargen.walkthrough.sections): the
record's labels `Name`, the identity lines' labels, `Weapons`, `Armor`, `Shield`, `Skills`, `Experience`,
`Money`, and the code of each characteristic not placed or rolled yet."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from chargen.render.numbers import DASH
from chargen.render.sheet import Aspect, Item, Sheet
from chargen.render.skill_boxes import Magic

#: The steps that choose what the character carries (8.7): until all are taken, the preview's stand-ins.
KIT = ("Weapons", "Armor", "Shield")


def blanked(sheet: Sheet, undecided: Collection[str]) -> Sheet:
    """The record with each undecided value a dash; the sheet itself when nothing is open."""
    if not undecided:
        return sheet
    sheet = _kit(_unplaced(sheet, undecided), undecided)
    if "Skills" in undecided:
        sheet = replace(sheet, skills=[], languages=[], uncharged="", magic=Magic("", "", [], []))
    if "Aspect" in undecided:
        sheet = replace(sheet, aspect=Aspect(DASH, "", "", "", []))
    sheet = replace(sheet, experience=_experience(sheet.experience, undecided))
    return _identity(sheet, undecided)


def _identity(sheet: Sheet, undecided: Collection[str]) -> Sheet:
    identity = [replace(item, value=DASH) if item.label in undecided else item for item in sheet.identity]
    named = {item.label: item.value for item in identity}
    race_open = "Race" in undecided
    return replace(
        sheet,
        name=DASH if "Name" in undecided else sheet.name,
        subtitle=" ".join(value for value in (named["Gender"], named["Race"]) if value != DASH) or DASH,
        race=named["Race"],
        identity=identity,
        life_span=DASH if race_open else sheet.life_span,
        starting_age=DASH if race_open else sheet.starting_age,
        abilities=[] if race_open else sheet.abilities,
    )


def _kit(sheet: Sheet, undecided: Collection[str]) -> Sheet:
    """Weapons as soon as they are bought; armour and shield once chosen; what is carried (and so what
    rests on it in play) once all three are."""
    if "Weapons" in undecided:
        sheet = replace(sheet, weapons=[])
    if "Armor" in undecided:  # TMR armored rests on it (18.1)
        movement = [_dash(item) if item.label == "TMR armored" else item for item in sheet.movement]
        sheet = replace(sheet, armor=[Item("Armor", DASH)], movement=movement)
    if "Shield" in undecided:  # Defense rests on it (17.5)
        combat = [_dash(item) if item.label.startswith("Defense") else item for item in sheet.combat]
        sheet = replace(sheet, shield=[Item("Shield", DASH)], combat=combat)
    if any(step in undecided for step in KIT):
        sheet = replace(sheet, carried=[], carried_total=DASH, in_play=[])
    return sheet


def _experience(items: list[Item], undecided: Collection[str]) -> list[Item]:
    """The Experience Points and the bank until they are rolled (8.4), the silver until it is (8.5)."""
    open_labels: set[str] = set()
    if "Experience" in undecided:
        open_labels |= {"Experience Points", "Experience Point Bank", "Experience multiplier"}
    if "Money" in undecided:
        open_labels |= {"Silver Pennies", "Starting silver"}
    return [_dash(item) if item.label in open_labels else item for item in items]


def _dash(item: Item) -> Item:
    return replace(item, value=DASH, note="", working="")


def _unplaced(sheet: Sheet, undecided: Collection[str]) -> Sheet:
    """A characteristic not placed or rolled yet (its code undecided) is a dash, and so is what rests on
    the characteristics (movement 5.6, combat 12.3 and 17.1, stun 19, unarmed 21, the Endurance and
    Fatigue boxes, every working) until every one of them is."""
    rows = [
        replace(row, allocated=DASH, race=DASH, gender=DASH, final=DASH) if row.code in undecided else row
        for row in sheet.characteristics
    ]
    if rows == sheet.characteristics:
        return sheet

    def dashed(items: list[Item]) -> list[Item]:
        return [_dash(item) for item in items]

    unarmed = replace(
        sheet.unarmed, strike_chance=DASH, damage=DASH, initiative=DASH, endurance=DASH, grievous=DASH
    )
    return replace(
        sheet,
        characteristics=rows,
        movement=dashed(sheet.movement),
        combat=dashed(sheet.combat),
        stun=dashed(sheet.stun),
        unarmed=replace(unarmed, working=""),
        tracks=[],
        workings=[],  # every working rests on the characteristics
    )
