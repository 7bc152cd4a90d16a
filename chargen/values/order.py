"""The order one character's combat values are worked out in (chargen.values.graph): each step of the
graph works out values a formula may name (the Stun threshold, Defense, ...), and runs after the steps
whose values its formulas name; the weapon lines come after them all (a formula may name no weapon's value).
Read by the tables' schema when combat.yaml loads, so that a cycle is refused there."""

from __future__ import annotations

import graphlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from chargen.formulas import Formula
from chargen.tables.base import WholeTableError
from chargen.values.names import BASE

if TYPE_CHECKING:
    from chargen.tables.combat_schema import CombatFile

#: The values of one character each step of chargen.values.graph works out (the weapon lines come after
#: them all: a formula may name no weapon's value).
STEP_VALUES: dict[str, tuple[str, ...]] = {
    "stun_threshold": ("stun_threshold",),
    "stun_recovery": ("stun_recovery",),
    "breakage_check": ("breakage_check",),
    "defense": ("defense",),
    "initiative": ("initiative",),
    "unarmed": ("unarmed_base_chance", "unarmed_strike_chance", "unarmed_initiative"),
}


#: Where in combat.yaml the formulas each step reads stand: a cycle between steps is told at one of them.
STEP_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "stun_threshold": (("stun", "threshold"),),
    "stun_recovery": (("stun", "recovery"),),
    "breakage_check": (("breakage", "check"),),
    "defense": (("defense", "formula"), ("defense", "postures")),
    "initiative": (("initiative", "formula"),),
    "unarmed": (("unarmed",), ("strike_chance",), ("initiative", "formula")),
}


def _step_formulas(combat: CombatFile) -> dict[str, tuple[tuple[str, Formula], ...]]:
    """The formulas (with their kind) each step reads."""
    strike, initiative = combat.strike_chance, ("initiative", combat.initiative.compiled)
    return {
        "stun_threshold": (("threshold", combat.stun.threshold_formula),),
        "stun_recovery": (("recovery", combat.stun.recovery_formula),),
        "breakage_check": (("breakage", combat.breakage.check_formula),),
        "defense": (
            ("defense", combat.defense.compiled),
            *(("defense", formula) for formula in combat.defense.posture_formulas.values()),
        ),
        "initiative": (initiative,),
        "unarmed": (
            ("chance", combat.unarmed.chance_formula),
            ("damage_unarmed", combat.unarmed.damage_formula),
            ("strike", strike.ranked_formula),
            ("strike", strike.unranked_formula),
            initiative,
        ),
    }


def step_reads(combat: CombatFile, inputs: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The values of the graph each step's formulas name past their own `inputs` (by kind), and a weapon
    line's (`weapons`), in the graph's order."""
    strike = combat.strike_chance
    steps = _step_formulas(combat) | {
        "weapons": (
            ("strike", strike.ranked_formula),
            ("strike", strike.unranked_formula),
            ("damage", combat.damage.compiled),
            ("initiative", combat.initiative.compiled),
        )
    }
    found = {}
    for step, formulas in steps.items():
        named = {name for kind, formula in formulas for name in formula.inputs[len(inputs[kind]) :]}
        found[step] = tuple(name for name in BASE if name in named)
    return found


def value_order(reads_of: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The steps in an order that works out what a formula names before it; a cycle between values (a
    Defense that names the Stun threshold whose formula names Defense) is refused, naming them."""
    step_of = {name: step for step, names in STEP_VALUES.items() for name in names}
    reads = {
        step: {step_of[name] for name in named if name in step_of}
        for step, named in reads_of.items()
        if step in STEP_VALUES
    }
    try:
        return tuple(graphlib.TopologicalSorter(reads).static_order())
    except graphlib.CycleError as error:
        steps = tuple(dict.fromkeys(error.args[1]))
        places = tuple(place for step in steps for place in STEP_FIELDS[step])
        raise WholeTableError(f"a cycle between values ({' -> '.join(steps)})", places) from None
