"""The shape of combat.yaml: the rules that work out the record's combat values (17.1, 17.3, 18.2, 18.3,
18.5, 19, 21), each formula checked against the inputs it is given when the tables load."""

from __future__ import annotations

import graphlib
from collections.abc import Mapping
from functools import cached_property
from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo, model_validator

from chargen.formulas import Formula, FormulaError, Number, compile_formula, constants_of
from chargen.tables.base import Band, Entry
from chargen.values.names import BASE, formula_name, posture_names
from chargen.values.order import step_reads, value_order

# The named inputs each formula of combat.yaml is given, in calling order (besides its own section's numbers).
INPUTS: dict[str, tuple[str, ...]] = {
    "strike": ("base", "md", "modified_md", "md_minimum", "md_short", "rank", "ps", "ps_minimum"),
    "initiative": ("modified_agility", "perception", "rank", "weapon_master_rank"),
    "defense": (
        "modified_agility",
        "shield_defense_per_rank",
        "shield_rank",
        "shield_defense",
        "weapon_defense",
        "shield_defensive_modifier",
    ),
    "damage": (
        "modifier",
        "ps",
        "ps_minimum",
        "ps_short",
        "ps_over",
        "two_handed",
        "class_a",
        "class_b",
        "class_c",
    ),
    "chance": ("modified_agility", "ps"),
    "damage_unarmed": ("ps",),
    "threshold": ("endurance",),
    "recovery": ("willpower", "fatigue"),
    "breakage": ("modified_md",),
}


# What each input means, for `chargen rules inputs` (and so docs/house-rules.md, whose example runs it).
MEANINGS: dict[str, str] = {
    "base": "the weapon's Base Chance (20.2), or the unarmed Base Chance (21)",
    "md": "Manual Dexterity",
    "modified_md": "Manual Dexterity less a prepared shield's loss (17.5)",
    "md_minimum": "the weapon's minimum Manual Dexterity (0 unarmed)",
    "md_short": "points of modified MD below md_minimum (0 when not short)",
    "rank": "Rank with the weapon (0 when unranked)",
    "ps": "Physical Strength",
    "ps_minimum": "the weapon's minimum Physical Strength (0 unarmed)",
    "ps_short": "points of PS below ps_minimum",
    "ps_over": "points of PS above ps_minimum",
    "modified_agility": "Agility less the armor's loss (18.1)",
    "perception": "Perception",
    "weapon_master_rank": "Rank as Weapon Master (always 0: chargen gives no such skill)",
    "shield_defense_per_rank": "the prepared shield's defense per Rank (0 without one)",
    "shield_rank": "Rank with the prepared shield (0 without one)",
    "shield_defense": "shield_defense_per_rank x shield_rank",
    "weapon_defense": "the first weapon's Rank x its defensive_modifier (a house rule's; none: defense.defensive_modifier_fallback, else —)",
    "shield_defensive_modifier": "the prepared shield's defensive_modifier (a house rule's; none: the value is —)",
    "modifier": "the Weapons Chart's damage modifier",
    "two_handed": "1 when a (1-2) weapon is used two-handed, else 0",
    "class_a": "1 for a class A weapon, else 0 (class_b, class_c alike)",
    "class_b": "",
    "class_c": "",
    "endurance": "Endurance",
    "willpower": "Willpower",
    "fatigue": "Fatigue",
}
FORMULA_FIELDS: dict[str, str] = {
    "strike": "strike_chance.ranked, strike_chance.unranked",
    "initiative": "initiative.formula",
    "defense": "defense.formula, defense.postures.NAME",
    "damage": "damage.formula",
    "chance": "unarmed.chance",
    "damage_unarmed": "unarmed.damage",
    "threshold": "stun.threshold",
    "recovery": "stun.recovery",
    "breakage": "breakage.check",
}


#: The values of the graph (chargen.values.names.BASE) a formula of each kind may name besides its own
#: inputs: a house rule's Defense may read the Stun threshold as an added value may.
GRAPH_INPUTS: dict[str, tuple[str, ...]] = {
    kind: tuple(name for name in BASE if name not in inputs) for kind, inputs in INPUTS.items()
}
# Roll20's sheet values evaluate the unarmed Base Chance and damage on their own inputs
# (chargen.export.roll20_shown), so those two name only theirs.
GRAPH_INPUTS["chance"] = GRAPH_INPUTS["damage_unarmed"] = ()


def compiled_kind(text: str, kind: str, constants: Mapping[str, Number]) -> Formula:
    """A formula of `kind`: a function of its own inputs, then of the values of the graph it names (none
    for the book's), in the graph's order."""
    every = compile_formula(text, INPUTS[kind] + GRAPH_INPUTS[kind], constants)
    named = tuple(name for name in GRAPH_INPUTS[kind] if name in every.used)
    return compile_formula(text, INPUTS[kind] + named, constants)


def checked(text: str, info: ValidationInfo, inputs: tuple[str, ...]) -> str:
    """A formula field's validator: compiles once to check it (the error lands on the field's key)."""
    compile_formula(text, inputs, constants_of(info.data))
    return text


def formula_of(kind: str) -> AfterValidator:
    """The validator of a formula field given the inputs of `kind`."""
    return AfterValidator(lambda text, info: checked(text, info, INPUTS[kind] + GRAPH_INPUTS[kind]))


def compiled(section: Entry, field: str, kind: str | None = None) -> Formula:
    values = section.model_dump(by_alias=False)
    return compiled_kind(getattr(section, field), kind or field, constants_of(values))


# --- combat.yaml (18.2, 18.3, 19, 21, 17.3) ---------------------------------------------------------


class SpecialDamageRow(Entry):
    low: int
    high: int | None
    grievous_high: int | None
    endurance_high: int


class SpecialDamageTable(Entry):
    rule: str
    rows: list[SpecialDamageRow]


class GrievousClasses(Entry):
    rule: str
    A: Band
    B: Band
    C: Band


class UnarmedRule(Entry):
    rule: str
    agility_multiplier: int
    strength_threshold: int
    chance_per_strength_point: int
    damage_modifier: int
    strength_points_per_damage: int = Field(ge=1)
    kick_from_rank: int
    trip_from_rank: int | None = None  # a house rule's (seed 004); the book has no trips
    # the Base Chance; a Rank then adds strike_chance.ranked's terms like any weapon
    chance: Annotated[str, formula_of("chance")]
    damage: Annotated[str, formula_of("damage_unarmed")]

    @cached_property
    def chance_formula(self) -> Formula:
        return compiled(self, "chance")

    @cached_property
    def damage_formula(self) -> Formula:
        return compiled(self, "damage", "damage_unarmed")


class StunRule(Entry):
    rule: str
    endurance_divisor: int = Field(ge=1)
    recovery_willpower_multiplier: int
    threshold: Annotated[str, formula_of("threshold")]
    recovery: Annotated[str, formula_of("recovery")]

    @cached_property
    def threshold_formula(self) -> Formula:
        return compiled(self, "threshold")

    @cached_property
    def recovery_formula(self) -> Formula:
        return compiled(self, "recovery")


class BreakageRule(Entry):
    rule: str
    manual_dexterity_multiplier: int
    check: Annotated[str, formula_of("breakage")]

    @cached_property
    def check_formula(self) -> Formula:
        return compiled(self, "check", "breakage")


class DamageIncreaseRule(Entry):
    """18.5 (optional): the Physical Strength and Rank systems of increased damage."""

    rule: str
    code: str  # what a character file lists under `optional`
    strength_points_per_bonus: int = Field(ge=1)
    breakage_per_bonus: int = Field(ge=0)
    breaks_on: int = Field(ge=1, le=100)
    strength_barred_groups: list[str]
    rank_per_bonus: int = Field(ge=1)


class StrikeChanceRule(Entry):
    rule: str
    md_shortfall_penalty: int = Field(ge=0)
    rank_multiplier: int
    adds_modified_manual_dexterity: bool
    ranked: Annotated[str, formula_of("strike")]
    unranked: Annotated[str, formula_of("strike")]

    @cached_property
    def ranked_formula(self) -> Formula:
        return compiled(self, "ranked", "strike")

    @cached_property
    def unranked_formula(self) -> Formula:
        return compiled(self, "unranked", "strike")


class InitiativeRule(Entry):
    rule: str
    rank_multiplier: int
    formula: Annotated[str, formula_of("initiative")]

    @cached_property
    def compiled(self) -> Formula:
        return compiled(self, "formula", "initiative")


class DefenseRule(Entry):
    rule: str
    formula: Annotated[str, formula_of("defense")]
    # A house rule's Defense in other postures (seed 004: all-out, defensive, evading), printed beside Defense.
    postures: dict[str, Annotated[str, formula_of("defense")]] = Field(default_factory=dict)
    # A house rule's stated fallback: the defensive_modifier of a weapon whose table gives none (seed 004
    # gives no table of them; its ruleset counts such a weapon's Defensive Value as 0). None: "—".
    defensive_modifier_fallback: int | None = None

    @cached_property
    def posture_formulas(self) -> dict[str, Formula]:
        return {name: compiled_kind(text, "defense", {}) for name, text in self.postures.items()}

    @cached_property
    def compiled(self) -> Formula:
        return compiled(self, "formula", "defense")


class DamageRule(Entry):
    rule: str
    penalty_per_strength_point_short: int = Field(ge=0)
    two_handed_bonus: int
    formula: Annotated[str, formula_of("damage")]

    @cached_property
    def compiled(self) -> Formula:
        return compiled(self, "formula", "damage")


class AddedValue(Entry):
    """A ruleset's own value (`add: combat: values: KEY:`): worked out by its formula from the values of
    the graph (chargen.values.names), printed on the record with its label, explained with its rule."""

    label: str = Field(min_length=1, max_length=80)
    formula: str
    rule: str = Field(min_length=1, max_length=80)


class CombatFile(Entry):
    strike_chance: StrikeChanceRule
    initiative: InitiativeRule
    defense: DefenseRule
    damage: DamageRule
    special_damage: SpecialDamageTable
    grievous_injury_classes: GrievousClasses
    unarmed: UnarmedRule
    stun: StunRule
    breakage: BreakageRule
    damage_increase: DamageIncreaseRule
    # A ruleset's own values, each from the values of the graph (checked when the tables load).
    values: Annotated[
        dict[str, AddedValue], AfterValidator(lambda values, info: _values_checked(values, info))
    ] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _ordered(self) -> CombatFile:
        """A cycle between the values the formulas name is refused when the tables load."""
        value_order(self.step_reads)
        return self

    def graph_names(self) -> dict[str, tuple[str, str]]:
        """Every value a formula may name: formula name: (key, label)."""
        return _graph_names(self.defense, self.values)

    @cached_property
    def value_order(self) -> tuple[str, ...]:
        """The steps that work out one character's combat values (chargen.values.graph), in an order that
        works out each value a formula names before it (the book's name none)."""
        return value_order(self.step_reads)

    @cached_property
    def step_reads(self) -> dict[str, tuple[str, ...]]:
        """The values of the graph each step's formulas name, and a weapon line's (`weapons`)."""
        return step_reads(self, INPUTS)

    @cached_property
    def named(self) -> frozenset[str]:
        """The values of the graph some formula names past its own inputs (a ruleset's own values' every
        input among them): those a character's evaluation must have by name."""
        named = {name for reads in self.step_reads.values() for name in reads}
        return frozenset(named.union(*(formula.inputs for formula in self.added_formulas.values())))

    @cached_property
    def added_formulas(self) -> dict[str, Formula]:
        """Each added value's compiled formula, by key, in an order that works out what a value reads
        before it."""
        return _added_formulas(self.defense, self.values)


def _graph_names(defense: DefenseRule, values: dict[str, AddedValue]) -> dict[str, tuple[str, str]]:
    names = {**BASE, **posture_names(defense.postures)}
    for key, value in values.items():
        if formula_name(key) in names or not formula_name(key).isidentifier():
            raise FormulaError(f"{key}: a value's key is a new name, of letters, digits, - and _")
        names[formula_name(key)] = (key, value.label)
    return names


def _added_formulas(defense: DefenseRule, values: dict[str, AddedValue]) -> dict[str, Formula]:
    """The compiled formulas in the order they are worked out; a cycle between values is refused,
    naming them."""
    names = tuple(_graph_names(defense, values))
    formulas = {}
    for key, value in values.items():
        try:
            formulas[key] = compile_formula(value.formula, names, {})
        except FormulaError as error:
            raise FormulaError(f"{key}.formula: {error}") from None
    by_name = {formula_name(key): key for key in values}
    reads = {
        key: {by_name[name] for name in formula.used if name in by_name} for key, formula in formulas.items()
    }
    try:
        order = tuple(graphlib.TopologicalSorter(reads).static_order())
    except graphlib.CycleError as error:
        cycle = " -> ".join(dict.fromkeys(error.args[1]))
        raise FormulaError(f"a cycle between values ({cycle})") from None
    return {key: formulas[key] for key in order}


def _values_checked(values: dict[str, AddedValue], info: ValidationInfo) -> dict[str, AddedValue]:
    """Each added value names only values of the graph, and no value rests on itself (at load)."""
    defense = info.data.get("defense")
    if isinstance(defense, DefenseRule):
        _added_formulas(defense, values)
    return values
