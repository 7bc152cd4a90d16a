"""The shape of every rules table under tables/, checked when the tables are loaded.

This module holds the character-generation tables (sections 5-8); the equipment and combat tables are in
equipment_schema and combat_schema and are re-exported here, so `schema.Weapon` works as well as
`schema.Race`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from chargen.tables.base import (
    MODIFIABLE_CODES,
    PRIMARY_CODES,
    Band,
    DiceNotation,
    Entry,
    Modifiable,
    Primary,
    SingleDie,
    ValueBand,
)
from chargen.tables.bounds_schema import EntryCount, Points
from chargen.tables.combat_schema import (
    BreakageRule,
    CombatFile,
    GrievousClasses,
    SpecialDamageRow,
    SpecialDamageTable,
    StunRule,
    UnarmedRule,
)
from chargen.tables.equipment_schema import (
    Accessory,
    Archetype,
    ArchetypeItem,
    ArchetypesFile,
    Armor,
    ArmorFile,
    NameParts,
    NamesFile,
    Shield,
    ShieldsFile,
    Weapon,
    WeaponsFile,
)
from chargen.vocabulary import GenderId, HandId

__all__ = [
    "MODIFIABLE_CODES",
    "PRIMARY_CODES",
    "Accessory",
    "Archetype",
    "ArchetypeItem",
    "ArchetypesFile",
    "Armor",
    "ArmorFile",
    "Band",
    "BreakageRule",
    "CombatFile",
    "Entry",
    "GrievousClasses",
    "Modifiable",
    "NameParts",
    "NamesFile",
    "Primary",
    "Shield",
    "ShieldsFile",
    "SpecialDamageRow",
    "SpecialDamageTable",
    "StunRule",
    "UnarmedRule",
    "ValueBand",
    "Weapon",
    "WeaponsFile",
]


# --- characteristics.yaml (section 5) -------------------------------------------------------------


class PointBand(ValueBand):
    """A row of a chart read by a characteristic's value (5.3, 5.6, 82.9): a value made for each point of
    its range when the tables are indexed, so its numbers stay on a characteristic's scale."""

    low: Points
    high: Points
    value: Points


class PointRow(Entry):
    roll: int = Field(ge=2, le=20)
    points: Points = Field(ge=30)
    maximum: Points = Field(ge=5)


class PointGeneration(Entry):
    rule: str
    dice: DiceNotation
    rows: list[PointRow]


class AllocationLimits(Entry):
    rule: str
    at_maximum: int = Field(ge=1)
    at_maximum_low: int = Field(ge=1)
    low_maximums: list[int]
    one_below: int = Field(ge=0)
    two_below: int = Field(ge=0)
    bonus_without_maximum: int = Field(ge=0)
    transferable_one_below: int = Field(ge=0)


class Beyond(Entry):
    from_value: Points
    base: Points
    step: Points = Field(ge=1)


class FatigueTable(Entry):
    rule: str
    rows: list[PointBand]
    beyond: Beyond


class PerceptionRule(Entry):
    rule: str
    base: Points


class TmrTable(Entry):
    rule: str
    rows: list[PointBand]
    minimum: Points = Field(ge=0)
    average: Points = 5  # 14.1: the average human TMR, the midpoint a giant's average replaces


class OptionalCharacteristic(Entry):
    code: str = Field(pattern=r"^[A-Z]{2,3}$")
    name: str
    rule: str
    dice: DiceNotation
    roll_key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")


class WeightCarried(Entry):
    """82.9: Agility lost for the weight carried. Game Terms: modified Agility is "after it has been modified
    due to weight carried (see 82.9) and armor worn". 82.9's table is not in the rules text: `rows` (pounds
    carried low-high, `value` the Agility lost) are empty for a GM to fill; until then nothing is counted and
    the record says so."""

    rule: str
    rows: list[PointBand] = Field(default_factory=list)
    note: str = ""


class CharacteristicsFile(Entry):
    primaries: list[Primary]
    minimum_value: Points
    point_generation: PointGeneration
    allocation_limits: AllocationLimits
    fatigue: FatigueTable
    perception: PerceptionRule
    tmr: TmrTable
    optional: list[OptionalCharacteristic] = Field(default_factory=list)
    weight_carried: WeightCarried = WeightCarried(rule="82.9")


# --- birthrights.yaml (6.1, 6.2) --------------------------------------------------------------------


class Gender(Entry):
    name: str
    rule: str
    modifiers: dict[Modifiable, Points]


class Hands(Entry):
    rule: str
    names: dict[HandId, str]
    left_die: SingleDie
    right_die: SingleDie


class BirthrightsFile(Entry):
    genders: dict[GenderId, Gender]
    hands: Hands


# --- races.yaml (6.3-6.9) ---------------------------------------------------------------------------


class RaceType(Band):
    name: str
    modifiers: dict[Modifiable, Points] = Field(default_factory=dict)
    element: str | None = None
    # 14.1: a giant type's average TMR (70.1), the midpoint of its chart in place of 5.6's human average;
    # None: not in the rules text, the 5.6 chart is read as for anyone (the race's tmr_note says so).
    average_tmr: Points | None = Field(default=None, ge=1)


class SkillCost(Entry):
    """6.4-6.9: a skill whose Ranks the race advances in for a part of the usual Experience (a half, three
    quarters): the factor multiplies the Cost Chart's price with the race multiplier."""

    factor: float = Field(gt=0, le=1)
    rule: str


class Race(Entry):
    name: str
    rule: str
    chance: int = Field(ge=0, le=100)
    experience_multiplier: float = Field(gt=0)
    modifiers: dict[Modifiable, Points]
    life_span: str
    size: int = Field(ge=1)
    abilities: list[str]
    # Rule 3's record: the starting age (Section IV, 8), added stealth (6.5, 6.7) and magic resistance
    # (6.6, 6.9), in percent; a GM's table may leave them out.
    starting_age: str | None = None
    stealth: int = 0
    magic_resistance: int = 0
    tmr_note: str | None = None  # 14.1: why the record's TMR is read as it is, where the seeds leave it open
    fixed_aspect: str | None = None
    type_rule: str | None = None
    type_dice: DiceNotation | None = None
    types: dict[str, RaceType] = Field(default_factory=dict)
    skill_costs: dict[str, SkillCost] = Field(default_factory=dict)  # by skill id (abilities.yaml)

    @model_validator(mode="after")
    def _types_need_dice(self) -> Race:
        if self.types and not self.type_dice:
            raise ValueError("a race with types needs type_dice")
        return self


class RacesFile(Entry):
    attempts: EntryCount
    attempt_die: SingleDie
    races: dict[str, Race]


# --- aspects.yaml (7) -------------------------------------------------------------------------------

AspectKind = Literal["seasonal", "solar", "lunar", "life", "death"]


class Aspect(Band):
    name: str
    kind: AspectKind
    rule: str
    season: str | None = None
    named_day: str | None = None
    opposite_season: str | None = None


class EffectRow(Entry):
    when: str
    effect: Points


class AspectEffects(Entry):
    rule: str
    window: str
    note: str = ""
    rows: list[EffectRow]


class AspectsFile(Entry):
    rule: str
    dice: DiceNotation
    aspects: dict[str, Aspect]
    effects: dict[AspectKind, AspectEffects]


# --- heritage.yaml (8) ------------------------------------------------------------------------------


class SocialStatus(Band):
    name: str
    money_multiplier: int = Field(ge=0)


class SocialStatusTable(Entry):
    rule: str
    dice: DiceNotation
    rows: dict[str, SocialStatus]


class BirthOrderBand(Entry):
    bastard: int = Field(ge=0, le=100)
    legitimate: int = Field(ge=0, le=100)


class BirthOrderTable(Entry):
    rule: str
    dice: DiceNotation
    bands: dict[str, BirthOrderBand]


class BirthOrderEffect(Entry):
    name: str
    rule: str
    money_factor: float = Field(ge=0)
    experience_factor: float = Field(ge=0)


class NamedBand(Band):
    name: str


class SiblingRankTable(Entry):
    rule: str
    dice: DiceNotation
    rows: dict[str, NamedBand]


class AllotmentRow(Band):
    experience: int = Field(ge=0)
    silver: int = Field(ge=0)


class AllotmentTable(Entry):
    rule: str
    dice: DiceNotation
    rows: list[AllotmentRow]


class HeritageFile(Entry):
    social_status: SocialStatusTable
    birth_order: BirthOrderTable
    birth_order_effects: dict[Literal["bastard", "legitimate", "first-child"], BirthOrderEffect]
    sibling_rank: SiblingRankTable
    starting_allotment: AllotmentTable
