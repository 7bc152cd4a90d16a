"""The values of the record's rows, each weapon line and the unarmed line (17.1, 20.2, 12.3, 21), with their
workings, made from the same table formulas and input functions (chargen.rules.combat) that computed them.
A weapon line is a node of its own, found by its place among the weapons: any id a GM writes works."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.formulas import Formula
from chargen.generation import held
from chargen.generation.equipment import Equipment
from chargen.model import Character, UnarmedLine, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.combat import Known
from chargen.rules.working import Node, Term, Working
from chargen.tables import Tables
from chargen.tables.combat_schema import MEANINGS
from chargen.tables.schema import Weapon
from chargen.values.graph import Holding
from chargen.values.names import BASE


@dataclass(frozen=True, slots=True)
class Held:
    """What the character holds when its values are read: the kit, the shield that counts in Defense, and
    the modified Agility and Manual Dexterity every combat value starts from."""

    holding: Holding
    equipment: Equipment
    ready: held.Ready
    agility: Term
    dexterity: Term
    known: Known  # the values of the graph a formula may name, as the character holds them


def named_terms(formula: Formula, count: int, known: Known) -> tuple[Term, ...]:
    """The values of the graph `formula` names after its `count` own inputs (none in the book's), each
    with its label."""
    return tuple(Term(name, known.get(name), BASE[name][1]) for name in formula.inputs[count:])


def formula_terms(
    formula: Formula, values: tuple[int | None, ...], sources: dict[str, str], known: Known
) -> tuple[Term, ...]:
    """The inputs of `formula`, each with where it came from (else what it means), then the values of the
    graph it names."""
    own = tuple(
        Term(name, value, sources.get(name) or MEANINGS.get(name, ""))
        for name, value in zip(formula.inputs[: len(values)], values, strict=True)
    )
    return own + named_terms(formula, len(values), known)


def weapon_workings(character: Character, tables: Tables, kit: Held) -> list[Working]:
    found = _unarmed(character, tables, kit)
    lines = character.combat.weapons
    for index, (line, name) in enumerate(zip(lines, row_names([line.name for line in lines]), strict=True)):
        found += _weapon(character, tables, kit, line, _Row(index, f"weapons.{name}"))
    return found


def row_names(ids: list[str]) -> list[str]:
    """Each weapon line's name in keys: its id, and for the second line of one id `id-2` (or the next
    number no weapon carried is called: beside two Daggers and a GM's `dagger-2`, `dagger-3`)."""
    taken, seen, names = set(ids), dict[str, int](), []
    for weapon_id in ids:
        seen[weapon_id] = count = seen.get(weapon_id, 0) + 1
        if count == 1:
            names.append(weapon_id)
            continue
        while f"{weapon_id}-{count}" in taken:
            count += 1
        taken.add(f"{weapon_id}-{count}")
        names.append(f"{weapon_id}-{count}")
    return names


@dataclass(frozen=True, slots=True)
class _Row:
    """A weapon line's place among the weapons, and its name in keys."""

    index: int
    key: str

    def node(self, name: str) -> Node:
        return Node(name, row=self.index, row_key=self.key)


def _weapon(character: Character, tables: Tables, kit: Held, line: WeaponLine, row: _Row) -> list[Working]:
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
            node=row.node("strike_chance"),
            label=f"{weapon.name} Strike Chance",
            value=line.strike_chance,
            rule=rules_file.strike_chance.rule,
            formula=rules.strike_formula(line.rank, rules_file),
            terms=formula_terms(rules.strike_formula(line.rank, rules_file), inputs, sources, kit.known),
            held=_weapon_held(character, tables, weapon),
        ),
        _initiative(row.node("initiative"), f"{weapon.name} Initiative", line, character, tables, kit),
    ]
    return [*found, *_damage(tables, weapon, line, row, stats.PS, kit)]


def _initiative(
    node: Node, label: str, line: WeaponLine | UnarmedLine, character: Character, tables: Tables, kit: Held
) -> Working:
    """12.3: Initiative with a prepared weapon: modified Agility, Perception and the weapon's Rank."""
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    sources = {"modified_agility": kit.agility.source, "perception": "Perception", "rank": rank}
    inputs = (kit.agility.value, character.characteristics.PC, line.rank or 0, 0)
    return Working(
        node=node,
        label=label,
        value=line.initiative,
        rule=tables.combat.initiative.rule,
        formula=tables.combat.initiative.compiled,
        terms=formula_terms(tables.combat.initiative.compiled, inputs, sources, kit.known),
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


def _damage(tables: Tables, weapon: Weapon, line: WeaponLine, row: _Row, ps: int, kit: Held) -> list[Working]:
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
                node=row.node(suffix),
                label=f"{weapon.name} damage" + (" two-handed" if two_handed else ""),
                value=rules.weapon_damage_modifier(weapon, ps, rules_file, two_handed, kit.known),
                shown=printed,
                rule=rules_file.damage.rule,
                formula=rules_file.damage.compiled,
                terms=formula_terms(
                    rules_file.damage.compiled,
                    inputs,
                    {"modifier": f"the {weapon.name}'s damage modifier (20.2)", "ps": "Physical Strength"},
                    kit.known,
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
            node=Node("strike_chance", row_key="unarmed"),
            label="Unarmed Strike Chance",
            value=line.strike_chance,
            rule=f"{rules_file.unarmed.rule}, {rules_file.strike_chance.rule}",
            formula=rules.strike_formula(line.rank, rules_file),
            terms=formula_terms(
                rules.strike_formula(line.rank, rules_file),
                inputs,
                {
                    "base": f"the unarmed Base Chance, {base_working.arithmetic()}",
                    "rank": rank,
                    "modified_md": kit.dexterity.source,
                },
                kit.known,
            ),
        ),
        Working(
            node=Node("damage", row_key="unarmed"),
            label="Unarmed damage",
            value=rules.unarmed_damage_modifier(stats.PS, rules_file, kit.known),
            shown=line.damage,
            rule=rules_file.unarmed.rule,
            formula=rules_file.unarmed.damage_formula,
            terms=(
                Term("ps", stats.PS, "Physical Strength"),
                *named_terms(rules_file.unarmed.damage_formula, 1, kit.known),
            ),
        ),
        _initiative(
            Node("initiative", row_key="unarmed"), "Unarmed Initiative", line, character, tables, kit
        ),
    ]


def _unarmed_base(character: Character, tables: Tables, kit: Held) -> Working:
    """21: the unarmed Base Chance (not on the record: the unarmed Strike Chance's base)."""
    agility, strength = kit.agility.value or 0, character.characteristics.PS
    return Working(
        node=Node("base_chance", row_key="unarmed"),
        label="Unarmed Base Chance",
        value=rules.unarmed_base_chance(agility, strength, tables.combat, kit.known),
        rule=tables.combat.unarmed.rule,
        formula=tables.combat.unarmed.chance_formula,
        terms=(
            Term("modified_agility", agility, kit.agility.source),
            Term("ps", strength, "Physical Strength"),
            *named_terms(tables.combat.unarmed.chance_formula, 2, kit.known),
        ),
    )
