"""A Foundry VTT actor of the "Simple Worldbuilding" system, for the actor's "Import Data".

The system keeps free-form attributes in named groups: system.attributes[group][key] = {value, label,
dtype, group} and system.groups[group] = {key, label, dtype} (tables/export_foundry.yaml says where in the
system's source). chargen's groups: who the character is (gender, race, college, armor, shield), the
characteristics, the derived values, the weapons (Strike Chance, a D100 roll against it and damage as roll
formulas, Initiative) and the skills, languages and magic by Rank. Endurance and Fatigue are the system's
own health and power, the token's two bars; the record's text goes in the biography.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chargen.export import digest
from chargen.export.targets import foundry_names
from chargen.export.text import record_text_html
from chargen.render import lookup, skill_boxes
from chargen.render.build import characteristic_names
from chargen.values.added import shown_added

if TYPE_CHECKING:
    from chargen.model import Character, Document, DocumentValue, UnarmedLine, WeaponLine
    from chargen.tables import Tables

#: Foundry's ids: 16 letters and digits.
ID_CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: A damage such as "D10+4" as the roll formula "1d10+4" (17.1's dice).
_DAMAGE = re.compile(r"^D(\d+)([+-]\d+)?$")


@dataclass(frozen=True)
class Attribute:
    """One of the system's free-form attributes: {value, label, dtype}, and its group once placed."""

    value: str | int | float
    label: str
    dtype: str = "Number"

    def document(self, group: str) -> DocumentValue:
        return {"value": self.value, "label": self.label, "dtype": self.dtype, "group": group}


Attributes = dict[str, Attribute]


def foundry_id(character: Character) -> str:
    """The actor's id, the same for the same character."""
    return "".join(ID_CHARACTERS[byte % len(ID_CHARACTERS)] for byte in digest(character, "foundry")[:16])


#: The actor's and its token's picture: Foundry's own default.
IMAGE = "icons/svg/mystery-man.svg"


def actor_json(character: Character, tables: Tables) -> Document:
    import chargen
    from chargen.export import foundry_items  # it builds on this module's attributes

    groups = foundry_names().groups
    attributes: dict[str, Attributes] = {
        "identity": _identity(character, tables),
        "characteristics": _characteristics(character, tables),
        "derived": _derived(character, tables),
        "weapons": _weapons(character, tables),
        "abilities": _abilities(character, tables),
    }
    values = character.characteristics
    return {
        "_id": foundry_id(character),
        "name": character.name,
        "type": "character",
        "img": IMAGE,
        "system": {
            "biography": record_text_html(character, tables),
            "health": {"value": values.EN, "min": 0, "max": values.EN},
            "power": {"value": values.FT, "min": 0, "max": values.FT},
            "attributes": {
                group: {key: entry.document(group) for key, entry in entries.items()}
                for group, entries in attributes.items()
            },
            "groups": {key: {"key": key, "label": label, "dtype": "Number"} for key, label in groups.items()},
        },
        # The token dragged from the actor: named for the character, its bars Endurance and Fatigue. A
        # player character's tokens share the actor's Endurance and Fatigue; a GM's NPC's (its kit given,
        # as a batch gives it) each keep their own: several tokens of one NPC are several fighters.
        "prototypeToken": {
            "name": character.name,
            "actorLink": not character.equipment_given,
            "texture": {"src": IMAGE},
            "bar1": {"attribute": "health"},
            "bar2": {"attribute": "power"},
        },
        "items": foundry_items.items(character, tables),
        "effects": [],
        "folder": None,
        "flags": {"chargen": {"version": chargen.__version__, "seed": character.seed}},
    }


def _experience(character: Character) -> Attributes:
    """8.5's Experience; for a character as it stands, the Experience its file says it earned in all (12),
    left out when its file does not say (never made up)."""
    known = character.experience_points
    if known is not None:
        return {"experience_points": _number(known, "Experience Points (8.5)")}
    if character.experience_total is None:
        return {}
    return {"experience_points": _number(character.experience_total, "Experience Points, earned in all (12)")}


def _number(value: int | float, label: str) -> Attribute:
    return Attribute(value, label)


def _identity(character: Character, tables: Tables) -> Attributes:
    """Who the character is, as the record's heading and boxes name it."""
    combat = character.combat
    magic = skill_boxes.magic(character, tables)
    found = {
        "gender": Attribute(lookup.gender_name(tables, character.gender), "Gender", "String"),
        "race": Attribute(
            lookup.race_name(tables, character.race, character.race_type), "Race (6)", "String"
        ),
    }
    if magic.college:
        found["college"] = Attribute(magic.college, f"College ({magic.college_rule})", "String")
    if combat.armor is not None:
        found["armor"] = Attribute(lookup.armor(tables, combat.armor.name).name, "Armor (18.1)", "String")
    if combat.shield is not None:
        name = lookup.shield(tables, combat.shield.name).name
        found["shield"] = Attribute(name, "Shield (17.5)", "String")
    return found


def _characteristics(character: Character, tables: Tables) -> Attributes:
    names = characteristic_names(tables)
    return {
        code.lower(): _number(value, f"{names.get(code, code)} ({code})")
        for code, value in character.characteristics.items()
    }


def _derived(character: Character, tables: Tables) -> Attributes:
    combat = character.combat
    found = {
        "tmr": _number(character.tmr, "TMR unarmored (5.6)"),
        "tmr_armored": _number(combat.tmr, "TMR armored (18.1)"),
        "initiative": _number(combat.initiative, "Initiative, no weapon (12.3)"),
        "modified_agility": _number(combat.modified_agility, "Agility, modified (18.1)"),
        "modified_md": _number(combat.modified_manual_dexterity, "Manual Dexterity, modified (17.5)"),
        "stun_threshold": _number(combat.stun_threshold, "Stun threshold (19)"),
        "stun_recovery": _number(combat.stun_recovery, "Stun recovery (19)"),
        "breakage": _number(combat.breakage_check, "Breakage / drop (17.3)"),
        **_experience(character),
        "experience_multiplier": _number(character.experience_multiplier, "Experience multiplier"),
        "silver_pennies": _number(character.silver_pennies, "Silver Pennies (8.5)"),
    }
    if combat.defense is not None:
        found["defense"] = _number(combat.defense, "Defense (17.5)")
    if combat.armor is not None:
        found["protection"] = _number(combat.armor.protection, "Armor protection (18.1)")
    bank = skill_boxes.bank_points(character)  # the record's (8.6); unknown as it stands: left out
    if bank is not None:
        found["experience_bank"] = _number(bank, "Experience Point Bank (8.6)")
    if character.history and character.experience_total is not None:  # a played character's (12)
        found["experience_total"] = _number(character.experience_total, "Experience total (12)")
    for key, label, value, rule in shown_added(character, tables):  # a ruleset's own values
        if value is not None:
            found[_unique(_slug(key), found)] = _number(value, f"{label} ({rule})")
    return found


def _weapons(character: Character, tables: Tables) -> Attributes:
    found: Attributes = {}
    lines: list[tuple[str, WeaponLine | UnarmedLine, str]] = [
        (lookup.weapon(tables, line.name, f"combat.weapons[{index}].name").name, line, "20.2")
        for index, line in enumerate(character.combat.weapons)
    ]
    lines.append(("Unarmed", character.combat.unarmed, "21"))  # Unarmed Combat's damage is 21's
    for name, line, damage_rule in lines:
        key = _unique(_slug(name), found)
        rank = "unranked" if line.rank is None else f"Rank {line.rank}"
        found[f"{key}_strike"] = _number(line.strike_chance, f"{name}: Strike Chance ({rank}, 17.1)")
        roll = strike_roll(line.strike_chance)
        found[f"{key}_strike_roll"] = Attribute(roll.value, f"{name}: {roll.label}", roll.dtype)
        damage = damage_attribute(line.damage, damage_rule)
        found[f"{key}_damage"] = Attribute(damage.value, f"{name}: {damage.label}", damage.dtype)
        found[f"{key}_initiative"] = _number(line.initiative, f"{name}: Initiative (12.3)")
    return found


def strike_roll(strike_chance: int) -> Attribute:
    """17.1: a strike hits on a D100 roll of the Strike Chance or less; the roll counts 1 for a hit."""
    return Attribute(
        f"1d100cs<={strike_chance}", f"strike roll, D100 at {strike_chance} or less (17.1)", "Formula"
    )


def damage_attribute(damage: str, rule: str) -> Attribute:
    """The record's damage, as a roll formula where it is dice and a modifier ("D10+4": "1d10+4")."""
    dice = _DAMAGE.match(damage)
    if dice:
        return Attribute(f"1d{dice.group(1)}{dice.group(2) or ''}", f"damage {damage} ({rule})", "Formula")
    return Attribute(damage, f"damage {damage} ({rule})", "String")


def _abilities(character: Character, tables: Tables) -> Attributes:
    """Skills and languages by Rank; magic by Rank, a talent the race grants marked "racial" (6.4-6.9)."""
    found: Attributes = {}
    shown = zip(character.skills, skill_boxes.skills(character, tables), strict=True)
    for item, row in shown:
        found[_unique(_slug(row.name), found)] = _number(item.rank, f"{row.name} ({row.rule})")
    spoken = zip(character.languages, skill_boxes.languages(character, tables), strict=True)
    for item, row in spoken:
        found[_unique(_slug(row.name), found)] = _number(item.rank, f"{row.name} (49)")
    for magic in skill_boxes.magic(character, tables).rows:
        note = ", ".join(part for part in (magic.kind, magic.rule) if part)
        label = f"{magic.name} ({note})" if note else magic.name
        key = _unique(_slug(magic.name), found)
        if magic.rank.isdigit():
            found[key] = _number(int(magic.rank), label)
        else:
            found[key] = Attribute(magic.rank, label, "String")
    return found


def _slug(text: str) -> str:
    """A key the system accepts: no spaces, no periods."""
    return "_".join(re.findall(r"[a-z0-9]+", text.lower())) or "entry"


def _unique(key: str, taken: Attributes) -> str:
    if not any(name == key or name.startswith(key + "_") for name in taken):
        return key
    number = 2
    while any(name == f"{key}_{number}" or name.startswith(f"{key}_{number}_") for name in taken):
        number += 1
    return f"{key}_{number}"
