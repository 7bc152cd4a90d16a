"""The shape of tables/abilities.yaml: skills (48-62), languages (49), colleges and magic (34-47) and the
Experience that 8.6 charges for them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from chargen.tables.base import Entry
from chargen.tables.bounds_schema import Points, RankBound

MagicKind = Literal["talent", "spell", "ritual"]


class Skill(Entry):
    name: str
    rule: str
    max_rank: RankBound | None = None


class Language(Entry):
    name: str
    max_rank: RankBound | None = None


class Languages(Entry):
    """49: `open` accepts a name the entries do not list, as written."""

    rule: str
    open: bool
    entries: dict[str, Language]


class College(Entry):
    name: str
    rule: str
    element: str | None = None


class MagicEntry(Entry):
    """A talent, spell or ritual; `columns` (base chance, range, ...) are printed as a GM writes them."""

    name: str
    kind: MagicKind
    rule: str | None = None
    college: str | None = None
    max_rank: RankBound | None = None
    columns: dict[str, str] = Field(default_factory=dict)
    granted_to: list[str] = Field(default_factory=list)
    # 4.2: minor magic (glamour, cantrip, trance) may be attempted by any character, of any college or none.
    minor: bool = False
    description: str | None = None  # in our own words, for the GM; the record does not print it


class Magic(Entry):
    open: bool
    entries: dict[str, MagicEntry]


class RankZeroSkill(Entry):
    rule: str
    cost: int = Field(ge=0)


#: One entry's prices on the chart: the Experience of each Rank (or characteristic value) reached.
Prices = dict[int, Annotated[int, Field(ge=0)]]


class CostChart(Entry):
    """The Experience Point Cost Chart (87.7, not in the seeds: a GM fills it): per entry id, the Experience
    of each Rank (`rank: points`); per characteristic code, of each value raised to (`value: points`). The
    race multiplier (6.x) is applied to what it gives."""

    rule: str
    skills: dict[str, Prices]
    languages: dict[str, Prices]
    magic: dict[str, Prices]
    characteristics: dict[str, Prices] = Field(default_factory=dict)
    weapons: dict[str, Prices] = Field(default_factory=dict)
    shields: dict[str, Prices] = Field(default_factory=dict)
    unarmed: Prices = Field(default_factory=dict)


class Experience(Entry):
    rank_zero_skill: RankZeroSkill
    cost_chart: CostChart


class TypicalRank(Entry):
    """A skill or magic entry an archetype's NPCs know, by abilities.yaml id, at a typical Rank (ours)."""

    name: str
    rank: RankBound


class TypicalAbilities(Entry):
    """What an NPC of an archetype is given (8.6: given, not bought): our choices, not the book's.
    `colleges` is a preference list: the NPC joins the first its race may (6.6); `magic` entries tied to
    another college are left out."""

    skills: list[TypicalRank] = Field(default_factory=list)
    colleges: list[str] = Field(default_factory=list)
    magic: list[TypicalRank] = Field(default_factory=list)


class AbilitiesFile(Entry):
    skills: dict[str, Skill]
    languages: Languages
    colleges: dict[str, College]
    opposed_elements: dict[str, str]
    magic: Magic
    experience: Experience


# --- record.yaml: what the Character Record tracks during play ------------------------------------------


class EnduranceTrack(Entry):
    rule: str
    unconscious: Points = Field(ge=0)


class FatigueTrack(Entry):
    rule: str


class AgilityEffect(Entry):
    """15.1-15.3: a band of modified Agility and what it does."""

    low: Points
    high: Points
    rule: str
    effect: str


class Kick(Entry):
    rule: str
    rank: RankBound


class SecondaryHand(Entry):
    rule: str
    strike_chance: int
    multiple_strike: int


class Knockout(Entry):
    rule: str
    percent: int = Field(ge=0, le=100)
    reading: Literal["chart", "exact"]  # 16.5 read through the 18.2 chart, or as exact arithmetic
    barred_groups: list[str]
    barred_weapons: list[str]


class RecordFile(Entry):
    endurance: EnduranceTrack
    fatigue: FatigueTrack
    agility: list[AgilityEffect]
    kick: Kick
    secondary_hand: SecondaryHand
    knockout: Knockout
