"""The Roll20 DragonQuest sheet's character, as the VTT Enhancement Suite imports it.

The sheet's attribute names and <select> values are tables/export_roll20.yaml's, read from the sheet's own
DQSheet.html. The suite writes every attribute silently (its importer sets them with `silent: true`), so
the sheet's scripts do not run on import: every input the sheet takes is filled where chargen has a value,
and so is every value the sheet shows, with chargen's own figures (chargen.export.roll20_shown), so that
the sheet shows the record's numbers as it arrives. The suite's fields are those its character export
writes (justas-d/roll20-enhancement-suite, src/tools/CharacterIO.ts), under its third format's
{"schema_version": 3, "type": "character", "character": ...}.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from chargen.export import digest
from chargen.export.roll20_shown import (
    armour_shown,
    character_shown,
    description_shown,
    load_note,
    shield_shown,
    spell_shown,
    weapon_shown,
)
from chargen.export.targets import Roll20Names, roll20_names
from chargen.render import lookup, skill_boxes
from chargen.values.added import shown_added

if TYPE_CHECKING:
    from chargen.model import Character, Document, DocumentValue, WeaponLine
    from chargen.tables import Tables

#: The characters of a row id after its leading "-": no "_", which Roll20 and the sheet's scripts split
#: attribute names on, and lower case, as Roll20 keeps a repeating row's id in its attribute names.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
ID_LENGTH = 20


def roll20_id(character: Character, *parts: str) -> str:
    """A Roll20-style id (20 characters, led by "-" as its own are), the same for the same character and
    `parts`."""
    seed = digest(character, "roll20", *parts)
    return "-" + "".join(ALPHABET[byte % len(ALPHABET)] for byte in seed[: ID_LENGTH - 1])


#: Roll20's roll syntax in text: a roll template's fields ({{...}}), inline rolls ([[...]]) and references to
#: attributes, abilities and macros (@{, %{, &{). Text the sheet's roll buttons put in a template (a spell's
#: name, a possession's, a language's notes) must not open one: each pair gets a space between.
ROLL_SYNTAX = ("{{", "}}", "[[", "]]", "@{", "%{", "&{")


def roll_safe(text: str) -> str:
    """`text` with no roll syntax left, still readable: "}} {{SC=[[99]]" becomes "} } { {SC=[ [99] ]"."""
    while any(pair in text for pair in ROLL_SYNTAX):
        for pair in ROLL_SYNTAX:
            text = text.replace(pair, f"{pair[0]} {pair[1]}")
    return text


@dataclass
class _Attribs:
    character: Character
    rows: list[DocumentValue] = field(default_factory=list)
    #: Each repeating section's row ids, in the record's order (Roll20 sorts a section's rows by its
    #: `_reporder_repeating_<section>` where there is one, else by id, which is a hash).
    order: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, value: object) -> None:
        """One attribute; a value chargen does not have (None) is left out, for the sheet's default.
        Every text is made roll-safe: any of them may reach a roll template."""
        if value is None:
            return
        text = roll_safe(_text(value))
        self.rows.append({"name": name, "current": text, "max": "", "id": roll20_id(self.character, name)})

    def add_row_orders(self) -> None:
        for section, ids in self.order.items():
            self.add(f"_reporder_repeating_{section}", ",".join(ids))

    def update(self, values: dict[str, object]) -> None:
        for name, value in values.items():
            self.add(name, value)

    def row(self, section: str, index: int, values: dict[str, object]) -> None:
        """One row of a repeating section: repeating_<section>_<row id>_<name> for each value."""
        row_id = roll20_id(self.character, section, str(index))
        self.order.setdefault(section, []).append(row_id)
        for name, value in values.items():
            self.add(f"repeating_{section}_{row_id}_{name}", value)


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def character_json(character: Character, tables: Tables) -> Document:
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
    # the sheet's "Current experience": the bank to spend (8.6), left out (the sheet's default) when unknown
    attribs.add("exp", skill_boxes.bank_points(character))
    # the sheet's "Total experience": 8.5's for a new character; a played one's, or one's as it stands, in
    # all (12)
    total = character.experience_total if character.history or character.standing else None
    attribs.add("exptot", character.experience_points if total is None else total)
    attribs.add("exm", character.experience_multiplier)
    attribs.add("version", names.source.version)
    attribs.update(character_shown(character, tables))
    attribs.add_row_orders()
    return {
        "schema_version": 3,
        "type": "character",
        "character": {
            "oldId": roll20_id(character, "character"),
            "name": roll_safe(character.name),
            "avatar": "",
            "bio": _bio(character, tables),
            "gmnotes": _gm_notes(character, tables),
            "defaulttoken": "",
            "tags": "[]",
            "controlledby": "",
            "inplayerjournals": "",
            "attribs": attribs.rows,
            "abilities": [],
        },
    }


def _description(attribs: _Attribs, character: Character, tables: Tables, names: Roll20Names) -> None:
    race = lookup.race(tables, character.race)
    tmr = character.modifiers.get("TMR")
    inputs: dict[str, object] = {
        "gender": lookup.gender_name(tables, character.gender),
        "hand": lookup.hand_name(tables, character.hand),
        "race": lookup.race_name(tables, character.race, character.race_type),
        "tmrracemod": tmr.race + tmr.gender if tmr else 0,
        "aspect": _aspect(character, tables, names),
        **_heritage(character, tables, names),
        # IV, 8: a starting age the race gives as one number; a range ("about 31 to 38") stays in the Bio
        "age": race.starting_age if (race.starting_age or "").isdigit() else None,
        "pb": character.characteristics.get("PB"),
        "rpnotes": "\n".join(character.notes),
    }
    attribs.update(inputs)
    attribs.update(description_shown(inputs))


def _aspect(character: Character, tables: Tables, names: Roll20Names) -> str | None:
    aspect = character.aspect
    return None if aspect is None else names.aspect.get(aspect, lookup.aspect_name(tables, aspect))


def _heritage(character: Character, tables: Tables, names: Roll20Names) -> dict[str, object]:
    """8.1-8.4 as the sheet's selects name them; none for a character as it stands (not known)."""
    heritage = character.heritage
    if heritage is None:
        return {"status": None, "legit": None, "order": None}
    rank = heritage.sibling_rank
    return {
        "status": names.status.get(
            heritage.social_status, lookup.social_status_name(tables, heritage.social_status)
        ),
        "legit": names.legit.get(heritage.birth_order, lookup.birth_order_name(tables, heritage.birth_order)),
        "order": lookup.sibling_rank_name(tables, rank).lower() if rank else None,
    }


def _characteristics(attribs: _Attribs, character: Character) -> None:
    """The characteristics before armor, shield and load: the sheet keeps the modified ones apart."""
    values = character.characteristics
    for code in ("PS", "MD", "AG", "MA", "WP", "PC"):
        attribs.add(code.lower(), values.get(code))
    attribs.update({"en": values.EN, "encurr": values.EN, "ft": values.FT, "ftcurr": values.FT})
    attribs.add("wuc-rank", character.unarmed_rank)


def _weapons(attribs: _Attribs, character: Character, tables: Tables) -> None:
    for index, line in enumerate(character.combat.weapons):
        entry = lookup.weapon(tables, line.name, f"combat.weapons[{index}].name")
        inputs: dict[str, object] = {
            "name": entry.name,
            # "" for an unranked weapon: the sheet reads it as no Rank (Base Chance alone, 17.1) and as 0
            # for Initiative (12.3), where a missing rank leaves the weapon's Initiative unset
            "rank": "" if line.rank is None else line.rank,
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
            "user": "R" if "R" in entry.use else "0",
            "usem": "M" if "M" in entry.use else "0",
            "usec": "C" if "C" in entry.use else "0",
            "hand1": "1" if "1" in entry.hands else "0",
            "hand2": "2" if "2" in entry.hands else "0",
        }
        attribs.row("weapon", index, inputs | weapon_shown(line, inputs))


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
        inputs: dict[str, object] = {
            "type": lookup.armor(tables, armor.name).name,
            "equip": "on",
            "wgt": armor.weight,
            "pro": armor.protection,
            "ag": -armor.agility_loss,
            "sth": armor.stealth_adjustment,
        }
        attribs.row("armour", 0, inputs | armour_shown(inputs))
    shield = character.combat.shield
    if shield is not None:
        entry = lookup.shield(tables, shield.name)
        inputs = {
            "type": entry.name,
            "equip": "on",
            "rank": shield.rank if shield.rank is not None else 0,
            "wgt": entry.weight,
            "dfpr": shield.defense_per_rank,
            "md": -shield.manual_dexterity_loss,
        }
        attribs.row("shield", 0, inputs | shield_shown(inputs))


def _possessions_and_money(attribs: _Attribs, character: Character) -> None:
    for index, gear in enumerate(skill_boxes.gear(character)):
        attribs.row("possession", index, {"name": gear.name, "wgt": gear.pounds})
    # chargen keeps all money in Silver Pennies (8.5)
    attribs.update({"cf": 0, "sp": character.silver_pennies, "gs": 0, "tg": 0})


def _magic_and_skills(attribs: _Attribs, character: Character, tables: Tables, names: Roll20Names) -> None:
    magic = skill_boxes.magic(character, tables)
    if magic.college:
        attribs.row("college", 0, {"college": magic.college})
    for index, spell in enumerate(magic.rows):
        ranked = spell.rank.isdigit()  # a talent the race grants has no Rank (6.4-6.9)
        where = f"{magic.college} ({magic.college_rule})" if magic.college else ""
        parts = (spell.kind, spell.rule, where, "" if ranked else spell.rank, *spell.columns)
        inputs: dict[str, object] = {
            "name": spell.name,
            "rank": spell.rank if ranked else None,
            "desc": "; ".join(part for part in parts if part),
            "rit": "on" if spell.kind.lower() == "ritual" else "0",
        }
        attribs.row("spell", index, inputs | spell_shown(inputs))
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


def _gm_notes(character: Character, tables: Tables) -> str:
    import chargen

    seed = f", seed {character.seed}" if character.seed is not None else ""
    # a ruleset's own values: the sheet has no attribute for them
    added = "".join(
        f" {label} {'—' if value is None else value} ({rule})."
        for _, label, value, rule in shown_added(character, tables)
    )
    unwritten = " ".join(_unwritten(character, tables))
    notes = f"{load_note(character, tables)}{roll_safe(added)} {unwritten}"
    return f"Made by chargen {chargen.__version__}{seed}. {notes}"


def _unwritten(character: Character, tables: Tables) -> list[str]:
    """What the sheet shows by its own default where chargen writes nothing, said in the GM's words."""
    race = lookup.race(tables, character.race)
    notes = []
    if not (race.starting_age or "").isdigit():
        age = race.starting_age or "none given"
        notes.append(
            f"Age: the race's starting age is {age} (IV, 8); the sheet's reads 0 until you type one."
        )
    notes.append(
        "Magic Resistance: not in chargen's tables (Book Two); the sheet works it out once WP is retyped."
    )
    talents = [row.name for row in skill_boxes.magic(character, tables).rows if not row.rank.isdigit()]
    if talents:
        notes.append(f"Granted by the race, without a Rank (6.4-6.9): {', '.join(talents)}.")
    for line in character.combat.weapons:
        if line.damage_modifier is None:
            name = lookup.weapon(tables, line.name, "").name
            notes.append(f"{name}: no damage modifier; its damage is {line.damage} (20.2), in its notes.")
    return [roll_safe(note) for note in notes]
