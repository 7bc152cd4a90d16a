"""The working behind each weapon line and the unarmed line of a Character (17.1, 20.2, 12.3, 21), made from
the same table formulas and input functions (chargen.rules.combat) that computed them."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.generation import held
from chargen.generation.equipment import Equipment
from chargen.model import Character, UnarmedLine, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.working import Term, Working
from chargen.tables import Tables
from chargen.tables.combat_schema import INPUTS, MEANINGS
from chargen.tables.schema import Weapon


@dataclass(frozen=True, slots=True)
class Held:
    """What the character holds when its values are read: the kit, the shield that counts in Defense, and
    the modified Agility and Manual Dexterity every combat value starts from."""

    equipment: Equipment
    ready: held.Ready
    agility: Term
    dexterity: Term


def formula_terms(kind: str, values: tuple[int | None, ...], sources: dict[str, str]) -> tuple[Term, ...]:
    """The inputs of a formula of `kind`, each with where it came from (else what it means)."""
    return tuple(
        Term(name, value, sources.get(name) or MEANINGS.get(name, ""))
        for name, value in zip(INPUTS[kind], values, strict=True)
    )


def weapon_workings(character: Character, tables: Tables, kit: Held) -> list[Working]:
    found = _unarmed(character, tables, kit)
    seen: dict[str, int] = {}
    for line in character.combat.weapons:
        seen[line.name] = seen.get(line.name, 0) + 1
        key = line.name if seen[line.name] == 1 else f"{line.name}-{seen[line.name]}"
        found += _weapon(character, tables, kit, line, f"weapons.{key}")
    return found


def _weapon(character: Character, tables: Tables, kit: Held, line: WeaponLine, key: str) -> list[Working]:
    """17.1, 20.2, 12.3: one weapon's Strike Chance, damage and Initiative."""
    weapon = tables.weapons[line.name]
    stats, rules_file = character.characteristics, tables.combat
    dexterity = rules.dexterity_for(weapon, stats.MD, kit.dexterity.value or 0)
    inputs = rules.strike_inputs(
        weapon.base_chance, weapon.md, weapon.ps, dexterity, line.rank, stats.MD, stats.PS
    )
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    sources = {
        "base": f"the {weapon.name}'s Base Chance (20.2)",
        "md": "Manual Dexterity",
        "modified_md": _weapon_dexterity_source(character, tables, weapon, kit),
        "md_minimum": f"the {weapon.name}'s minimum MD",
        "ps_minimum": f"the {weapon.name}'s minimum PS",
        "rank": rank,
        "ps": "Physical Strength",
    }
    found = [
        Working(
            key=f"{key}.strike_chance",
            label=f"{weapon.name} Strike Chance",
            value=line.strike_chance,
            rule=rules_file.strike_chance.rule,
            formula=rules.strike_formula(line.rank, rules_file),
            terms=formula_terms("strike", inputs, sources),
            held=_weapon_held(character, tables, weapon),
        ),
        _initiative(f"{key}.initiative", f"{weapon.name} Initiative", line, character, tables, kit),
    ]
    return [*found, *_damage(tables, weapon, line, key, stats.PS)]


def _initiative(
    key: str, label: str, line: WeaponLine | UnarmedLine, character: Character, tables: Tables, kit: Held
) -> Working:
    """12.3: Initiative with a prepared weapon: modified Agility, Perception and the weapon's Rank."""
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    sources = {"modified_agility": kit.agility.source, "perception": "Perception", "rank": rank}
    inputs = (kit.agility.value, character.characteristics.PC, line.rank or 0, 0)
    return Working(
        key=key,
        label=label,
        value=line.initiative,
        rule=tables.combat.initiative.rule,
        formula=tables.combat.initiative.compiled,
        terms=formula_terms("initiative", inputs, sources),
    )


def _weapon_dexterity_source(character: Character, tables: Tables, weapon: Weapon, kit: Held) -> str:
    if weapon.hands == "2" and character.shield is not None:
        return f"Manual Dexterity {character.characteristics.MD}: in both hands, the shield slung (20)"
    return kit.dexterity.source


def _weapon_held(character: Character, tables: Tables, weapon: Weapon) -> str:
    if character.shield is None or character.shield.name not in tables.shields:
        return ""
    shield = tables.shields[character.shield.name]
    if weapon.hands == "2":
        return f"in both hands, the {shield.name} slung (20)"
    return f"with the {shield.name} prepared (17.5)"


def _damage(tables: Tables, weapon: Weapon, line: WeaponLine, key: str, ps: int) -> list[Working]:
    """20.2: the damage modifier (one-handed, and for a (1-2) weapon in two hands); none for a variable one."""
    rules_file = tables.combat
    found = []
    for two_handed, suffix, printed in (
        (False, "damage", line.damage),
        (True, "two_handed_damage", line.two_handed_damage),
    ):
        inputs = rules.damage_inputs(weapon, ps, two_handed)
        if inputs is None or printed is None or (two_handed and weapon.hands != "1-2"):
            continue
        if line.increase is not None:
            continue  # 18.5's increase is added on top (chargen.rules.damage_increase)
        found.append(
            Working(
                key=f"{key}.{suffix}",
                label=f"{weapon.name} damage" + (" two-handed" if two_handed else ""),
                value=rules.weapon_damage_modifier(weapon, ps, rules_file, two_handed),
                shown=printed,
                rule=rules_file.damage.rule,
                formula=rules_file.damage.compiled,
                terms=formula_terms(
                    "damage",
                    inputs,
                    {"modifier": f"the {weapon.name}'s damage modifier (20.2)", "ps": "Physical Strength"},
                ),
            )
        )
    return found


def _unarmed(character: Character, tables: Tables, kit: Held) -> list[Working]:
    """21: the unarmed Base Chance through 17.1's formulas, its damage and Initiative."""
    line, stats, rules_file = character.combat.unarmed, character.characteristics, tables.combat
    base_working = _unarmed_base(character, tables, kit)
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    dexterity = kit.dexterity.value or 0
    inputs = rules.strike_inputs(base_working.value or 0, 0, 0, dexterity, line.rank, stats.MD, stats.PS)
    return [
        base_working,
        Working(
            key="unarmed.strike_chance",
            label="Unarmed Strike Chance",
            value=line.strike_chance,
            rule=f"{rules_file.unarmed.rule}, {rules_file.strike_chance.rule}",
            formula=rules.strike_formula(line.rank, rules_file),
            terms=formula_terms(
                "strike",
                inputs,
                {
                    "base": f"the unarmed Base Chance, {base_working.arithmetic()}",
                    "rank": rank,
                    "modified_md": kit.dexterity.source,
                },
            ),
        ),
        Working(
            key="unarmed.damage",
            label="Unarmed damage",
            value=rules.unarmed_damage_modifier(stats.PS, rules_file),
            shown=line.damage,
            rule=rules_file.unarmed.rule,
            formula=rules_file.unarmed.damage_formula,
            terms=(Term("ps", stats.PS, "Physical Strength"),),
        ),
        _initiative("unarmed.initiative", "Unarmed Initiative", line, character, tables, kit),
    ]


def _unarmed_base(character: Character, tables: Tables, kit: Held) -> Working:
    """21: the unarmed Base Chance (not on the record: the unarmed Strike Chance's base)."""
    agility, strength = kit.agility.value or 0, character.characteristics.PS
    return Working(
        key="unarmed.base_chance",
        label="Unarmed Base Chance",
        value=rules.unarmed_base_chance(agility, strength, tables.combat),
        rule=tables.combat.unarmed.rule,
        formula=tables.combat.unarmed.chance_formula,
        terms=(
            Term("modified_agility", agility, kit.agility.source),
            Term("ps", strength, "Physical Strength"),
        ),
    )
