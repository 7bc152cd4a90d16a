"""Step 8.7: buying arms, armor and a shield within the purse, with what the character's PS and MD allow,
and a warning where the book takes something off for a weapon the character is too weak or clumsy for."""

from __future__ import annotations

from typing import Any

from chargen.errors import InputError
from chargen.names import resolved
from chargen.rules.combat import armor_cost
from chargen.walkthrough.entries import loss, pennies
from chargen.walkthrough.walk import Choice, Question, Walk

#: What the names accept, for `help`.
_SPELLING = "in any case, with spaces or hyphens (chain mail, Hand & Half, kite)"


def _left(walk: Walk) -> int:
    character = walk.preview()
    return character.silver_pennies


def _stats(walk: Walk) -> dict[str, int]:
    return dict(walk.preview().characteristics.items())


def _within_purse(walk: Walk, key: str, purse: int) -> None:
    """8.5/8.7: the kit as now chosen fits the purse, else the step is refused in the walk's words (the
    file's own refusal names a file key the player never sees)."""
    try:
        walk.preview()
    except InputError as error:
        over = next((item for item in error.items if item.label == "equipment"), None)
        if over is None:
            raise
        raise InputError(
            f"{key}: that brings the kit to {pennies(over.value if isinstance(over.value, int) else None)}, "
            f"and the purse holds {purse} (8.5); choose less, or "
            + walk.face.says("press Enter for none", "press None")
        ) from None


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
            f"8.7 Arms (20.2): buy within your {pennies(purse)}; Ranks come later, with Experience. "
            f"Within your PS {stats['PS']} and MD {stats['MD']} and purse: {', '.join(fitting) or 'none'}."
        )

    def take(walk: Walk, text: str) -> str:
        purse = _purse(walk)
        names = [part.strip() for part in text.split(",") if part.strip()]
        walk.data["weapons"] = [
            resolved(f"weapons[{index}]", name, walk.tables.weapons, "on the Weapons Chart (20.2)")
            for index, name in enumerate(names)
        ]
        if not walk.data["weapons"]:
            del walk.data["weapons"]
        _within_purse(walk, "weapons", purse)
        bought = f"{_bought(walk, 'weapons')}; {pennies(_left(walk))} left"
        return "\n".join([bought, *weapon_warnings(walk)])

    return Question(
        "weapons",
        explain,
        lambda walk: f"Weapons to buy, separated by commas (e.g. Short Sword, Dagger){_or_none(walk)}",
        take,
        accepts=lambda walk: _WEAPONS_ACCEPTED + walk.face.says("; Enter buys none"),
        choices=_weapon_choices,
        many=True,
        empty="None",
    )


_WEAPONS_ACCEPTED = (
    f"names from the Weapons Chart (20.2) {_SPELLING}, separated by commas; a weapon above your PS or MD is "
    "sold, with a warning of what it costs you"
)


def _or_none(walk: Walk) -> str:
    return walk.face.says(", or Enter for none")


def _priced(cost: int | None, purse: int) -> str:
    """Why the purse refuses an item on its own (8.5), or "" when it can pay for it."""
    if cost is None:
        return "not for sale (no price on the chart)"
    return f"costs {cost}; your purse holds {purse} (8.5)" if cost > purse else ""


def _weapon_choices(walk: Walk) -> list[Choice]:
    """20.2's weapons with their price and needs; one the purse cannot pay for is refused, one above the
    character's PS or MD is sold with a warning (20.2)."""
    stats, purse = _stats(walk), _left(walk)
    found = []
    for key, weapon in walk.tables.weapons.items():
        short = [
            f"needs {code} {need}, yours {stats[code]}"
            for code, need in (("PS", weapon.ps), ("MD", weapon.md))
            if stats[code] < need
        ]
        note = f"{pennies(weapon.cost)}; needs PS {weapon.ps}, MD {weapon.md}"
        if short:
            note += f"; warning: {', '.join(short)} (20.2)"
        found.append(Choice(key, weapon.name, note, _priced(weapon.cost, purse)))
    return found


def weapon_warnings(walk: Walk) -> list[str]:
    """20.2, for each weapon bought: short of its PS, one less damage a point short (the tables' number) and
    no Rank; short of its modified MD, a lower Base Chance and no Rank. With the values the record will show."""
    character = walk.preview()
    stats = dict(character.characteristics.items())
    combat = walk.tables.combat
    lines = {line.name: line for line in character.combat.weapons}
    warnings = []
    for weapon_id in dict.fromkeys(_name(entry) for entry in walk.data.get("weapons") or []):
        weapon, line = walk.tables.weapons[weapon_id], lines.get(weapon_id)
        if stats["PS"] < weapon.ps:
            per = combat.damage.penalty_per_strength_point_short
            told = (
                f"{per} less damage for each point short"
                if "penalty_per_strength_point_short" in combat.damage.formula
                else "less damage"
            )
            here = f" ({line.damage} here)" if line else ""
            warnings.append(
                f"  warning: the {weapon.name} needs PS {weapon.ps} and yours is {stats['PS']}: it does {told}"
                f"{here}, and takes no Rank until your PS is {weapon.ps} (rule {combat.damage.rule})"
            )
        if stats["MD"] < weapon.md:
            per = combat.strike_chance.md_shortfall_penalty
            here = f" ({line.strike_chance}% here)" if line else ""
            warnings.append(
                f"  warning: the {weapon.name} needs MD {weapon.md} and yours is {stats['MD']}: its Base Chance "
                f"is {per} lower for each point short{here}, and it takes no Rank until your MD is {weapon.md} "
                f"(rule {combat.strike_chance.rule})"
            )
    return warnings


def _name(entry: Any) -> str:
    return entry if isinstance(entry, str) else str(entry["name"])


def _bought(walk: Walk, key: str) -> str:
    chosen: Any = walk.data.get(key)
    if not chosen:
        return "none"
    table = getattr(walk.tables, key)
    return ", ".join(table[_name(item)].name for item in (chosen if isinstance(chosen, list) else [chosen]))


def armor_question() -> Question:
    def explain(walk: Walk) -> str:
        size = walk.tables.races[walk.preview().race].size
        human = walk.tables.armor_file.human_size
        priced = ", ".join(
            f"{armor.name} {armor_cost(armor, size, human)}" for armor in walk.tables.armor.values()
        )
        return f"8.7 Armor (18.1), priced for your size; {pennies(_left(walk))} left: {priced}."

    def take(walk: Walk, text: str) -> str:
        purse = _purse(walk)
        walk.data.pop("armor", None)
        if text:
            walk.data["armor"] = resolved("armor", text, walk.tables.armor, "on the Armor Chart (18.1)")
        _within_purse(walk, "armor", purse)
        return f"{_bought(walk, 'armor')}; {pennies(_left(walk))} left"

    return Question(
        "armor",
        explain,
        lambda walk: f"Armor (e.g. Leather){_or_none(walk)}",
        take,
        accepts=lambda walk: (
            f"one name from the Armor Chart (18.1) {_SPELLING}{walk.face.says('; Enter buys none')}"
        ),
        choices=_armor_choices,
        empty="None",
    )


def _armor_choices(walk: Walk) -> list[Choice]:
    size = walk.tables.races[walk.preview().race].size
    human, purse = walk.tables.armor_file.human_size, _left(walk)
    found = []
    for key, armor in walk.tables.armor.items():
        cost = armor_cost(armor, size, human)
        found.append(
            Choice(
                key,
                armor.name,
                f"{pennies(cost)} for your size; Protection {armor.protection}, {loss('AG', armor.agility_loss)}",
                _priced(cost, purse),
            )
        )
    return found


def shield_question() -> Question:
    def explain(walk: Walk) -> str:
        priced = ", ".join(f"{shield.name} {shield.cost}" for shield in walk.tables.shields.values())
        return f"8.7 Shield (17.5); {pennies(_left(walk))} left: {priced}."

    def take(walk: Walk, text: str) -> str:
        purse = _purse(walk)
        walk.data.pop("shield", None)
        if text:
            name = resolved("shield", text, walk.tables.shields, "on the Shield Chart (17.5)")
            walk.data["shield"] = name
        _within_purse(walk, "shield", purse)
        shown = walk.tables.shields[walk.data["shield"]].name if "shield" in walk.data else "none"
        return f"{shown}; {pennies(_left(walk))} left"

    return Question(
        "shield",
        explain,
        lambda walk: f"Shield (e.g. Buckler){_or_none(walk)}",
        take,
        accepts=lambda walk: (
            f"one name from the Shield Chart (17.5) {_SPELLING}{walk.face.says('; Enter buys none')}"
        ),
        choices=lambda walk: [
            Choice(
                key,
                shield.name,
                f"{pennies(shield.cost)}; Defense +{shield.defense_per_rank} a Rank; "
                f"{loss('MD', shield.manual_dexterity_loss)}",
                _priced(shield.cost, _left(walk)),
            )
            for key, shield in walk.tables.shields.items()
        ],
        empty="None",
    )


def _purse(walk: Walk) -> int:
    """8.5's Silver Pennies: a walk makes its character, so they are known (a file as it stands has none)."""
    purse = walk.preview().starting_silver
    assert purse is not None
    return purse
