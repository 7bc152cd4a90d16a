"""Display names and rule text from the rules tables, in one place so the sheet never digs into them.

An id the tables do not know is a RenderError naming the character-file field that holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from chargen.render.errors import RenderError

if TYPE_CHECKING:
    from chargen.tables import Tables
    from chargen.tables.schema import Armor, Race, Shield, Weapon

T = TypeVar("T")


def _entry(table: Mapping[str, T], key: str, field: str, what: str) -> T:
    try:
        return table[key]
    except KeyError:
        known = ", ".join(sorted(table)[:12])
        raise RenderError(f"character file field {field}: unknown {what} {key!r} (known: {known})") from None


def race(tables: Tables, race_id: str) -> Race:
    return _entry(tables.races, race_id, "race", "race")


def race_name(tables: Tables, race_id: str, race_type: str | None) -> str:
    entry = race(tables, race_id)
    if race_type and entry.types:
        return f"{entry.name} ({_entry(entry.types, race_type, 'race_type', 'race type').name})"
    return entry.name


def gender_name(tables: Tables, gender: str) -> str:
    return _entry(tables.birthrights.genders, gender, "gender", "gender").name  # type: ignore[arg-type]


def hand_name(tables: Tables, hand: str) -> str:
    return _entry(tables.birthrights.hands.names, hand, "hand", "hand")  # type: ignore[arg-type]


def aspect_name(tables: Tables, aspect: str) -> str:
    return _entry(tables.aspects, aspect, "aspect", "aspect").name


def social_status_name(tables: Tables, status: str) -> str:
    rows = tables.heritage.social_status.rows
    return _entry(rows, status, "heritage.social_status", "social status").name


def birth_order_name(tables: Tables, order: str) -> str:
    effects = tables.heritage.birth_order_effects
    return _entry(effects, order, "heritage.birth_order", "order of birth").name  # type: ignore[arg-type]


def sibling_rank_name(tables: Tables, rank: str) -> str:
    return _entry(tables.heritage.sibling_rank.rows, rank, "heritage.sibling_rank", "sibling rank").name


def optional_characteristics(tables: Tables) -> list[tuple[str, str]]:
    return [(entry.code, entry.name) for entry in tables.characteristics.optional]


def weapon(tables: Tables, weapon_id: str, field: str) -> Weapon:
    return _entry(tables.weapons, weapon_id, field, "weapon")


def armor(tables: Tables, armor_id: str) -> Armor:
    return _entry(tables.armor, armor_id, "armor", "armor")


def shield(tables: Tables, shield_id: str) -> Shield:
    return _entry(tables.shields, shield_id, "shield.name", "shield")


@dataclass(frozen=True)
class Effects:
    rule: str
    window: str
    note: str
    rows: list[tuple[str, int]]


def aspect_effects(tables: Tables, aspect: str) -> Effects:
    """The effects table (7.2-7.4) of one aspect, with {season}-style blanks filled from the aspect."""
    entry = _entry(tables.aspects, aspect, "aspect", "aspect")
    effects = tables.aspect_file.effects.get(entry.kind)
    if effects is None:
        return Effects(rule=entry.rule, window="", note="", rows=[])
    blanks = {
        "season": entry.season or "",
        "named_day": entry.named_day or "",
        "opposite_season": entry.opposite_season or "",
    }
    rows = []
    for row in effects.rows:
        when = row.when
        for key, value in blanks.items():
            when = when.replace("{" + key + "}", value)
        rows.append((when, row.effect))
    return Effects(rule=effects.rule, window=effects.window, note=effects.note, rows=rows)
