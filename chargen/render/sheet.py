"""The Character Record's view model: every word and number the templates print, built here in Python.

Templates only format. Everything they show comes from the character file (a loaded YAML mapping) or, for
display names, ranges, weights and rule text, from the rules tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chargen.render import lookup
from chargen.render.errors import RenderError
from chargen.render.reading import DASH, Reader, num, pounds, signed, weight

if TYPE_CHECKING:
    from chargen.tables import Tables

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


@dataclass(frozen=True)
class CharacteristicRow:
    code: str
    name: str
    allocated: str
    race: str
    gender: str
    final: str


@dataclass(frozen=True)
class WeaponRow:
    name: str
    rank: str
    strike_chance: str
    damage: str
    two_handed_damage: str  # "" unless a (1-2) weapon (20.2: +1 in two hands)
    initiative: str
    range: str
    damage_class: str
    use: str
    endurance: str
    grievous: str


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
class Sheet:
    name: str
    name_size: str
    subtitle: str
    race: str
    identity: list[Item]
    life_span: str
    abilities: list[str]
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
    combat_notes: list[str]
    notes: list[str]
    footer: list[Item]
    version: str
    page_two_new_page: bool
    blank_lines: dict[str, int] = field(default_factory=dict)


def build_sheet(character: Mapping[str, Any], tables: Tables, version: str) -> Sheet:
    """The view model of one Character Record; a missing field is a RenderError naming it."""
    if not isinstance(character, Mapping):
        raise RenderError(f"a character file must be a mapping, not {type(character).__name__}")
    c = Reader(character)
    race = str(c.get("race"))
    race_type = c.opt("race_type")
    name = str(c.get("name"))
    race_name = lookup.race_name(tables, race, None if race_type is None else str(race_type))
    gender = lookup.gender_name(tables, str(c.get("gender")))
    subtitle = f"{gender} {race_name}"
    combat = c.get("combat")
    if not isinstance(combat, Mapping):
        raise RenderError("character file field combat must be a mapping")
    return Sheet(
        name=name,
        name_size="" if len(name) <= 36 else ("long" if len(name) <= 90 else "very-long"),
        subtitle=subtitle,
        race=race_name,
        identity=_identity(c, tables, race_name, gender),
        life_span=lookup.race(tables, race).life_span or DASH,
        abilities=list(lookup.race(tables, race).abilities),
        characteristics=_characteristics(c, tables),
        movement=[
            Item("TMR unarmored", num(c.get("tmr"))),
            Item("TMR armored", num(c.opt("combat.tmr", c.get("tmr")))),
        ],
        combat=[
            Item("Defense", num(c.get("combat.defense"))),
            Item("Initiative", num(c.get("combat.initiative")), "no weapon"),
            Item("Agility", num(c.get("combat.modified_agility")), "modified"),
            Item("Manual Dexterity", num(c.get("combat.modified_manual_dexterity")), "modified"),
        ],
        stun=[
            Item("Stun threshold", num(c.get("combat.stun_threshold")), "damage from one strike that Stuns"),
            Item("Stun recovery", num(c.get("combat.stun_recovery")), "2 \u00d7 WP + FT"),
            Item("Breakage / drop", num(c.get("combat.breakage_check")), "3 \u00d7 modified MD"),
        ],
        weapons=[_weapon(c, tables, i) for i in range(len(c.list("combat.weapons")))],
        unarmed=_unarmed(c),
        armor=_armor(c, tables),
        shield=_shield(c, tables),
        aspect=_aspect(tables, str(c.get("aspect"))),
        experience=_experience(c),
        carried=(carried := _carried(c, tables)),
        carried_total=_total_weight(carried),
        combat_notes=[str(n) for n in (c.opt("combat.fatigue_note"),) if n],
        notes=[str(n) for n in c.list("notes")],
        footer=_footer(c, version),
        version=version,
        # A front page that already spills over (many weapons, a very long name) runs straight on.
        page_two_new_page=len(c.list("combat.weapons")) <= 6 and len(name) <= 90,
        blank_lines={"skills": 11, "magic": 8, "languages": 4, "notes": 4, "wounds": 5, "carried": 2},
    )


def _identity(c: Reader, tables: Tables, race_name: str, gender: str) -> list[Item]:
    birth = lookup.birth_order_name(tables, str(c.get("heritage.birth_order")))
    sibling = c.opt("heritage.sibling_rank")
    if sibling:
        birth = f"{birth}, {lookup.sibling_rank_name(tables, str(sibling)).lower()} of the children"
    return [
        Item("Race", race_name),
        Item("Gender", gender),
        Item("Primary hand", lookup.hand_name(tables, str(c.get("hand")))),
        Item("Aspect", lookup.aspect_name(tables, str(c.get("aspect")))),
        Item("Social status", lookup.social_status_name(tables, str(c.get("heritage.social_status")))),
        Item("Order of birth", birth),
    ]


def _characteristics(c: Reader, tables: Tables) -> list[CharacteristicRow]:
    final = c.get("characteristics")
    if not isinstance(final, Mapping):
        raise RenderError("character file field characteristics must be a mapping")
    names = list(CHARACTERISTICS) + lookup.optional_characteristics(tables)
    rows = []
    for code, label in names:
        if code not in final:
            if any(code == known for known, _ in CHARACTERISTICS):
                raise RenderError(f"character file has no characteristics.{code}")
            continue
        allocated = c.opt(f"allocation.{code}")
        rows.append(
            CharacteristicRow(
                code=code,
                name=label,
                allocated=DASH if allocated is None else num(allocated),
                race=signed(c.opt(f"modifiers.{code}.race")),
                gender=signed(c.opt(f"modifiers.{code}.gender")),
                final=num(final[code]),
            )
        )
    return rows


def _weapon(c: Reader, tables: Tables, index: int) -> WeaponRow:
    path = f"combat.weapons.{index}"
    entry = lookup.weapon(tables, str(c.get(f"{path}.name")), f"combat.weapons[{index}].name")
    rank = c.opt(f"{path}.rank")
    return WeaponRow(
        name=entry.name,
        rank="unranked" if rank is None else num(rank),
        strike_chance=num(c.get(f"{path}.strike_chance")),
        damage=str(c.get(f"{path}.damage")),
        two_handed_damage=str(c.opt(f"{path}.two_handed_damage", "")),
        initiative=num(c.get(f"{path}.initiative")),
        range=DASH if entry.range is None else num(entry.range),
        damage_class=entry.damage_class or DASH,
        use=entry.use,
        endurance=str(c.opt(f"{path}.endurance_damage", DASH)),
        grievous=str(c.opt(f"{path}.grievous_injury", DASH)),
    )


def _unarmed(c: Reader) -> WeaponRow:
    return WeaponRow(
        name="Unarmed",
        rank=num(c.opt("combat.unarmed.rank", c.opt("unarmed_rank", "unranked"))),
        strike_chance=num(c.get("combat.unarmed.strike_chance")),
        damage=str(c.get("combat.unarmed.damage")),
        two_handed_damage="",
        initiative=num(c.opt("combat.unarmed.initiative", c.get("combat.initiative"))),
        range=str(c.opt("combat.unarmed.range", DASH)),
        damage_class=str(c.opt("combat.unarmed.damage_class", DASH)),
        use=str(c.opt("combat.unarmed.use", "C")),
        endurance=str(c.opt("combat.unarmed.endurance_damage", DASH)),
        grievous=str(c.opt("combat.unarmed.grievous_injury", DASH)),
    )


def _armor(c: Reader, tables: Tables) -> list[Item]:
    if c.opt("combat.armor") is None:
        return [Item("Armor", "none")]
    armor_id = str(c.get("combat.armor.name"))
    stealth = c.opt("combat.armor.stealth_adjustment", 0)
    return [
        Item("Armor", lookup.armor(tables, armor_id).name),
        Item("Protection", num(c.get("combat.armor.protection"))),
        Item("Agility loss", num(c.opt("combat.armor.agility_loss", 0))),
        Item("Stealth", signed(stealth) if stealth else "no change"),
    ]


def _shield(c: Reader, tables: Tables) -> list[Item]:
    if c.opt("combat.shield") is None:
        return [Item("Shield", "none")]
    shield_id = str(c.get("combat.shield.name"))
    rank = c.opt("combat.shield.rank")
    items = [
        Item("Shield", lookup.shield(tables, shield_id).name),
        Item("Rank", "unranked" if rank is None else num(rank)),
        Item("Defense per Rank", num(c.get("combat.shield.defense_per_rank"))),
    ]
    loss = c.opt("combat.shield.manual_dexterity_loss")
    if loss is not None:
        items.append(Item("MD loss", num(loss)))
    return items


def _aspect(tables: Tables, aspect_id: str) -> Aspect:
    effects = lookup.aspect_effects(tables, aspect_id)
    return Aspect(
        name=lookup.aspect_name(tables, aspect_id),
        rule=effects.rule,
        window=effects.window,
        note=effects.note,
        rows=[EffectRow(when, signed(effect)) for when, effect in effects.rows],
    )


def _experience(c: Reader) -> list[Item]:
    multiplier = c.opt("experience_multiplier")
    return [
        Item("Experience Points", num(c.get("experience_points"))),
        Item("Experience multiplier", DASH if multiplier is None else f"\u00d7{num(multiplier)}"),
        Item("Silver Pennies", num(c.get("silver_pennies"))),
        Item("Starting silver", num(c.opt("starting_silver", DASH))),
    ]


def _carried(c: Reader, tables: Tables) -> list[CarriedRow]:
    rows = []
    for index, weapon in enumerate(c.list("weapons")):
        weapon_id = weapon.get("name") if isinstance(weapon, Mapping) else weapon
        if not weapon_id:
            raise RenderError(f"character file field weapons[{index}] has no name")
        entry = lookup.weapon(tables, str(weapon_id), f"weapons[{index}].name")
        shown = entry.weight_text or weight(entry.weight)
        rows.append(CarriedRow(entry.name, shown, entry.weight))
    if c.opt("combat.armor") is not None:
        armor = lookup.armor(tables, str(c.get("combat.armor.name")))
        lb = c.opt("combat.armor.weight", armor.weight)
        rows.append(CarriedRow(armor.name, weight(lb), pounds(lb)))
    if c.opt("combat.shield") is not None:
        shield = lookup.shield(tables, str(c.get("combat.shield.name")))
        lb = c.opt("combat.shield.weight", shield.weight)
        rows.append(CarriedRow(shield.name, weight(lb), pounds(lb)))
    for index, item in enumerate(c.list("equipment")):
        if isinstance(item, Mapping):
            if not item.get("name"):
                raise RenderError(f"character file field equipment[{index}] has no name")
            label = str(item["name"])
            quantity = item.get("quantity")
            if quantity not in (None, 1):
                label = f"{label} \u00d7{num(quantity)}"
            rows.append(CarriedRow(label, weight(item.get("weight")), pounds(item.get("weight"))))
        else:
            rows.append(CarriedRow(str(item), DASH))
    return rows


def _total_weight(rows: list[CarriedRow]) -> str:
    total = sum(row.pounds for row in rows if row.pounds is not None)
    return weight(round(total, 1))


def _footer(c: Reader, version: str) -> list[Item]:
    items = [Item("chargen", version)]
    for key, label in (("seed", "seed"), ("strategy", "strategy")):
        value = c.opt(key)
        if value is not None:
            items.append(Item(label, str(value)))
    rolls = c.opt("rolls", {})
    if isinstance(rolls, Mapping) and rolls:
        parts = []
        for key, value in rolls.items():
            shown = "/".join(str(v) for v in value) if isinstance(value, list) else str(value)
            parts.append(f"{key} {shown}")
        items.append(Item("rolls", " \u00b7 ".join(parts)))
    return items
