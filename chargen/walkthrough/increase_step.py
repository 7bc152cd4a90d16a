"""18.5 (optional) in the walk: the optional rules a file may list beside 5.5's characteristics, and, once the
arms are bought (8.7), the system of increased damage for each weapon where the two systems differ."""

from __future__ import annotations

from typing import Any

from chargen.character_file import Item
from chargen.names import resolved
from chargen.render.captions import damage_increase
from chargen.rules.damage_increase import RANK, counted_in_damage, increase_of, rank_bonus
from chargen.tables import Tables
from chargen.walkthrough.walk import Choice, Question, Walk


def optional_rules(tables: Tables) -> dict[str, str]:
    """Each optional rule a character file may list under `optional`, by code, with the record's own
    description of it (every number from the tables). None where the tables' damage formula already does
    its work (18.5 under house-combat): the build would refuse it."""
    if counted_in_damage(tables):
        return {}
    return {tables.combat.damage_increase.code: damage_increase(tables.combat)}


def withheld_rules(tables: Tables) -> str:
    """Why an optional rule is not offered, for the walk to say instead of listing it."""
    if not counted_in_damage(tables):
        return ""
    code = tables.combat.damage_increase.code
    return f"Optional rule {code} is not offered: these rules' damage formula already adds damage for PS."


def _name(entry: Any) -> str:
    return entry if isinstance(entry, str) else str(entry["name"])


def _rank(entry: Any) -> int | None:
    return None if isinstance(entry, str) else entry.get("rank")


def _choices(walk: Walk) -> dict[str, str]:
    """The weapons bought whose damage the choice of system changes, by id, with what each system gives."""
    rule = walk.tables.combat.damage_increase
    if rule.code not in (walk.data.get("optional") or []) or not walk.data.get("weapons"):
        return {}
    strength = walk.preview().characteristics.PS
    choices = {}
    for entry in walk.data["weapons"]:
        weapon = walk.tables.weapons[_name(entry)]
        by_strength = increase_of(weapon, Item(name=_name(entry), rank=_rank(entry)), strength, "", rule)
        by_rank = rank_bonus(_rank(entry), rule)
        if by_strength.bonus or by_rank:
            limits = (
                f", breaks on {by_strength.breaks_on}, Strike Chance at most {by_strength.strike_chance_cap}"
                if by_strength.bonus
                else ""
            )
            choices[_name(entry)] = f"{weapon.name}: PS +{by_strength.bonus}{limits}; Rank +{by_rank}"
    return choices


def increase_question() -> Question:
    """18.5, per weapon: the Physical Strength system (the file's default) or the Rank one (`increase: rank`)."""

    def explain(walk: Walk) -> str:
        rule = walk.tables.combat.damage_increase
        return (
            f"{rule.rule} Damage increase, one system per weapon: by PS unless you name the weapon for Rank. "
            f"{'. '.join(_choices(walk).values())}."
        )

    def take(walk: Walk, text: str) -> str:
        rule = walk.tables.combat.damage_increase
        offered = {weapon: walk.tables.weapons[weapon] for weapon in _choices(walk)}
        by_rank = {
            resolved("weapons.increase", name.strip(), offered, f"a weapon bought that {rule.rule} increases")
            for name in text.split(",")
            if name.strip()
        }
        walk.data["weapons"] = [
            {**({"name": entry} if isinstance(entry, str) else entry), "increase": RANK}
            if _name(entry) in by_rank
            else entry
            for entry in walk.data["weapons"]
        ]
        return "; ".join(
            f"{weapon.name} by {'Rank' if weapon_id in by_rank else 'PS'}"
            for weapon_id, weapon in offered.items()
        )

    return Question(
        "weapons.increase",
        explain,
        lambda walk: (
            "Weapons to increase by Rank instead, separated by commas"
            + walk.face.says(", or Enter for PS on all")
        ),
        take,
        lambda walk: bool(_choices(walk)),
        choices=_offered,
        many=True,
        empty="PS on all",
    )


def _offered(walk: Walk) -> list[Choice]:
    return [
        Choice(key, walk.tables.weapons[key].name, told.partition(": ")[2])
        for key, told in _choices(walk).items()
    ]
