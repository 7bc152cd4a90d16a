"""What a character holds ready when its Defense is read (17.5, 20): the shield that counts, if any.

The record has one Defense, read with the first weapon listed in hand (the prepared one, as the house
rules' Defensive Values read it too). A two-handed first weapon leaves no hand for a shield (20), so a
carried shield then counts nowhere in Defense and a note gives the Defense with it instead. A Main-Gauche
"functions both as a weapon and a shield" (17.5's note): carried at a Rank with no other shield, it counts
as the shield at that Rank (17.6's White Mouser: modified Agility 18, Main-Gauche Rank 2, Defense 22)."""

from __future__ import annotations

from chargen.character_file import Item
from chargen.generation.equipment import Equipment
from chargen.rules import combat as rules
from chargen.tables import Tables
from chargen.tables.schema import Shield, Weapon

#: (the shield chart entry, its id, the Rank it counts at), or nothing ready.
Ready = tuple[Shield | None, str | None, int | None]
NOTHING: Ready = (None, None, None)


def two_handed_first(equipment: Equipment, tables: Tables) -> bool:
    first = equipment.weapons[0] if equipment.weapons else None
    return first is not None and tables.weapons[first.name].hands == "2"


def ready_shield(equipment: Equipment, tables: Tables) -> Ready:
    """The shield Defense counts: the one carried, unless a two-handed first weapon fills both hands;
    else a ranked weapon that is also a shield (the Main-Gauche)."""
    if two_handed_first(equipment, tables):
        return NOTHING  # 20: "a prepared shield ... disallows a two-handed weapon"
    if equipment.shield is not None:
        shield_id = equipment.shield.name
        return tables.shields.get(shield_id), shield_id, equipment.shield.rank
    for item in equipment.weapons:
        twin = tables.weapons[item.name].shield
        if twin is not None and item.rank is not None and twin in tables.shields:
            return tables.shields[twin], twin, item.rank  # 17.5 note: weapon and shield, one Rank
    return NOTHING


def held_weapon(
    equipment: Equipment, tables: Tables, *, one_handed: bool = False
) -> tuple[Weapon | None, int | None]:
    """The weapon a house rule's Defensive Value reads: the first listed (or the first one-handed one)."""
    for item in equipment.weapons:
        weapon = tables.weapons[item.name]
        if not one_handed or weapon.hands != "2":
            return weapon, item.rank
    return None, None


def defense_notes(
    equipment: Equipment, agility: int, defense: int | None, tables: Tables, known: rules.Known
) -> list[str]:
    """The record's word on a shield carried with a two-handed first weapon: Defense as each is held."""
    shield_item: Item | None = equipment.shield
    if (
        shield_item is None
        or not two_handed_first(equipment, tables)
        or shield_item.name not in tables.shields
    ):
        return []
    shield = tables.shields[shield_item.name]
    first = tables.weapons[equipment.weapons[0].name]
    with_shield = defense_with_shield(equipment, shield_item, agility, tables, known)
    shown = "—" if defense is None else str(defense)
    other = "—" if with_shield is None else str(with_shield)
    return [
        f"Defense {shown} is with the {first.name} in both hands, the {shield.name} slung (20); "
        f"with the {shield.name} and a one-handed weapon it is {other} (17.5)."
    ]


def defense_with_shield(
    equipment: Equipment, shield_item: Item, agility: int, tables: Tables, known: rules.Known
) -> int | None:
    """17.5: Defense with the carried shield prepared and the first one-handed weapon in hand."""
    inputs = rules.defense_inputs(
        agility,
        tables.shields[shield_item.name],
        shield_item.rank,
        *held_weapon(equipment, tables, one_handed=True),
        fallback=tables.combat.defense.defensive_modifier_fallback,
    )
    return rules.defense_from(inputs, tables.combat, known)
