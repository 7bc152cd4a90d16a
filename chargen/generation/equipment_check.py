"""Step 8.7's rules for a kit: what it holds (Equipment), whether each weapon, armor, shield and Rank is
allowed (20.2, 16.5, 17.5, 18.1), and its price at the charts. chargen.generation.equipment chooses one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chargen.character_file import Item
from chargen.errors import Problem
from chargen.names import unknown_problem
from chargen.rules.combat import armor_cost
from chargen.tables import Tables
from chargen.tables.schema import Race, Weapon


@dataclass(frozen=True)
class Equipment:
    weapons: list[Item]
    armor: str | None
    shield: Item | None


def shield_rank_problem(shield: str, rank: int, tables: Tables) -> str | None:
    """17.5: Rank with a shield is Rank in the Weapons Chart's Shield line (the Main-Gauche: its own), no
    higher than that line's maximum (20.2)."""
    chart = tables.weapons.get(tables.shields[shield].weapon or "shield")
    if chart is None or chart.max_rank is None or rank <= chart.max_rank:
        return None
    return f"Rank {rank} is above the maximum Rank {chart.max_rank} with a shield ({chart.name} on the Weapons Chart)"


def rank_problem(weapon: Weapon, rank: int | None, strength: int | None, dexterity: int | None) -> str | None:
    """20.2: no Rank above the weapon's maximum, nor without its PS and MD (the Torch takes none); PS and
    MD None when they are not known (the file's allocation found wrong): the maximum is checked alone.
    Reading: the MD judged is the character's own, not lowered by a shield the character may put down."""
    if rank is None:
        return None
    if weapon.max_rank is None:
        return f"the {weapon.name} can have no Rank; rule 20.2"
    if rank > weapon.max_rank:
        return f"Rank {rank} is above the {weapon.name}'s maximum Rank {weapon.max_rank}; rule 20.2"
    if strength is not None and strength < weapon.ps:
        return f"Rank {rank} needs PS {weapon.ps} for the {weapon.name}, PS is {strength}; rule 20.2"
    if dexterity is not None and dexterity < weapon.md:
        return f"Rank {rank} needs MD {weapon.md} for the {weapon.name}, MD is {dexterity}; rule 20.2"
    return None


def _can_strike(shield: Item | None, tables: Tables) -> bool:
    chart = tables.shields.get(shield.name) if shield is not None else None
    return chart is not None and chart.can_strike


def check_equipment(equipment: Equipment, stats: Mapping[str, int] | None, tables: Tables) -> list[Problem]:
    """Every item exists and every Rank is allowed (against PS and MD when `stats` are known); problems
    named by key path."""
    ranks: dict[str, int | None] = {}
    problems = _weapon_problems(equipment, stats, tables, ranks)
    problems.extend(_armor_and_shield_problems(equipment, tables, ranks))
    return problems


def _weapon_problems(
    equipment: Equipment, stats: Mapping[str, int] | None, tables: Tables, ranks: dict[str, int | None]
) -> list[Problem]:
    """20.2 and 16.5 for each weapon; fills `ranks` (weapon id -> Rank) for the shield check."""
    problems: list[Problem] = []
    for index, item in enumerate(equipment.weapons):
        weapon = tables.weapons.get(item.name)
        if weapon is None:
            problems.append(
                unknown_problem(
                    ("weapons", index, "name"), item.name, tables.weapons, "on the Weapons Chart (20.2)"
                )
            )
            continue
        strength, dexterity = (stats["PS"], stats["MD"]) if stats is not None else (None, None)
        problem = rank_problem(weapon, item.rank, strength, dexterity)
        if problem:
            problems.append(Problem(("weapons", index, "rank"), problem, value=item.rank))
        if item.name in ranks and ranks[item.name] != item.rank:
            problems.append(
                Problem(("weapons", index, "rank"), f"the {weapon.name} is listed twice with different Ranks")
            )
        ranks[item.name] = item.rank
        if item.name == "shield" and not _can_strike(equipment.shield, tables):
            problems.append(
                Problem(
                    ("weapons", index, "name"),
                    "striking with a shield needs a shield carried, not a Main-Gauche or Tower Shield",
                    "16.5",
                )
            )
    return problems


def _armor_and_shield_problems(
    equipment: Equipment, tables: Tables, ranks: dict[str, int | None]
) -> list[Problem]:
    """18.1 and 17.5: the armor and shield exist; a shield that is also a weapon has one Rank as both."""
    problems: list[Problem] = []
    if equipment.armor is not None and equipment.armor not in tables.armor:
        problems.append(
            unknown_problem(("armor",), equipment.armor, tables.armor, "on the Armor Chart (18.1)")
        )
    shield = equipment.shield
    if shield is not None:
        if shield.name not in tables.shields:
            problems.append(
                unknown_problem(("shield", "name"), shield.name, tables.shields, "on the Shield Chart (17.5)")
            )
        else:
            twin = tables.shields[shield.name].weapon
            above = shield_rank_problem(shield.name, shield.rank or 0, tables)
            if above is not None:
                problems.append(Problem(("shield", "rank"), above, "17.5 and 20.2", shield.rank))
            if twin and twin in ranks and ranks[twin] != shield.rank:
                problems.append(
                    Problem(
                        ("shield", "rank"),
                        f"the {tables.shields[shield.name].name} has one Rank as weapon and shield "
                        f"({ranks[twin]} vs {shield.rank})",
                        "17.5",
                        shield.rank,
                    )
                )
    return problems


def equipment_cost(equipment: Equipment, race: Race, tables: Tables) -> tuple[int, list[Problem]]:
    """Price at the charts (armor scaled to the race's size); items with no price are listed as problems."""
    cost, problems = 0, []
    shield_weapon = tables.shields[equipment.shield.name].weapon if equipment.shield else None
    for index, item in enumerate(equipment.weapons):
        weapon = tables.weapons[item.name]
        if item.name == "shield" or item.name == shield_weapon:
            continue  # paid for as the shield (16.5; the Main-Gauche is one item, 17.5)
        if weapon.cost is None:
            problems.append(
                Problem(
                    ("weapons", index, "name"),
                    f"the {weapon.name} has no fixed price (20.2); it can only be given (equipment_given: true)",
                    value=item.name,
                )
            )
            continue
        cost += weapon.cost
    if equipment.armor:
        cost += armor_cost(tables.armor[equipment.armor], race.size, tables.armor_file.human_size)
    if equipment.shield:
        cost += tables.shields[equipment.shield.name].cost
    return cost, problems


@dataclass(frozen=True)
class KitCheck:
    """A file's own kit checked: its price (0 when not priced) and every problem found."""

    cost: int
    problems: list[Problem]


def kit_problems(
    equipment: Equipment,
    stats: Mapping[str, int] | None,
    race: Race | None,
    purse: int | None,
    tables: Tables,
) -> KitCheck:
    """8.7 for a file's own kit, every problem at once: each item and Rank checked (PS and MD when
    `stats` are known); priced at the charts for `race` (None: not priced), the items found wrong left
    out, so a price past the `purse` (None: not known) is told too little, never wrongly."""
    problems = check_equipment(equipment, stats, tables)
    if race is None:
        return KitCheck(0, problems)
    known = Equipment(
        [item for item in equipment.weapons if item.name in tables.weapons],
        equipment.armor if equipment.armor in tables.armor else None,
        equipment.shield
        if equipment.shield is not None and equipment.shield.name in tables.shields
        else None,
    )
    cost, unpriced = equipment_cost(known, race, tables)
    problems.extend(unpriced)
    if purse is not None and cost > purse:
        problems.append(
            Problem(
                label="equipment",
                message=f"costs {cost} Silver Pennies but the purse holds {purse} (8.5); buy less, or set "
                "equipment_given: true",
                value=cost,
            )
        )
    return KitCheck(cost, problems)
