"""Step 8.7: buying arms, armor and a shield within the purse, with what the character's PS and MD allow."""

from __future__ import annotations

from typing import Any

from chargen.names import resolved
from chargen.rules.combat import armor_cost
from chargen.walkthrough.walk import Question, Walk


def _left(walk: Walk) -> int:
    character = walk.preview()
    return character.silver_pennies


def _stats(walk: Walk) -> dict[str, int]:
    return dict(walk.preview().characteristics.items())


def weapons_question() -> Question:
    def explain(walk: Walk) -> str:
        stats, purse = _stats(walk), _left(walk)
        fitting = [
            f"{weapon.name} {weapon.cost}"
            for weapon in walk.tables.weapons.values()
            if weapon.cost is not None
            and weapon.cost <= purse
            and stats["PS"] >= weapon.ps
            and stats["MD"] >= weapon.md
        ]
        return (
            f"8.7 Arms (20.2): buy within your {purse} Silver Pennies; Ranks come later, with Experience. "
            f"Within your PS {stats['PS']} and MD {stats['MD']} and purse: {', '.join(fitting) or 'none'}."
        )

    def take(walk: Walk, text: str) -> str:
        names = [part.strip() for part in text.split(",") if part.strip()]
        walk.data["weapons"] = [
            resolved(f"weapons[{index}]", name, walk.tables.weapons, "on the Weapons Chart (20.2)")
            for index, name in enumerate(names)
        ]
        if not walk.data["weapons"]:
            del walk.data["weapons"]
        return f"{_bought(walk, 'weapons')}; {_left(walk)} Silver Pennies left"

    return Question(
        "weapons",
        explain,
        lambda walk: "Weapons to buy, separated by commas (e.g. Short Sword, Dagger), or Enter for none",
        take,
    )


def _bought(walk: Walk, key: str) -> str:
    chosen: Any = walk.data.get(key)
    if not chosen:
        return "none"
    table = getattr(walk.tables, key)
    return ", ".join(table[item].name for item in (chosen if isinstance(chosen, list) else [chosen]))


def armor_question() -> Question:
    def explain(walk: Walk) -> str:
        size = walk.tables.races[walk.preview().race].size
        human = walk.tables.armor_file.human_size
        priced = ", ".join(
            f"{armor.name} {armor_cost(armor, size, human)}" for armor in walk.tables.armor.values()
        )
        return f"8.7 Armor (18.1), priced for your size; {_left(walk)} Silver Pennies left: {priced}."

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("armor", None)
        if text:
            walk.data["armor"] = resolved("armor", text, walk.tables.armor, "on the Armor Chart (18.1)")
        return f"{_bought(walk, 'armor')}; {_left(walk)} Silver Pennies left"

    return Question("armor", explain, lambda walk: "Armor (e.g. Leather), or Enter for none", take)


def shield_question() -> Question:
    def explain(walk: Walk) -> str:
        priced = ", ".join(f"{shield.name} {shield.cost}" for shield in walk.tables.shields.values())
        return f"8.7 Shield (17.5); {_left(walk)} Silver Pennies left: {priced}."

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("shield", None)
        if text:
            name = resolved("shield", text, walk.tables.shields, "on the Shield Chart (17.5)")
            walk.data["shield"] = name
        shown = walk.tables.shields[walk.data["shield"]].name if "shield" in walk.data else "none"
        return f"{shown}; {_left(walk)} Silver Pennies left"

    return Question("shield", explain, lambda walk: "Shield (e.g. Buckler), or Enter for none", take)
