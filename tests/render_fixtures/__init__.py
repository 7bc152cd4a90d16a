"""Characters for the renderer's tests: a typical one, a crowded one, and hostile names.

Imported by tests/test_render_*.py as `tests.render_fixtures`.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

CROWDED_WEAPONS = [
    "dagger",
    "broadsword",
    "two-handed-sword",
    "battle-axe",
    "mace",
    "war-hammer",
    "quarterstaff",
    "javelin",
    "spear",
    "short-bow",
]
LONG_NAME = (
    "Aethelgifu Brunhildisdottir-Vanderhoevenmakerkessel of the Seven Windswept Hills beyond the "
    "Grey Marches, Sworn Shield of the Pale Queen, Breaker of the Oathstone, "
    "Honorificabilitudinitatibusandthensomemoreletterswithoutanyspacesatallxxxxxxxxxx"
)


def load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def typical() -> dict[str, Any]:
    """Rolf the Barbarian: a fire giant fighter with two weapons, leather and a shield."""
    return load("rolf.yaml")


def crowded() -> dict[str, Any]:
    """Ten weapons, a very long name, the longest abilities list (shape-changer), PB, equipment."""
    character = typical()
    character["name"] = LONG_NAME
    character["gender"] = "female"
    character["race"] = "shape-changer"
    character["race_type"] = "wolf"
    character["aspect"] = "moon"
    character["characteristics"]["PB"] = 17
    character["rolls"]["beauty"] = [2, 3, 4, 5]
    character["weapons"] = [
        {"name": name, "rank": index % 4 or None} for index, name in enumerate(CROWDED_WEAPONS)
    ]
    rows = []
    for index, name in enumerate(CROWDED_WEAPONS):
        rank = index % 4 or None
        rows.append(
            {
                "name": name,
                "rank": rank,
                "strike_chance": 40 + 3 * index,
                "damage": f"D10+{index}",
                "damage_modifier": index,
                "initiative": 10 + index,
                "endurance_damage": f"01-{10 + index:02d}",
                "grievous_injury": f"01-{index + 1:02d}",
            }
        )
    character["combat"]["weapons"] = rows
    character["equipment"] = [
        {"name": f"Item number {n} of the pack", "weight": 1 + n % 3} for n in range(12)
    ]
    character["notes"] = [
        "A note from the GM that is long enough to wrap onto a second line of the notes box."
    ]
    return character


def named(name: str) -> dict[str, Any]:
    character = typical()
    character["name"] = name
    return character


def with_change(character: dict[str, Any], **changes: Any) -> dict[str, Any]:
    result = copy.deepcopy(character)
    result.update(changes)
    return result


def rolled(seed: int, **choices: Any) -> dict[str, Any]:
    """A character rolled by the core (chargen.api.roll), as `chargen roll --seed N` writes it."""
    from chargen.api import roll
    from chargen.model import to_document

    return to_document(roll(seed=seed, **choices))
