"""A batch NPC as a GM reads it behind the screen: the roster card (chargen.views.roster) and the stat block
(chargen.views.statblock) are both made from its RosterCard. Imported only by a batch that makes them: a
JSONL or CSV batch starts without these classes (their dataclasses and the record's lookups)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from chargen.model import Character, UnarmedLine, WeaponLine
from chargen.render.lookup import race_name
from chargen.tables import Tables
from chargen.vocabulary import EIGHT

if TYPE_CHECKING:
    from chargen.batch.groups import GroupPlan

#: A track's boxes stand in strips of this many, to count damage by at a glance (layout, not a rule).
BOXES_PER_STRIP = 5


class Named(Protocol):
    @property
    def name(self) -> str: ...


@dataclass(frozen=True, slots=True)
class CardWeapon:
    name: str
    rank: int | None
    strike_chance: int
    damage: str
    initiative: int


@dataclass(frozen=True, slots=True)
class CardItem:
    name: str
    protection: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class CardAbility:
    """A skill, talent, spell or ritual as the card and the stat block show it: "Healer", Rank "3"."""

    name: str
    rank: str  # "racial" for a talent the race grants (6.4-6.9)


@dataclass(frozen=True, slots=True)
class CardTrack:
    """Endurance or Fatigue to tick in play: one box per point, numbered from the value down to 1."""

    label: str
    code: str  # the card's short label, as its stats row names the characteristic
    value: int
    marked: (
        int | None
    )  # what is left when the marked box is ticked (Endurance: unconscious at 3, 19), or None

    @property
    def boxes(self) -> list[str]:
        """A box for each point (ticked from the left), as the card's classes: "marked" for the box whose
        tick leaves `marked` (19: the figure whose Endurance reaches 3 falls unconscious, so the box that
        brings it to 3), "end" for the last of each strip of five (to count by at a glance)."""
        return [
            " ".join(
                name
                for name, wanted in (("marked", left == self.marked), ("end", place % BOXES_PER_STRIP == 0))
                if wanted
            )
            for place, left in enumerate(range(self.value - 1, -1, -1), 1)
        ]


@dataclass(frozen=True, slots=True)
class RosterCard:
    """What a GM reads behind the screen, already in display names: small, so a roster of thousands fits.
    The roster card and the stat block (chargen.views.statblock) are both made from it."""

    number: int
    name: str
    archetype: str
    race: str
    gender: str
    characteristics: dict[str, int]
    tmr: int
    defense: int | str  # "—" when a house rule's Defense has no value
    initiative: int
    weapons: list[CardWeapon]
    unarmed: CardWeapon
    armor: CardItem | None
    shield: CardItem | None
    seed: int | None
    unconscious: int  # the Endurance at which 19 knocks the character out (tables/record.yaml)
    college: str = ""  # display name; "" without one
    magic: tuple[CardAbility, ...] = ()  # racial talents, then talents, spells and rituals
    skills: tuple[CardAbility, ...] = ()
    # --group: the group's title and members ("Bandit band 1 of 2"; "" outside a group), and
    # whether this NPC leads it: the roster heads each group and marks its leader.
    group: str = ""
    group_members: str = ""
    leader: bool = False

    @property
    def tracks(self) -> tuple[CardTrack, CardTrack]:
        """Endurance and Fatigue, as the record's page 1 tracks them (chargen.render.tracks)."""
        return (
            CardTrack("Endurance", "EN", self.characteristics["EN"], self.unconscious),
            CardTrack("Fatigue", "FT", self.characteristics["FT"], None),
        )


def _card_weapon(name: str, line: WeaponLine | UnarmedLine) -> CardWeapon:
    return CardWeapon(name, line.rank, line.strike_chance, line.damage, line.initiative)


def roster_card(
    number: int, character: Character, tables: Tables, group: GroupPlan | None = None
) -> RosterCard:
    """NPC `number`'s card; in a --group run, with its group's title and members and its leader mark."""
    combat = character.combat
    archetype = tables.archetypes.get(character.archetype or "")
    armor, shield = combat.armor, combat.shield
    college, magic, skills = _abilities(character, tables)
    return RosterCard(
        number=number,
        name=character.name,
        archetype=archetype.name if archetype else (character.archetype or ""),
        # The record's own words for the race and its type: "Giant (Frost (Water))".
        race=race_name(tables, character.race, character.race_type),
        gender=character.gender,
        characteristics={code: value for code, value in character.characteristics.items() if code in EIGHT},
        tmr=character.tmr,
        defense="\u2014" if combat.defense is None else combat.defense,
        initiative=combat.initiative,
        weapons=[_card_weapon(_display(tables.weapons, line.name), line) for line in combat.weapons],
        unarmed=_card_weapon("Unarmed", combat.unarmed),
        armor=CardItem(_display(tables.armor, armor.name), protection=armor.protection) if armor else None,
        shield=CardItem(_display(tables.shields, shield.name), rank=shield.rank) if shield else None,
        seed=character.seed,
        unconscious=tables.record.endurance.unconscious,
        college=college,
        magic=magic,
        skills=skills,
        group=group.title(group.index_of(number)) if group is not None else "",
        group_members=group.described(tables) if group is not None else "",
        leader=group is not None and group.is_leader(number),
    )


def _abilities(
    character: Character, tables: Tables
) -> tuple[str, tuple[CardAbility, ...], tuple[CardAbility, ...]]:
    """College, magic and skills in the record's own display names (chargen.render.skill_boxes)."""
    from chargen.render import skill_boxes

    magic = skill_boxes.magic(character, tables)
    return (
        magic.college,
        tuple(CardAbility(row.name, row.rank) for row in magic.rows),
        tuple(CardAbility(row.name, row.rank) for row in skill_boxes.skills(character, tables)),
    )


def _display(table: Mapping[str, Named], key: str) -> str:
    entry = table.get(key)
    return entry.name if entry is not None else key
