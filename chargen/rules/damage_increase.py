"""18.5 (optional rule): a weapon's damage increased by exceptional Physical Strength or by Rank with it.

The numbers and the readings of the damaged passage are in tables/combat.yaml's `damage_increase`. The
Physical Strength system is the rule's own; the Rank system is the GM's further option, chosen per weapon
with `increase: rank`. One system per weapon."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from chargen.character_file import Item
from chargen.errors import InputError, Problem
from chargen.model import DamageIncrease, WeaponLine
from chargen.rules.combat import NONE_KNOWN, Known, damage_text, weapon_damage_modifier
from chargen.tables import Tables
from chargen.tables.combat_schema import DamageIncreaseRule
from chargen.tables.equipment_schema import Weapon

STRENGTH = "strength"
RANK = "rank"


def chosen(optional: Iterable[str], rule: DamageIncreaseRule) -> bool:
    """Whether the character file lists 18.5 under `optional`."""
    return rule.code in optional


def strength_applies(weapon: Weapon, rule: DamageIncreaseRule) -> bool:
    """18.5: the Physical Strength system is not for Thrown or Missile Weapons (by the chart's groups)."""
    return weapon.group not in rule.strength_barred_groups


def strength_bonus(physical_strength: int, minimum: int, rule: DamageIncreaseRule) -> int:
    """18.5: +1 for every full strength_points_per_bonus points of Physical Strength above the weapon's minimum."""
    over = physical_strength - minimum
    return over // rule.strength_points_per_bonus if over > 0 else 0


def rank_bonus(rank: int | None, rule: DamageIncreaseRule) -> int:
    """18.5: +1 for every rank_per_bonus Ranks with the weapon, rounded down (unranked: none)."""
    return (rank or 0) // rule.rank_per_bonus


def lowest_breaking_roll(bonus: int, rule: DamageIncreaseRule) -> int:
    """17.3 with 18.5: the weapon may break on breaks_on alone; each +1 of the Physical Strength system adds
    breakage_per_bonus rolls below it (a roll of 1 at the very least)."""
    return max(1, rule.breaks_on - rule.breakage_per_bonus * bonus)


def strike_chance_cap(bonus: int, rule: DamageIncreaseRule) -> int:
    """18.5: the highest Modified Strike Chance left below the rolls that may break the weapon."""
    return lowest_breaking_roll(bonus, rule) - 1


def increase_of(
    weapon: Weapon, item: Item, physical_strength: int, thrown_damage: str, rule: DamageIncreaseRule
) -> DamageIncrease:
    """One weapon's increase under the system the file chose (the Physical Strength one unless `rank`).
    `thrown_damage` is the weapon's damage without the bonus, which it does when thrown."""
    if item.increase == RANK:
        return DamageIncrease(system=RANK, bonus=rank_bonus(item.rank, rule))
    bonus = strength_bonus(physical_strength, weapon.ps, rule) if strength_applies(weapon, rule) else 0
    if bonus == 0:
        return DamageIncrease(system=STRENGTH, bonus=0)
    low = lowest_breaking_roll(bonus, rule)
    return DamageIncrease(
        system=STRENGTH,
        bonus=bonus,
        breaks_on=f"{low:02d}-{rule.breaks_on:02d}" if low < rule.breaks_on else f"{low:02d}",
        strike_chance_cap=strike_chance_cap(bonus, rule),
        thrown_damage=thrown_damage if weapon.thrown else None,
    )


def with_damage_increase(
    lines: list[WeaponLine],
    weapons: Sequence[Item],
    shield: Item | None,
    physical_strength: int,
    optional: Iterable[str],
    tables: Tables,
    known: Known = NONE_KNOWN,
) -> list[WeaponLine]:
    """The weapon lines with 18.5 applied when the file lists it under `optional` (else as they are); what
    the file asks of 18.5 that the rule does not allow is refused."""
    problems = increase_problems(weapons, shield, optional, tables)
    if problems:
        raise InputError(problems)
    if not chosen(optional, tables.combat.damage_increase):
        return lines
    return [
        increased_line(line, item, tables.weapons[item.name], physical_strength, tables, known)
        for line, item in zip(lines, weapons, strict=True)
    ]


def optional_rules(optional: Iterable[str], tables: Tables) -> list[str]:
    """The optional rules the file lists (18.5), as the character file writes them after the characteristics."""
    rule = tables.combat.damage_increase
    return [rule.code] if chosen(optional, rule) else []


def increased_line(
    line: WeaponLine,
    item: Item,
    weapon: Weapon,
    physical_strength: int,
    tables: Tables,
    known: Known = NONE_KNOWN,
) -> WeaponLine:
    """The weapon line with 18.5's bonus in its damage (and its two-handed damage) and the increase noted."""
    rule = tables.combat.damage_increase
    increase = increase_of(weapon, item, physical_strength, line.damage, rule)
    if increase.bonus == 0 or line.damage_modifier is None:
        return replace(line, increase=increase)
    two_handed = line.two_handed_damage
    if two_handed is not None:
        both = weapon_damage_modifier(weapon, physical_strength, tables.combat, True, known)
        two_handed = damage_text(None if both is None else both + increase.bonus)
    modifier = line.damage_modifier + increase.bonus
    return replace(
        line,
        damage=damage_text(modifier, weapon.damage_note),
        damage_modifier=modifier,
        two_handed_damage=two_handed,
        increase=increase,
    )


def counted_in_damage(tables: Tables) -> bool:
    """Whether the damage formula already adds damage for PS over the weapon's minimum: a ruleset's own
    reading of 18.5 (seed 004's house-combat), on which the optional rule would count PS twice."""
    return "ps_over" in tables.combat.damage.compiled.used


def increase_problems(
    weapons: Sequence[Item], shield: Item | None, optional: Iterable[str], tables: Tables
) -> list[Problem]:
    """What the file asks of 18.5 that the rule does not allow."""
    rule = tables.combat.damage_increase
    on = chosen(optional, rule)
    problems = []
    if on and counted_in_damage(tables):
        problems.append(
            Problem(
                ("optional",),
                "the damage formula of these rules already adds damage for PS over the weapon's minimum; "
                f"{rule.code} would add it twice",
                rule.rule,
                rule.code,
            )
        )
    for index, item in enumerate(weapons):
        problem = _weapon_problem(item, index, on, tables)
        if problem is not None:
            problems.append(problem)
    if shield is not None and shield.increase is not None:
        problems.append(
            Problem(
                ("shield", "increase"),
                "increases a weapon's damage; list the shield under weapons to strike with it",
                rule.rule,
                shield.increase,
            )
        )
    return problems


def _weapon_problem(item: Item, index: int, on: bool, tables: Tables) -> Problem | None:
    """A weapon's system of 18.5 when the file does not use the rule, or PS's increase for a weapon it is
    not for."""
    rule = tables.combat.damage_increase
    if item.increase is None:
        return None
    path = ("weapons", index, "increase")
    if not on:
        return Problem(
            path,
            f"chooses a system of optional rule {rule.code}, which optional does not list",
            rule.rule,
            item.increase,
        )
    if item.increase == STRENGTH and not strength_applies(tables.weapons[item.name], rule):
        name = tables.weapons[item.name].name
        return Problem(
            path,
            f"the Physical Strength increase is not for Thrown or Missile Weapons ({name}); use rank",
            rule.rule,
            item.increase,
        )
    return None
