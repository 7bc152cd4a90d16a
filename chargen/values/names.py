"""The values of the graph a formula may name: each value of a character (not of one weapon line) by the
name a formula gives it, with the key `chargen explain` takes and the label the record prints.

A ruleset's own values (`add: combat: values:`) are named by their key, `-` written `_`; a house rule's
Defense postures as `defense_` and the posture's name."""

from __future__ import annotations

from collections.abc import Iterable

#: formula name: (key, label), in the record's order.
BASE: dict[str, tuple[str, str]] = {
    "physical_strength": ("characteristics.PS", "Physical Strength"),
    "manual_dexterity": ("characteristics.MD", "Manual Dexterity"),
    "agility": ("characteristics.AG", "Agility"),
    "endurance": ("characteristics.EN", "Endurance"),
    "magical_aptitude": ("characteristics.MA", "Magical Aptitude"),
    "willpower": ("characteristics.WP", "Willpower"),
    "fatigue": ("characteristics.FT", "Fatigue"),
    "perception": ("characteristics.PC", "Perception"),
    "tmr_unarmored": ("tmr", "TMR unarmored"),
    "modified_agility": ("modified_agility", "modified Agility"),
    "modified_manual_dexterity": ("modified_manual_dexterity", "modified Manual Dexterity"),
    "defense": ("defense", "Defense"),
    "tmr_armored": ("combat.tmr", "TMR armored"),
    "initiative": ("initiative", "Initiative"),
    "stun_threshold": ("stun_threshold", "Stun threshold"),
    "stun_recovery": ("stun_recovery", "Stun recovery"),
    "breakage_check": ("breakage_check", "Breakage / drop"),
    "unarmed_base_chance": ("unarmed.base_chance", "Unarmed Base Chance"),
    "unarmed_strike_chance": ("unarmed.strike_chance", "Unarmed Strike Chance"),
    "unarmed_initiative": ("unarmed.initiative", "Unarmed Initiative"),
}
POSTURE_PREFIX = "defense_"


def formula_name(key: str) -> str:
    """The name a formula gives a ruleset's own value (or a posture's name): `-` is written `_`."""
    return key.replace("-", "_")


def posture_names(postures: Iterable[str]) -> dict[str, tuple[str, str]]:
    """A house rule's Defense postures as values a formula may name."""
    return {
        POSTURE_PREFIX + formula_name(posture): (
            f"defense_postures.{posture}",
            f"Defense, {posture.replace('_', ' ')}",
        )
        for posture in postures
    }
