"""The Roll20 DragonQuest sheet's character, as the VTT Enhancement Suite imports it.

The sheet's attribute names and <select> values are tables/export_roll20.yaml's, read from the sheet's own
DQSheet.html. Every input the sheet takes is filled where chargen has a value for it; what the sheet's
scripts compute (Initiative base, TMR, Defense, Magic Resistance, Strike Chances, weights, the modified
Agility and Manual Dexterity) is left for them. The VTT Enhancement Suite's fields are those its character
export writes (justas-d/roll20-enhancement-suite, src/tools/CharacterIO.ts), under its third format's
{"schema_version": 3, "type": "character", "character": ...}.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chargen.export import digest
from chargen.export.targets import Roll20Names, roll20_names
from chargen.render import lookup, skill_boxes

if TYPE_CHECKING:
    from chargen.model import Character, WeaponLine
    from chargen.tables import Tables

#: The characters of Roll20's generated ids (its row ids and object ids), in the order of its generator.
ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
ID_LENGTH = 20


def roll20_id(character: Character, *parts: str) -> str:
    """A Roll20-style id (20 characters of its alphabet, led by "-" as its own are), the same for the same
    character and `parts`."""
    seed = digest(character, "roll20", *parts)
    return "-" + "".join(ALPHABET[byte % len(ALPHABET)] for byte in seed[: ID_LENGTH - 1])


@dataclass
class _Attribs:
    character: Character
    rows: list[dict[str, str]] = field(default_factory=list)

    def add(self, name: str, value: object) -> None:
        """One attribute; a value chargen does not have (None) is left out, for the sheet's default."""
        if value is None:
            return
        text = _text(value)
        self.rows.append({"name": name, "current": text, "max": "", "id": roll20_id(self.character, name)})

    def row(self, section: str, index: int, values: dict[str, object]) -> None:
        """One row of a repeating section: repeating_<section>_<row id>_<name> for each value."""
        row_id = roll20_id(self.character, section, str(index))
        for name, value in values.items():
            self.add(f"repeating_{section}_{row_id}_{name}", value)


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def character_json(character: Character, tables: Tables) -> dict[str, Any]:
    names = roll20_names()
    attribs = _Attribs(character)
    _description(attribs, character, tables, names)
    _characteristics(attribs, character)
    _weapons(attribs, character, tables)
    _armor_and_shield(attribs, character, tables)
    _possessions_and_money(attribs, character)
    _magic_and_skills(attribs, character, tables, names)
    race = lookup.race(tables, character.race)
    attribs.add("special", "\n".join(race.abilities))
    attribs.add("exp", character.experience_points)
    attribs.add("exptot", character.experience_points)
    attribs.add("exm", character.experience_multiplier)
    attribs.add("version", names.source.version)
    return {
        "schema_version": 3,
        "type": "character",
        "character": {
            "oldId": roll20_id(character, "character"),
            "name": character.name,
            "avatar": "",
            "bio": _bio(character, tables),
            "gmnotes": _gm_notes(character),
            "defaulttoken": "",
            "tags": "[]",
            "controlledby": "",
            "inplayerjournals": "",
            "attribs": attribs.rows,
            "abilities": [],
        },
    }


def _description(attribs: _Attribs, character: Character, tables: Tables, names: Roll20Names) -> None:
    heritage = character.heritage
    race = lookup.race(tables, character.race)
    tmr = character.modifiers.get("TMR")
    attribs.add("gender", lookup.gender_name(tables, character.gender))
    attribs.add("hand", lookup.hand_name(tables, character.hand))
    attribs.add("race", lookup.race_name(tables, character.race, character.race_type))
    attribs.add("tmrracemod", tmr.race + tmr.gender if tmr else 0)
    attribs.add("aspect", names.aspect.get(character.aspect, lookup.aspect_name(tables, character.aspect)))
    status = heritage.social_status
    attribs.add("status", names.status.get(status, lookup.social_status_name(tables, status)))
    order = heritage.birth_order
    attribs.add("legit", names.legit.get(order, lookup.birth_order_name(tables, order)))
    if heritage.sibling_rank:
        attribs.add("order", lookup.sibling_rank_name(tables, heritage.sibling_rank).lower())
    # IV, 8: a starting age the race gives as one number; a range ("about 31 to 38") stays in the notes
    attribs.add("age", race.starting_age if (race.starting_age or "").isdigit() else None)
    attribs.add("pb", character.characteristics.get("PB"))
    attribs.add("rpnotes", "\n".join(character.notes))


def _characteristics(attribs: _Attribs, character: Character) -> None:
    """The characteristics before armor, shield and load: the sheet takes those off itself."""
    values = character.characteristics
    for code in ("PS", "MD", "AG", "MA", "WP", "PC"):
        attribs.add(code.lower(), values.get(code))
    attribs.add("en", values.EN)
    attribs.add("encurr", values.EN)
    attribs.add("ft", values.FT)
    attribs.add("ftcurr", values.FT)
    attribs.add("wuc-rank", character.unarmed_rank)


def _weapons(attribs: _Attribs, character: Character, tables: Tables) -> None:
    for index, line in enumerate(character.combat.weapons):
        entry = lookup.weapon(tables, line.name, f"combat.weapons[{index}].name")
        attribs.row(
            "weapon",
            index,
            {
                "name": entry.name,
                "rank": line.rank,
                "rankmax": entry.max_rank,
                "num": 1,
                "notes": _weapon_notes(line, entry.damage_note),
                "wgt": entry.weight,
                "base": entry.base_chance,
                "dm": line.damage_modifier,
                "rg": entry.range,
                "ps": entry.ps,
                "md": entry.md,
                "cl": entry.damage_class or "-",
                "user": "R" if "R" in entry.use else None,
                "usem": "M" if "M" in entry.use else None,
                "usec": "C" if "C" in entry.use else None,
                "hand1": "1" if "1" in entry.hands else "0",
                "hand2": "2" if "2" in entry.hands else "0",
            },
        )


def _weapon_notes(line: WeaponLine, damage_note: str | None) -> str:
    """The record's damage for the weapon (20.2; two-handed, and 18.5's when chosen), as the Notes read."""
    parts = [f"Damage {line.damage}"]
    if line.two_handed_damage:
        parts.append(f"{line.two_handed_damage} two-handed")
    if damage_note:
        parts.append(damage_note)
    return "; ".join(parts) + " (20.2)"


def _armor_and_shield(attribs: _Attribs, character: Character, tables: Tables) -> None:
    """The sheet takes the losses as negative numbers (its inputs have max="0")."""
    armor = character.combat.armor
    if armor is not None:
        attribs.row(
            "armour",
            0,
            {
                "type": lookup.armor(tables, armor.name).name,
                "equip": "on",
                "wgt": armor.weight,
                "pro": armor.protection,
                "ag": -armor.agility_loss,
                "sth": armor.stealth_adjustment,
            },
        )
    shield = character.combat.shield
    if shield is not None:
        entry = lookup.shield(tables, shield.name)
        attribs.row(
            "shield",
            0,
            {
                "type": entry.name,
                "equip": "on",
                "rank": shield.rank,
                "wgt": entry.weight,
                "dfpr": shield.defense_per_rank,
                "md": -shield.manual_dexterity_loss,
            },
        )


def _possessions_and_money(attribs: _Attribs, character: Character) -> None:
    for index, gear in enumerate(skill_boxes.gear(character)):
        attribs.row("possession", index, {"name": gear.name, "wgt": gear.pounds})
    attribs.add("cf", 0)
    attribs.add("sp", character.silver_pennies)  # chargen keeps all money in Silver Pennies (8.5)
    attribs.add("gs", 0)
    attribs.add("tg", 0)


def _magic_and_skills(attribs: _Attribs, character: Character, tables: Tables, names: Roll20Names) -> None:
    magic = skill_boxes.magic(character, tables)
    if magic.college:
        attribs.row("college", 0, {"college": magic.college})
    for index, spell in enumerate(magic.rows):
        ritual = "on" if spell.kind.lower() == "ritual" else None
        ranked = spell.rank.isdigit()  # a talent the race grants has no Rank (6.4-6.9)
        note = ", ".join(part for part in (spell.kind, spell.rule, "" if ranked else spell.rank) if part)
        values: dict[str, object] = {"name": spell.name, "rank": spell.rank if ranked else None}
        values.update(desc=note, rit=ritual)
        attribs.row("spell", index, values)
    shown = skill_boxes.skills(character, tables)
    for index, (item, row) in enumerate(zip(character.skills, shown, strict=True)):
        kind = names.skill_type.get(item.name, "adventuring")
        attribs.row("skill", index, {"type": kind, "notes": row.name, "rank": item.rank})
    languages = skill_boxes.languages(character, tables)
    for index, (item, language) in enumerate(zip(character.languages, languages, strict=True)):
        attribs.row(
            "skill", len(shown) + index, {"type": "language", "notes": language.name, "rank": item.rank}
        )


def _bio(character: Character, tables: Tables) -> str:
    """The record's text for the sheet's Bio & Info tab (HTML, as Roll20 keeps it)."""
    from chargen.export.text import record_text_html

    return record_text_html(character, tables)


def _gm_notes(character: Character) -> str:
    import chargen

    seed = f", seed {character.seed}" if character.seed is not None else ""
    return f"Made by chargen {chargen.__version__}{seed}."
