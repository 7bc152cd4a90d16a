"""The Foundry actor's Items: one Simple Worldbuilding `item` (template.json's Item type, with its
`description`, `quantity`, `weight`, `attributes` and `groups`) per weapon, the armor, the shield, each
piece of equipment, skill, language, talent, spell and ritual, so that each can be dragged, equipped and
rolled from the actor's item list. Each item's attributes sit in one group named for its kind; the rule
numbers are the record's (17.1 Strike Chance, 20.2 damage, 21 Unarmed Combat, 12.3 Initiative, 18.1
armor, 17.5 shield)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING

from chargen.export import digest
from chargen.export.foundry import ID_CHARACTERS, Attribute, Attributes, damage_attribute, strike_roll
from chargen.render import lookup, skill_boxes

if TYPE_CHECKING:
    from chargen.model import Character, DocumentValue, WeaponLine
    from chargen.tables import Tables

#: Foundry's own picture for an item.
ITEM_IMAGE = "icons/svg/item-bag.svg"
#: Each kind of item: its group's label, as the item sheet shows it.
KINDS = {
    "weapon": "Weapon",
    "armor": "Armor",
    "shield": "Shield",
    "equipment": "Equipment",
    "skill": "Skill",
    "language": "Language",
    "magic": "Magic",
}


@dataclass(frozen=True)
class Made:
    """One item before it is a document."""

    kind: str  # a key of KINDS
    name: str
    attributes: Attributes = field(default_factory=dict)
    description: str = ""  # HTML, escaped
    quantity: int = 1
    weight: float = 0  # pounds

    def document(self, character: Character, index: int) -> DocumentValue:
        seed = digest(character, "foundry", "item", str(index))
        group = {self.kind: {key: entry.document(self.kind) for key, entry in self.attributes.items()}}
        system: dict[str, DocumentValue] = {
            "description": self.description,
            "quantity": self.quantity,
            "weight": self.weight,
            "attributes": dict(group),
            "groups": {self.kind: {"key": self.kind, "label": KINDS[self.kind], "dtype": "Number"}},
        }
        return {
            "_id": "".join(ID_CHARACTERS[byte % len(ID_CHARACTERS)] for byte in seed[:16]),
            "name": self.name,
            "type": "item",
            "img": ITEM_IMAGE,
            "system": system,
            "effects": [],
            "flags": {"chargen": {"kind": self.kind}},
        }


def items(character: Character, tables: Tables) -> list[DocumentValue]:
    """Every Item of the actor, in the record's order."""
    made = [*_weapons(character, tables), *_armor_and_shield(character, tables), *_equipment(character)]
    made += _abilities(character, tables)
    return [item.document(character, index) for index, item in enumerate(made)]


def _weapons(character: Character, tables: Tables) -> list[Made]:
    found: list[Made] = []
    for index, line in enumerate(character.combat.weapons):
        entry = lookup.weapon(tables, line.name, f"combat.weapons[{index}].name")
        attributes = _weapon_line(entry.name, line)
        if entry.ps is not None:
            attributes["ps_needed"] = Attribute(entry.ps, "Physical Strength needed (20.2)")
        if entry.md is not None:
            attributes["md_needed"] = Attribute(entry.md, "Manual Dexterity needed (17.1)")
        notes = [f"Damage {escape(line.damage)} (20.2)"]
        if line.two_handed_damage:
            notes.append(f"{escape(line.two_handed_damage)} two-handed (20.2)")
        if entry.damage_note:
            notes.append(escape(entry.damage_note))
        description = "<p>" + "; ".join(notes) + "</p>"
        found.append(Made("weapon", entry.name, attributes, description, weight=entry.weight or 0))
    return found


def _weapon_line(name: str, line: WeaponLine) -> Attributes:
    rank = "unranked" if line.rank is None else f"Rank {line.rank}"
    return {
        "strike_chance": Attribute(line.strike_chance, f"Strike Chance ({rank}, 17.1)"),
        "strike_roll": strike_roll(line.strike_chance),
        "damage": damage_attribute(line.damage, "20.2"),
        "initiative": Attribute(line.initiative, "Initiative (12.3)"),
        "rank": Attribute(line.rank, "Rank")
        if line.rank is not None
        else Attribute("unranked", "Rank", "String"),
    }


def _armor_and_shield(character: Character, tables: Tables) -> list[Made]:
    found: list[Made] = []
    armor = character.combat.armor
    if armor is not None:
        attributes = {
            "protection": Attribute(armor.protection, "Protection (18.1)"),
            "agility_loss": Attribute(-armor.agility_loss, "Agility (18.1)"),
            "stealth": Attribute(armor.stealth_adjustment, "Stealth (18.1)"),
        }
        name = lookup.armor(tables, armor.name).name
        found.append(Made("armor", name, attributes, weight=armor.weight))
    shield = character.combat.shield
    if shield is not None:
        entry = lookup.shield(tables, shield.name)
        rank = shield.rank or 0
        attributes = {
            "defense": Attribute(shield.defense_per_rank * rank, "Defense (17.5)"),
            "defense_per_rank": Attribute(shield.defense_per_rank, "Defense per Rank (17.5)"),
            "rank": Attribute(rank, "Rank"),
            "md_loss": Attribute(-shield.manual_dexterity_loss, "Manual Dexterity (17.5)"),
        }
        found.append(Made("shield", entry.name, attributes, weight=entry.weight or 0))
    return found


def _equipment(character: Character) -> list[Made]:
    return [
        Made("equipment", gear.name, quantity=gear.count, weight=gear.weight or 0)
        for gear in character.equipment
    ]


def _abilities(character: Character, tables: Tables) -> list[Made]:
    """Skills and languages by Rank, with the record's rule; magic by Rank, a talent the race grants by
    what the record prints in its place (6.4-6.9)."""
    found: list[Made] = []
    for item, row in zip(character.skills, skill_boxes.skills(character, tables), strict=True):
        found.append(Made("skill", row.name, {"rank": Attribute(item.rank, f"Rank ({row.rule})")}))
    for item, row in zip(character.languages, skill_boxes.languages(character, tables), strict=True):
        found.append(Made("language", row.name, {"rank": Attribute(item.rank, "Rank (49)")}))
    for magic in skill_boxes.magic(character, tables).rows:
        note = ", ".join(part for part in (magic.kind, magic.rule) if part)
        rank = (
            Attribute(int(magic.rank), f"Rank ({note})")
            if magic.rank.isdigit()
            else Attribute(magic.rank, f"Rank ({note})", "String")
        )
        found.append(Made("magic", magic.name, {"rank": rank}, f"<p>{escape(note)}</p>" if note else ""))
    return found
