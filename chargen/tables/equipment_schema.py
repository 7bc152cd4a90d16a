"""The shape of the equipment tables: 17.5 shields, 18.1 armor, 20.2 weapons, and the archetypes and names
a rolled character or NPC is made with. combat.yaml's (18.2-21 combat values) is combat_schema."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from chargen.printable import check_printable
from chargen.tables.abilities_schema import TypicalAbilities
from chargen.tables.base import Entry, Primary
from chargen.tables.bounds_schema import RankBound
from chargen.vocabulary import GenderId

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
    max_rank: RankBound | None
    hands: Literal["1", "2", "1-2"]
    thrown: bool = False
    note: str | None = None
    shield: str | None = None
    # A house rule's (seed 004) Defensive Value per Rank; the book has none, and a ruleset without the numbers
    # leaves it empty (the record then shows "—" for a Defense that needs it).
    defensive_modifier: int | None = None

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
    accessories: dict[str, Accessory] = Field(default_factory=dict)


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
    defensive_modifier: int | None = None  # as a weapon's (a house rule's; the book has none)


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
    weight_adjustment_by_gender: dict[GenderId, float]
    armor: dict[str, Armor]


# --- archetypes.yaml, names.yaml --------------------------------------------------------------------


class ArchetypeItem(Entry):
    name: str
    rank: RankBound | None = None


class Archetype(Entry):
    name: str
    abilities: TypicalAbilities = Field(default_factory=TypicalAbilities)  # skills and magic
    favours: dict[Primary, float]
    weapons: list[ArchetypeItem] = Field(default_factory=list)
    armor: list[str] = Field(default_factory=list)
    shield: list[ArchetypeItem] = Field(default_factory=list)
    adventurer: bool = False  # `chargen roll` without an archetype picks among these

    @model_validator(mode="after")
    def _some_favour(self) -> Archetype:
        if not any(weight > 0 for weight in self.favours.values()):
            raise ValueError("favours needs at least one positive weight")
        if any(weight < 0 for weight in self.favours.values()):
            raise ValueError("favours weights may not be negative")
        return self


class ArchetypesFile(Entry):
    weapons_bought: int = Field(ge=0)
    carry_margin: int = Field(ge=0)
    load_divisor: int = Field(gt=0)
    archetypes: dict[str, Archetype]


#: A part of a name: only characters the record's fonts can print (chargen.printable).
NamePart = Annotated[str, AfterValidator(check_printable)]


class NameParts(Entry):
    male: list[NamePart] = Field(min_length=1)
    female: list[NamePart] = Field(min_length=1)
    family: list[NamePart] = Field(default_factory=list)
    # Bynames ("the Bold"); optional, so names files without them still load.
    epithets: list[NamePart] = Field(default_factory=list)


class NamesFile(Entry):
    names: dict[str, NameParts]
