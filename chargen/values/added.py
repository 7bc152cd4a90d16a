"""A ruleset's own values (combat.yaml's `values`): each worked out by its formula from the values of the
graph, in the order the tables' schema found (a value another reads comes first), a GM's ruling pinned in
place of the formula's value so that what reads it is worked out from the GM's."""

from __future__ import annotations

from collections.abc import Mapping

from chargen.model import Character, Characteristics, Combat
from chargen.rules import combat as rules
from chargen.rules.working import Node, Term, Working
from chargen.tables import Tables
from chargen.values.names import POSTURE_PREFIX, formula_name


def characteristic_values(stats: Characteristics) -> dict[str, int | None]:
    """The eight characteristics by the names a formula gives them."""
    return {
        "physical_strength": stats.PS,
        "manual_dexterity": stats.MD,
        "agility": stats.AG,
        "endurance": stats.EN,
        "magical_aptitude": stats.MA,
        "willpower": stats.WP,
        "fatigue": stats.FT,
        "perception": stats.PC,
    }


def base_values(stats: Characteristics, tmr: int, combat: Combat) -> dict[str, int | None]:
    """The value of each name of chargen.values.names.BASE (and each posture), as the Character holds it."""
    found = characteristic_values(stats)
    found |= {
        "tmr_unarmored": tmr,
        "modified_agility": combat.modified_agility,
        "modified_manual_dexterity": combat.modified_manual_dexterity,
        "defense": combat.defense,
        "tmr_armored": combat.tmr,
        "initiative": combat.initiative,
        "stun_threshold": combat.stun_threshold,
        "stun_recovery": combat.stun_recovery,
        "breakage_check": combat.breakage_check,
        "unarmed_strike_chance": combat.unarmed.strike_chance,
        "unarmed_initiative": combat.unarmed.initiative,
    }
    for posture, value in (combat.defense_postures or {}).items():
        found[POSTURE_PREFIX + formula_name(posture)] = value
    return found


def graph_values(stats: Characteristics, tmr: int, combat: Combat, tables: Tables) -> dict[str, int | None]:
    """Every value of the graph a formula may name (the unarmed Base Chance too), as the Character holds it."""
    known = base_values(stats, tmr, combat)
    known["unarmed_base_chance"] = rules.unarmed_base_chance(
        combat.modified_agility, stats.PS, tables.combat, known
    )
    return known


def worked_added(
    known: dict[str, int | None], tables: Tables, pinned: Mapping[str, int]
) -> dict[str, int | None]:
    """Each added value by key, worked out in order on `known` (the values of the graph; each added value
    is put in it for those after)."""
    formulas = tables.combat.added_formulas
    found: dict[str, int | None] = {}
    for key, formula in formulas.items():
        value = pinned[key] if key in pinned else formula.maybe(*(known.get(name) for name in formula.inputs))
        known[formula_name(key)] = found[key] = value
    return found


def shown_added(character: Character, tables: Tables) -> list[tuple[str, str, int | None, str]]:
    """Each added value the character carries as its doors show it: (key, label, value, rule)."""
    declared = tables.combat.values
    return [
        (key, declared[key].label, value, declared[key].rule)
        for key, value in (character.combat.values or {}).items()
        if key in declared
    ]


def added_workings(character: Character, tables: Tables) -> list[Working]:
    """The working of each added value, on the values the character carries (a GM's among them)."""
    combat_file = tables.combat
    if not combat_file.values:
        return []
    labels = {name: label for name, (_, label) in combat_file.graph_names().items()}
    known = graph_values(character.characteristics, character.tmr, character.combat, tables)
    known |= {formula_name(key): value for key, value in (character.combat.values or {}).items()}
    found = []
    for key, formula in combat_file.added_formulas.items():
        declared = combat_file.values[key]
        found.append(
            Working(
                node=Node(key),
                label=declared.label,
                value=(character.combat.values or {}).get(key),
                rule=declared.rule,
                formula=formula,
                terms=tuple(Term(name, known.get(name), labels[name]) for name in formula.inputs),
            )
        )
    return found
