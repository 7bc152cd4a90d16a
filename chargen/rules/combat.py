"""Combat values for the Character Record (rules 12.3, 17.1-17.5, 18.1-18.3, 19, 20.2, 21)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from chargen.errors import TableError
from chargen.formulas import Formula
from chargen.tables.schema import Armor, ArmorFile, CombatFile, Shield, SpecialDamageRow, Weapon

#: The values of the graph worked out before a formula, by the name a formula gives them
#: (chargen.values.names): what a house rule's formula may name past its own inputs. The book's name none.
Known = Mapping[str, int | None]
NONE_KNOWN: Known = MappingProxyType({})


def worked(formula: Formula, inputs: tuple[int | None, ...], known: Known = NONE_KNOWN) -> int | None:
    """`formula` on its own inputs and the values of the graph it names after them; None ("—") when an
    input it names has no value."""
    if len(formula.inputs) > len(inputs):
        inputs = (*inputs, *(known[name] for name in formula.inputs[len(inputs) :]))
    return formula.function(*inputs) if None not in inputs else formula.maybe(*inputs)


def whole(formula: Formula, inputs: tuple[int | None, ...], known: Known = NONE_KNOWN) -> int:
    """`worked`, for a value the record always prints: a value of the graph it names with none is refused."""
    if len(formula.inputs) == len(inputs):  # the book's: nothing named past its own inputs (a roll's path)
        return formula.function(*inputs)
    value = worked(formula, inputs, known)
    if value is None:
        named = ", ".join(name for name in formula.inputs[len(inputs) :] if known.get(name) is None)
        raise TableError(f"formula {formula.text!r}: {named} has no value for this character (—)")
    return value


def modified_agility(agility: int, armor: Armor | None) -> int:
    """18.1: armor lowers Agility for all purposes while worn."""
    return agility - (armor.agility_loss if armor else 0)


def modified_manual_dexterity(manual_dexterity: int, shield: Shield | None) -> int:
    """17.5: a prepared shield lowers Manual Dexterity for all purposes."""
    return manual_dexterity - (shield.manual_dexterity_loss if shield else 0)


def dexterity_for(weapon: Weapon, md: int, modified_md: int) -> int:
    """20: a prepared shield rules out a two-handed weapon, so a (2) weapon is used without the shield's MD
    loss (17.5); any other weapon with the modified Manual Dexterity."""
    return md if weapon.hands == "2" else modified_md


def defense_inputs(
    modified_agility_value: int,
    shield: Shield | None,
    shield_rank: int | None,
    weapon: Weapon | None = None,
    weapon_rank: int | None = None,
    *,
    fallback: int | None = None,
) -> tuple[int | None, ...]:
    """The defense formulas' inputs (combat.yaml): the book's shield terms, and a house rule's Defensive Values
    (where a ruleset states a `fallback`, a weapon with no defensive_modifier reads it, and a shield with none
    its Shield Chart defense per Rank; without one, None: the value is "—")."""
    held = shield is not None and shield_rank is not None
    per_rank = shield.defense_per_rank if held else 0  # type: ignore[union-attr]
    rank = shield_rank if held else 0
    weapon_defense: int | None = 0
    if weapon is not None and weapon_rank is not None:
        modifier = weapon.defensive_modifier if weapon.defensive_modifier is not None else fallback
        weapon_defense = None if modifier is None else weapon_rank * modifier
    shield_modifier: int | None = 0
    if held:
        shield_modifier = shield.defensive_modifier  # type: ignore[union-attr]
        if shield_modifier is None and fallback is not None:
            shield_modifier = per_rank  # the stated reading: the Shield Chart's defense per Rank (17.5)
    return (modified_agility_value, per_rank, rank, per_rank * (rank or 0), weapon_defense, shield_modifier)


def defense(
    modified_agility_value: int,
    shield: Shield | None,
    shield_rank: int | None,
    rules: CombatFile,
    weapon: Weapon | None = None,
    weapon_rank: int | None = None,
) -> int | None:
    """17.5 (book): Defense = modified Agility + the shield's defense per Rank (shields.yaml) x Rank (combat.yaml's
    defense.formula); None when a house formula needs a Defensive Value the tables do not give."""
    return defense_from(
        defense_inputs(modified_agility_value, shield, shield_rank, weapon, weapon_rank), rules
    )


def defense_from(inputs: tuple[int | None, ...], rules: CombatFile, known: Known = NONE_KNOWN) -> int | None:
    return worked(rules.defense.compiled, inputs, known)


def defense_postures(
    inputs: tuple[int | None, ...], rules: CombatFile, known: Known = NONE_KNOWN
) -> dict[str, int | None] | None:
    """A house rule's Defense in each posture it names (seed 004: all-out, defensive, evading); None (not
    written) for the book, which has none."""
    postures = rules.defense.posture_formulas
    return {name: worked(formula, inputs, known) for name, formula in postures.items()} if postures else None


def strike_chance(
    weapon: Weapon,
    modified_md: int,
    rank: int | None,
    rules: CombatFile,
    md: int | None = None,
    ps: int = 0,
    known: Known = NONE_KNOWN,
) -> int:
    """17.1 and 20.2 (book): ranked = base + modified MD + 4 x Rank; unranked = base; less 5 per point of MD
    short of the weapon's (combat.yaml's strike_chance formulas). `md` is the unmodified Manual Dexterity
    (a house formula may name it)."""
    inputs = strike_inputs(weapon.base_chance, weapon.md, weapon.ps, modified_md, rank, md, ps)
    return whole(strike_formula(rank, rules), inputs, known)


def strike_formula(rank: int | None, rules: CombatFile) -> Formula:
    """17.1: the ranked formula for a weapon with a Rank, else the unranked one."""
    terms = rules.strike_chance
    return terms.unranked_formula if rank is None else terms.ranked_formula


def strike_inputs(
    base: int, md_minimum: int, ps_minimum: int, modified_md: int, rank: int | None, md: int | None, ps: int
) -> tuple[int, ...]:
    """The strike_chance formulas' inputs (combat_schema.INPUTS["strike"]), in calling order."""
    shortfall = md_minimum - modified_md if md_minimum > modified_md else 0
    md_value = modified_md if md is None else md
    return (base, md_value, modified_md, md_minimum, shortfall, rank or 0, ps, ps_minimum)


def weapon_damage_modifier(
    weapon: Weapon,
    physical_strength: int,
    rules: CombatFile,
    two_handed: bool = False,
    known: Known = NONE_KNOWN,
) -> int | None:
    """20.2 (book): the chart's modifier, -1 per point of PS below the minimum, +1 for a (1-2) weapon in two
    hands (combat.yaml's damage.formula)."""
    inputs = damage_inputs(weapon, physical_strength, two_handed)
    return None if inputs is None else whole(rules.damage.compiled, inputs, known)


def damage_inputs(weapon: Weapon, physical_strength: int, two_handed: bool = False) -> tuple[int, ...] | None:
    """The damage formula's inputs (combat_schema.INPUTS["damage"]); None for a variable damage."""
    if weapon.damage_modifier is None:
        return None
    minimum = weapon.ps
    shortfall = minimum - physical_strength if minimum > physical_strength else 0
    over = physical_strength - minimum if physical_strength > minimum else 0
    both = two_handed and weapon.hands == "1-2"
    kind = weapon.damage_class
    return (
        weapon.damage_modifier,
        physical_strength,
        minimum,
        shortfall,
        over,
        int(both),
        int(kind == "A"),
        int(kind == "B"),
        int(kind == "C"),
    )


def damage_text(modifier: int | None, note: str | None = None) -> str:
    """`D10+4`, `D10`, `D10-3`; a variable damage keeps the chart's word."""
    if modifier is None:
        return f"D10 ({note})" if note else "D10"
    return f"D10{modifier:+d}" if modifier else "D10"


def initiative_value(
    modified_agility_value: int,
    perception_value: int,
    rules: CombatFile,
    rank: int | None = None,
    known: Known = NONE_KNOWN,
) -> int:
    """12.3 (book): modified Agility + Perception (+ Rank with the prepared weapon). No Weapon Master skill
    is generated, so its Rank is 0."""
    return whole(rules.initiative.compiled, (modified_agility_value, perception_value, rank or 0, 0), known)


def unarmed_base_chance(
    modified_agility_value: int, physical_strength: int, rules: CombatFile, known: Known = NONE_KNOWN
) -> int:
    """21 (book): modified Agility x 2, +1 per point of Physical Strength above 15."""
    return whole(rules.unarmed.chance_formula, (modified_agility_value, physical_strength), known)


def unarmed_strike_chance(
    modified_agility_value: int,
    physical_strength: int,
    modified_md: int,
    rank: int | None,
    rules: CombatFile,
    md: int | None = None,
    known: Known = NONE_KNOWN,
) -> int:
    """21 with 17.1: the unarmed Base Chance goes through the strike_chance formulas like any weapon's (with
    no weapon minimums), so a Rank adds modified MD + 4 x Rank."""
    base = unarmed_base_chance(modified_agility_value, physical_strength, rules, known)
    inputs = strike_inputs(base, 0, 0, modified_md, rank, md, physical_strength)
    return whole(strike_formula(rank, rules), inputs, known)


def unarmed_damage_modifier(physical_strength: int, rules: CombatFile, known: Known = NONE_KNOWN) -> int:
    """21 (book): D10 - 4, +1 per 3 full points of Physical Strength above 15."""
    return whole(rules.unarmed.damage_formula, (physical_strength,), known)


def special_damage_row(rows: list[SpecialDamageRow], modified_strike_chance: int) -> SpecialDamageRow | None:
    """18.2: the Special Damage Chart row for a Strike Chance (None below 1: no hit is possible)."""
    for row in rows:
        if row.low <= modified_strike_chance and (row.high is None or modified_strike_chance <= row.high):
            return row
    return None


def roll_range(high: int | None) -> str | None:
    """`01-12` for rolls 1 to 12, `01` for a single roll, None for none."""
    if high is None:
        return None
    return "01" if high == 1 else f"01-{high:02d}"


def stun_threshold(endurance: int, rules: CombatFile, known: Known = NONE_KNOWN) -> int:
    """19 (book): the smallest effective damage from one strike that Stuns: more than a third of Endurance."""
    return whole(rules.stun.threshold_formula, (endurance,), known)


def stun_recovery(willpower: int, fatigue: int, rules: CombatFile, known: Known = NONE_KNOWN) -> int:
    """19 (book): recover from Stun on D100 at 2 x Willpower + current Fatigue or less (full Fatigue here)."""
    return whole(rules.stun.recovery_formula, (willpower, fatigue), known)


def breakage_check(modified_md: int, rules: CombatFile, known: Known = NONE_KNOWN) -> int:
    """17.3 (book): a 99 (break) or 100 (drop) is avoided on D100 at 3 x modified Manual Dexterity or less."""
    return whole(rules.breakage.check_formula, (modified_md,), known)


def armor_weight(armor: Armor, size: int, gender: str, chart: ArmorFile) -> int | float:
    """18.1: the weight multiple, adjusted for gender (0.5 off for a female figure), times the race's size
    number. Pounds, as a whole number when it is one."""
    adjustment = chart.weight_adjustment_by_gender.get(gender, 0)  # type: ignore[call-overload]
    pounds = (armor.weight + adjustment) * size
    return int(pounds) if pounds.is_integer() else pounds


def armor_cost(armor: Armor, size: int, human_size: int) -> int:
    """18.1: cost is for man-sized armor; other sizes cost proportionally (reading: x size / 6, rounded up)."""
    return math.ceil(armor.cost * size / human_size)
