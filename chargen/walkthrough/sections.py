"""The walk's steps as a player thinks of them: grouped in sections, each step titled in the player's words
with its rule number (never a key of the character file), and what a step said shortened to one line."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from chargen.messages import CHARACTERISTIC_WORDS
from chargen.model import Character
from chargen.walkthrough.walk import Walk

#: The sections in the walk's order, by key, with their titles.
SECTIONS = {
    "concept": "Concept",
    "characteristics": "Characteristics",
    "race": "Gender, hand and race",
    "aspect": "Aspect",
    "heritage": "Birth and heritage",
    "arms": "Arms and armour",
    "abilities": "Skills, languages and magic",
    "name": "Name",
}
_ORDINALS = ("first", "second", "third")


class Modified(Protocol):
    """A table entry that may change characteristics: a gender (6.1) or a race (6.2)."""

    @property
    def modifiers(self) -> Mapping[str, object]: ...


_NAMES = {code: name for code, name in CHARACTERISTIC_WORDS.values()}


@dataclass(frozen=True)
class Titled:
    section: str
    title: str


def _heritage(name: str, words: str) -> Callable[[Walk], str]:
    return lambda walk: f"{words} ({getattr(walk.tables.heritage, name).rule})"


_TITLES: dict[str, tuple[str, Callable[[Walk], str]]] = {
    "concept": ("concept", lambda walk: "Concept"),
    "rolls.points": (
        "characteristics",
        lambda walk: f"Characteristic points ({walk.tables.characteristics.point_generation.rule})",
    ),
    "optional": ("characteristics", lambda walk: "Optional characteristics and rules (5.5)"),
    "gender": ("race", lambda walk: "Gender (6.1)"),
    "rolls.hand": ("race", lambda walk: f"Hand ({walk.tables.birthrights.hands.rule})"),
    "rolls.race_type": ("race", lambda walk: _race_type(walk)),
    "rolls.aspect": ("aspect", lambda walk: f"Aspect ({walk.tables.aspect_file.rule})"),
    "rolls.social_status": ("heritage", _heritage("social_status", "Social status")),
    "rolls.birth_order": ("heritage", _heritage("birth_order", "Order of birth")),
    "rolls.sibling_rank": ("heritage", _heritage("sibling_rank", "Sibling rank")),
    "rolls.experience": ("heritage", _heritage("starting_allotment", "Starting Experience")),
    "rolls.silver": ("heritage", _heritage("starting_allotment", "Starting money")),
    "weapons": ("arms", lambda walk: "Weapons (8.7, 20.2)"),
    "weapons.increase": (
        "arms",
        lambda walk: f"Damage increase ({walk.tables.combat.damage_increase.rule}, optional)",
    ),
    "armor": ("arms", lambda walk: "Armour (8.7, 18.1)"),
    "shield": ("arms", lambda walk: "Shield (8.7, 17.5)"),
    "skills": (
        "abilities",
        lambda walk: f"Skills ({walk.tables.abilities.experience.rank_zero_skill.rule})",
    ),
    "languages": ("abilities", lambda walk: f"Languages ({walk.tables.abilities.languages.rule})"),
    "college": ("abilities", lambda walk: "College of magic (34)"),
    "spells": ("abilities", lambda walk: "Talents and spells (34)"),
    "name": ("name", lambda walk: "Name (8.8)"),
    "rest": ("name", lambda walk: "Every step left, chosen for you"),
}


def _race_type(walk: Walk) -> str:
    race = walk.tables.races[walk.preview().race]
    return f"{race.name} type ({race.type_rule or race.rule})"


def titled(walk: Walk, key: str) -> Titled:
    """The section and title of the step with this key."""
    if key in _TITLES:
        section, title = _TITLES[key]
        return Titled(section, title(walk))
    if key.startswith("allocation."):
        code = key.removeprefix("allocation.")
        return Titled("characteristics", f"{_NAMES.get(code, code)} ({code}, 5.2)")
    if key.startswith(("race_attempts[", "rolls.race[")):
        order = _ORDINALS[int(key[-2])]
        what = "race to try" if key.startswith("race_attempts") else "D100 for the try"
        return Titled("race", f"The {order} {what} (6.3)")
    optional = next(
        (item for item in walk.tables.characteristics.optional if key == f"rolls.{item.code}"), None
    )
    if optional is not None:
        return Titled("characteristics", f"{optional.name} ({optional.code}, {optional.rule})")
    return Titled("name", "A further step")  # a step this table has not learnt yet: never its key


def one_line(shown: str) -> tuple[str, str]:
    """What a step said, as a summary line and the rest (its details and warnings, folded on the page)."""
    first, _, rest = shown.partition("\n")
    return first, rest.strip()


#: The record's lines a walk decides, with the last step that decides each (the preview shows a dash
#: until the walk is past it).
_DECIDED_BY = {
    "Name": "name",
    "Gender": "gender",
    "Primary hand": "rolls.hand",
    "Race": "rolls.race[2]",
    "Aspect": "rolls.aspect",
    "Social status": "rolls.social_status",
    "Order of birth": "rolls.sibling_rank",
    "Experience": "rolls.experience",
    "Money": "rolls.silver",
    "Weapons": "weapons",
    "Armor": "armor",
    "Shield": "shield",
    "Skills": "spells",
}


def undecided(walk: Walk) -> frozenset[str]:
    """The record's lines the walk has not decided yet: those of _DECIDED_BY, and each characteristic
    not placed (5.2) or rolled (5.5) yet, with Fatigue while Endurance is not placed (5.3)."""
    characteristics = walk.tables.characteristics
    deciding = {
        **_DECIDED_BY,
        **{code: f"allocation.{code}" for code in characteristics.primaries},
        **{item.code: f"rolls.{item.code}" for item in characteristics.optional},
    }
    keys = [question.key for question in walk.questions]
    at = walk.position if walk.current is not None else len(keys)
    found = {label for label, key in deciding.items() if key in keys and at <= keys.index(key)}
    if "EN" in found:
        found.add("FT")
    return frozenset(found)


def decided_preview(walk: Walk) -> Character:
    """The preview as the page shows it: a gender or race not chosen yet stands in as one without
    modifiers (6.1, 6.2), so the characteristics read as allocated until they are chosen (the record shows
    a dash for the gender and race themselves)."""
    open_steps = undecided(walk)
    if not open_steps & {"Gender", "Race"}:
        return walk.preview()
    data = copy.deepcopy(walk.data)
    gender = _without_modifiers(walk.tables.birthrights.genders.items())
    if "Gender" in open_steps and gender is not None:
        data["gender"] = gender
    race = _without_modifiers((key, race) for key, race in walk.tables.races.items() if not race.types)
    if "Race" in open_steps and race is not None:
        for key in ("race_attempts", "race_type"):
            data.pop(key, None)
        data.get("rolls", {}).pop("race", None)
        data["race"] = race
    return walk.built(data)


def _without_modifiers(entries: Iterable[tuple[str, Modified]]) -> str | None:
    """The first entry that changes no characteristic (human, male in the book's tables), or None."""
    return next((key for key, entry in entries if not entry.modifiers), None)
