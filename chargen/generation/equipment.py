"""Step 8.7: arms and armor chosen for a rolled character (bought, within its purse) or an NPC (given, at its
archetype's typical Ranks), each kit made once for the values that decide it. What a kit may hold and what
it costs are chargen.generation.equipment_check."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from chargen.character_file import Item
from chargen.errors import InputError, Problem

# Named `as` themselves: exported from here too (pipeline, held and variety import them from this module).
from chargen.generation.equipment_check import Equipment as Equipment
from chargen.generation.equipment_check import check_equipment as check_equipment
from chargen.generation.equipment_check import equipment_cost as equipment_cost
from chargen.generation.equipment_check import rank_problem as rank_problem
from chargen.rules.combat import armor_cost
from chargen.tables import Tables
from chargen.tables.memo import per_tables
from chargen.tables.schema import Archetype, ArchetypeItem, Race, Weapon

T = TypeVar("T")

#: Items chargen chose from its own checked tables, made once each (an Item is never changed once made).
_ITEMS: dict[tuple[str, int | None], Item] = {}


def _item(name: str, rank: int | None = None) -> Item:
    item = _ITEMS.get((name, rank))
    if item is None:
        item = _ITEMS[name, rank] = Item(name=name, rank=rank)
    return item


def kept_item(name: str, rank: int | None = None) -> Item:
    """An Item chargen chose from its own checked tables: made once for each name and Rank, kept for good."""
    return _item(name, rank)


def _meets(weapon: Weapon, stats: Mapping[str, int]) -> bool:
    return stats["PS"] >= weapon.ps and stats["MD"] >= weapon.md


def weapon_order(archetype: Archetype, stats: Mapping[str, int], tables: Tables) -> list[ArchetypeItem]:
    """The archetype's weapons in its order of preference, the first one the character may hold a Rank in
    (20.2; the one its 5.2 allocation aimed at) moved to the front."""
    items = archetype.weapons
    for item in items:
        weapon = tables.weapons[item.name]
        if weapon.max_rank is not None and _meets(weapon, stats):
            return items if item is items[0] else [item, *(other for other in items if other is not item)]
    return items


def preferred_load(
    candidates: Sequence[T],
    loss: Callable[[T], int],
    value: int,
    keep: int,
    price: Callable[[T], int],
    left: int,
    tables: Tables,
) -> T | None:
    """The first affordable candidate whose `loss` (Agility for armor, 18.1; Manual Dexterity for a shield,
    17.5) is at most `value` / load_divisor (tables/archetypes.yaml) and leaves `value` at `keep` or more;
    else the affordable one losing least."""
    divisor = tables.archetype_file.load_divisor
    affordable = [candidate for candidate in candidates if price(candidate) <= left]
    for candidate in affordable:
        lost = loss(candidate)
        if lost * divisor <= value and value - lost >= keep:
            return candidate
    return min(affordable, key=loss, default=None)


@dataclass(frozen=True)
class BoughtKit:
    """A bought kit, its price at the charts and what `check_equipment` finds wrong with it (nothing for the
    book's archetypes; pricing, nothing: only priced items are bought). Unranked, so for any PS and MD."""

    equipment: Equipment
    cost: int
    problems: tuple[Problem, ...]


def bought_equipment(
    archetype_id: str, stats: Mapping[str, int], purse: int, race: Race, tables: Tables
) -> Equipment:
    """A rolled character's kit: its archetype's preferences it can wield and afford, unranked (Ranks cost
    Experience). First the weapon its allocation aimed at, then armor, then a shield if the weapon leaves a hand
    free, then more weapons; never a weapon below whose PS or MD it falls (20.2)."""
    return bought_kit(archetype_id, stats, purse, race, tables).equipment


def _bought_key(
    archetype_id: str, stats: Mapping[str, int], purse: int, race: Race, tables: Tables
) -> tuple[str, int, int, int, int, int]:
    """The values a bought kit depends on, each cut where more changes nothing (`_deciding_values`,
    `_whole_kit_price`): a batch buys thousands of kits from a few thousand such keys."""
    strength, dexterity, agility, price = _bought_limits(archetype_id, race.size, tables)
    return (
        archetype_id,
        race.size,
        min(stats["PS"], strength),
        min(stats["MD"], dexterity),
        min(stats["AG"], agility),
        min(purse, price),
    )


@per_tables(65536, key=_bought_key)
def bought_kit(
    archetype_id: str, stats: Mapping[str, int], purse: int, race: Race, tables: Tables
) -> BoughtKit:
    """`bought_equipment`, checked and priced when first made for these deciding values."""
    archetype = tables.archetypes[archetype_id]
    equipment = _bought_equipment(archetype, stats, purse, race, tables)
    cost, cost_problems = equipment_cost(equipment, race, tables)
    problems = check_equipment(equipment, stats, tables) or cost_problems
    return BoughtKit(equipment, cost, tuple(problems))


@per_tables(1024)
def _bought_limits(archetype_id: str, size: int, tables: Tables) -> tuple[int, int, int, int]:
    """The PS, MD and AG past which a kit is the same (`_deciding_values`) and its whole price."""
    archetype = tables.archetypes[archetype_id]
    return (*_deciding_values(archetype, tables), _whole_kit_price(archetype, size, tables))


def _whole_kit_price(archetype: Archetype, size: int, tables: Tables) -> int:
    """What every weapon, the dearest armor and the dearest shield the archetype lists cost together: with
    this much or more, every price check `_bought_equipment` makes passes."""
    weapons = sum(tables.weapons[item.name].cost or 0 for item in archetype.weapons)
    human_size = tables.armor_file.human_size
    armor = max((armor_cost(tables.armor[name], size, human_size) for name in archetype.armor), default=0)
    shield = max((tables.shields[item.name].cost for item in archetype.shield), default=0)
    return weapons + armor + shield


def _bought_equipment(
    archetype: Archetype, stats: Mapping[str, int], purse: int, race: Race, tables: Tables
) -> Equipment:
    usable: list[tuple[str, int]] = []
    for item in weapon_order(archetype, stats, tables):
        weapon = tables.weapons[item.name]
        if weapon.cost is not None and _meets(weapon, stats):
            usable.append((item.name, weapon.cost))
    left = purse
    weapons: list[Item] = []
    first = next(((name, cost) for name, cost in usable if cost <= left), None)
    if first is not None:
        weapons.append(_item(first[0]))
        left -= first[1]
    armor = preferred_load(
        archetype.armor,
        lambda name: tables.armor[name].agility_loss,
        stats["AG"],
        0,
        lambda name: armor_cost(tables.armor[name], race.size, tables.armor_file.human_size),
        left,
        tables,
    )
    if armor is not None:
        left -= armor_cost(tables.armor[armor], race.size, tables.armor_file.human_size)
    shield = None
    lead = tables.weapons[first[0]] if first is not None else None
    if lead is None or lead.hands != "2":
        shield = _shield(archetype, stats, lead, left, tables)
        left -= tables.shields[shield.name].cost if shield is not None else 0
    for name, cost in usable:
        if len(weapons) >= tables.archetype_file.weapons_bought:
            break
        if all(item.name != name for item in weapons) and cost <= left:
            weapons.append(_item(name))
            left -= cost
    return Equipment(weapons, armor, shield)


def _shield(
    archetype: Archetype, stats: Mapping[str, int], lead: Weapon | None, left: int | None, tables: Tables
) -> Item | None:
    """The archetype's shield by `preferred_load`, keeping the Manual Dexterity the `lead` weapon asks (its
    Strike Chance loses 5 a point short, 17.1): bought within `left`, unranked; or (None) given to an NPC at
    its typical Rank."""
    chosen = preferred_load(
        archetype.shield,
        lambda item: tables.shields[item.name].manual_dexterity_loss,
        stats["MD"],
        lead.md if lead is not None else 0,
        _free if left is None else lambda item: tables.shields[item.name].cost,
        left or 0,
        tables,
    )
    if chosen is None:
        return None
    return _item(chosen.name, chosen.rank if left is None else None)


def _given_key(archetype_id: str, stats: Mapping[str, int], tables: Tables) -> tuple[str, int, int, int]:
    """The values a given kit depends on, each cut at `_deciding_values` (past them the kit is the same): a
    batch gives thousands of kits from a few dozen such keys."""
    strength, dexterity, agility = _deciding(archetype_id, tables)
    return archetype_id, min(stats["PS"], strength), min(stats["MD"], dexterity), min(stats["AG"], agility)


@per_tables(4096, key=_given_key)
def given_equipment(archetype_id: str, stats: Mapping[str, int], tables: Tables) -> Equipment:
    """An NPC's kit, given: every archetype weapon at its typical Rank where the NPC may hold that Rank
    (else unranked), led by the weapon its allocation aimed at; none whose PS minimum is more than
    carry_margin above the NPC's PS. Armor and shield by `preferred_load`. Checked when first made."""
    equipment = _given_equipment(tables.archetypes[archetype_id], stats, tables)
    problems = check_equipment(equipment, stats, tables)
    if problems:  # pragma: no cover - the tables' own checks keep an archetype's kit lawful
        raise InputError(problems)
    return equipment


@per_tables(1024)
def _deciding(archetype_id: str, tables: Tables) -> tuple[int, int, int]:
    return _deciding_values(tables.archetypes[archetype_id], tables)


def _deciding_values(archetype: Archetype, tables: Tables) -> tuple[int, int, int]:
    """The PS, MD and AG at and above which every choice `_given_equipment` makes comes out the same: the
    highest PS and MD its weapons ask (20.2), and the Manual Dexterity and Agility its heaviest shield and
    armor would need (17.5, 18.1)."""
    weapons = [tables.weapons[item.name] for item in archetype.weapons]
    divisor = tables.archetype_file.load_divisor
    shield_loss = max(
        (tables.shields[item.name].manual_dexterity_loss for item in archetype.shield), default=0
    )
    armor_loss = max((tables.armor[name].agility_loss for name in archetype.armor), default=0)
    return (
        max((weapon.ps for weapon in weapons), default=0),
        max([*(weapon.md + shield_loss for weapon in weapons), shield_loss * divisor]),
        armor_loss * divisor,
    )


def _given_equipment(archetype: Archetype, stats: Mapping[str, int], tables: Tables) -> Equipment:
    weapons = []
    lead: Weapon | None = None
    heaviest = stats["PS"] + tables.archetype_file.carry_margin
    for item in weapon_order(archetype, stats, tables):
        weapon = tables.weapons[item.name]
        if weapon.ps > heaviest:
            continue
        lead = lead or weapon
        allowed = rank_problem(weapon, item.rank, stats["PS"], stats["MD"]) is None
        weapons.append(_item(item.name, item.rank if allowed else None))
    armor = preferred_load(
        archetype.armor, lambda name: tables.armor[name].agility_loss, stats["AG"], 0, _free, 0, tables
    )
    # 20: a two-handed first weapon leaves no hand for a shield (16 of 600 soldiers carried a Pike and one).
    shield = _shield(archetype, stats, lead, None, tables) if lead is None or lead.hands != "2" else None
    return Equipment(weapons, armor, shield)


def _free(_: object) -> int:
    """A given item's price: nothing (equipment_given)."""
    return 0
