"""The shape of every rules table under tables/, checked when the tables are loaded."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

PRIMARY_CODES = ("PS", "MD", "AG", "EN", "MA", "WP")
MODIFIABLE_CODES = (*PRIMARY_CODES, "FT", "PC", "TMR")


def _primary(code: str) -> str:
    if code not in PRIMARY_CODES:
        raise ValueError(f"{code!r} is not a primary characteristic ({', '.join(PRIMARY_CODES)})")
    return code


def _modifiable(code: str) -> str:
    if code not in MODIFIABLE_CODES:
        raise ValueError(
            f"{code!r} is not a characteristic a race or gender modifies ({', '.join(MODIFIABLE_CODES)})"
        )
    return code


Primary = Annotated[str, AfterValidator(_primary)]
Modifiable = Annotated[str, AfterValidator(_modifiable)]
DICE_PATTERN = r"^([1-9][0-9]*)?D[1-9][0-9]*([+-][0-9]+)?$"


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Band(Entry):
    """A row read by a die or a value falling between low and high, inclusive."""

    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> Band:
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    def holds(self, value: int) -> bool:
        return self.low <= value <= self.high


class ValueBand(Band):
    value: int


# --- characteristics.yaml (section 5) -------------------------------------------------------------


class PointRow(Entry):
    roll: int = Field(ge=2, le=20)
    points: int = Field(ge=30)
    maximum: int = Field(ge=5)


class PointGeneration(Entry):
    rule: str
    dice: str = Field(pattern=DICE_PATTERN)
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
    from_value: int
    base: int
    step: int = Field(ge=1)


class FatigueTable(Entry):
    rule: str
    rows: list[ValueBand]
    beyond: Beyond


class PerceptionRule(Entry):
    rule: str
    base: int


class TmrTable(Entry):
    rule: str
    rows: list[ValueBand]
    minimum: int = Field(ge=0)


class OptionalCharacteristic(Entry):
    code: str = Field(pattern=r"^[A-Z]{2,3}$")
    name: str
    rule: str
    dice: str = Field(pattern=DICE_PATTERN)
    roll_key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")


class CharacteristicsFile(Entry):
    primaries: list[Primary]
    minimum_value: int
    point_generation: PointGeneration
    allocation_limits: AllocationLimits
    fatigue: FatigueTable
    perception: PerceptionRule
    tmr: TmrTable
    optional: list[OptionalCharacteristic] = []


# --- birthrights.yaml (6.1, 6.2) --------------------------------------------------------------------


class Gender(Entry):
    name: str
    rule: str
    modifiers: dict[Modifiable, int]


class Hands(Entry):
    rule: str
    names: dict[Literal["right", "left", "ambidextrous"], str]


class BirthrightsFile(Entry):
    genders: dict[Literal["male", "female"], Gender]
    hands: Hands


# --- races.yaml (6.3-6.9) ---------------------------------------------------------------------------


class RaceType(Band):
    name: str
    modifiers: dict[Modifiable, int] = {}
    element: str | None = None


class Race(Entry):
    name: str
    rule: str
    chance: int = Field(ge=0, le=100)
    experience_multiplier: float = Field(gt=0)
    modifiers: dict[Modifiable, int]
    life_span: str
    size: int = Field(ge=1)
    abilities: list[str]
    fixed_aspect: str | None = None
    type_rule: str | None = None
    type_dice: str | None = Field(default=None, pattern=DICE_PATTERN)
    types: dict[str, RaceType] = {}

    @model_validator(mode="after")
    def _types_need_dice(self) -> Race:
        if self.types and not self.type_dice:
            raise ValueError("a race with types needs type_dice")
        return self


class RacesFile(Entry):
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
    effect: int


class AspectEffects(Entry):
    rule: str
    window: str
    note: str = ""
    rows: list[EffectRow]


class AspectsFile(Entry):
    rule: str
    dice: str = Field(pattern=DICE_PATTERN)
    aspects: dict[str, Aspect]
    effects: dict[AspectKind, AspectEffects]


# --- heritage.yaml (8) ------------------------------------------------------------------------------


class SocialStatus(Band):
    name: str
    money_multiplier: int = Field(ge=0)


class SocialStatusTable(Entry):
    rule: str
    dice: str
    rows: dict[str, SocialStatus]


class BirthOrderBand(Entry):
    bastard: int = Field(ge=0, le=100)
    legitimate: int = Field(ge=0, le=100)


class BirthOrderTable(Entry):
    rule: str
    dice: str
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
    dice: str
    rows: dict[str, NamedBand]


class AllotmentRow(Band):
    experience: int = Field(ge=0)
    silver: int = Field(ge=0)


class AllotmentTable(Entry):
    rule: str
    dice: str
    rows: list[AllotmentRow]


class HeritageFile(Entry):
    social_status: SocialStatusTable
    birth_order: BirthOrderTable
    birth_order_effects: dict[Literal["bastard", "legitimate", "first-child"], BirthOrderEffect]
    sibling_rank: SiblingRankTable
    starting_allotment: AllotmentTable


# --- weapons.yaml (20.2), shields.yaml (17.5), armor.yaml (18.1) -----------------------------------


class Weapon(Entry):
    name: str
    group: str
    weight: float | None = Field(ge=0)
    weight_text: str | None = None
    ps: int
    md: int
    base_chance: int
    damage_modifier: int | None
    damage_note: str | None = None
    range: int | None = Field(ge=1)
    damage_class: Literal["A", "B", "C"] | None = Field(alias="class")
    use: str = Field(pattern=r"^R?M?C?$", min_length=1)
    cost: int | None = Field(ge=0)
    max_rank: int | None = Field(ge=0)
    hands: Literal["1", "2", "1-2"]
    thrown: bool = False
    note: str | None = None
    shield: str | None = None

    @model_validator(mode="after")
    def _damage_explained(self) -> Weapon:
        if self.damage_modifier is None and not self.damage_note:
            raise ValueError("a weapon without a damage_modifier needs a damage_note")
        return self


class Accessory(Entry):
    name: str
    number: int
    weight: float
    cost: int
    use: str


class WeaponsFile(Entry):
    weapons: dict[str, Weapon]
    groups: dict[str, str]
    notes: dict[str, str]
    accessories: dict[str, Accessory] = {}


class Shield(Entry):
    name: str
    rule: str
    weight: float = Field(ge=0)
    defense_per_rank: int = Field(ge=0)
    manual_dexterity_loss: int = Field(ge=0)
    cost: int = Field(ge=0)
    weapon: str | None = None
    can_strike: bool = True  # 16.5: may be used for a Shield Rush (the Weapons Chart's "Shield")
    note: str | None = None


class ShieldsFile(Entry):
    shields: dict[str, Shield]


class Armor(Entry):
    name: str
    rule: str
    weight: float = Field(ge=0)
    protection: int = Field(ge=0)
    agility_loss: int = Field(ge=0)
    cost: int = Field(ge=0)
    stealth_adjustment: int


class ArmorFile(Entry):
    human_size: int = Field(ge=1)
    armor: dict[str, Armor]


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


class StunRule(Entry):
    rule: str
    endurance_divisor: int = Field(ge=1)
    recovery_willpower_multiplier: int


class BreakageRule(Entry):
    rule: str
    manual_dexterity_multiplier: int


class CombatFile(Entry):
    special_damage: SpecialDamageTable
    grievous_injury_classes: GrievousClasses
    unarmed: UnarmedRule
    stun: StunRule
    breakage: BreakageRule


# --- archetypes.yaml, names.yaml --------------------------------------------------------------------


class ArchetypeItem(Entry):
    name: str
    rank: int | None = Field(default=None, ge=0)


class Archetype(Entry):
    name: str
    favours: dict[Primary, float]
    weapons: list[ArchetypeItem] = []
    armor: list[str] = []
    shield: list[ArchetypeItem] = []

    @model_validator(mode="after")
    def _some_favour(self) -> Archetype:
        if not any(weight > 0 for weight in self.favours.values()):
            raise ValueError("favours needs at least one positive weight")
        if any(weight < 0 for weight in self.favours.values()):
            raise ValueError("favours weights may not be negative")
        return self


class ArchetypesFile(Entry):
    archetypes: dict[str, Archetype]


class NameParts(Entry):
    male: list[str] = Field(min_length=1)
    female: list[str] = Field(min_length=1)
    family: list[str] = []
    # Bynames ("the Bold"); optional, so names files without them still load.
    epithets: list[str] = []


class NamesFile(Entry):
    names: dict[str, NameParts]
