"""Steps 8.1-8.5: social status, order of birth, sibling rank, starting Experience and Silver Pennies."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from chargen.dice import Dice
from chargen.tables import Tables
from chargen.tables.schema import AllotmentRow


@dataclass(slots=True, kw_only=True)  # made every roll, never changed (decisions.py: why not frozen)
class Heritage:
    """8.1-8.5's outcome."""

    social_status: str
    money_multiplier: int
    birth_order: str
    sibling_rank: str | None
    experience_points: int
    starting_silver: int


def heritage(dice: Dice, tables: Tables) -> Heritage:
    table = tables.heritage
    status_roll = dice.roll("social_status", table.social_status.dice, table.social_status.rule)
    status_id = tables.index.social_status(status_roll)
    status = table.social_status.rows[status_id]
    order_roll = dice.roll("birth_order", table.birth_order.dice, table.birth_order.rule)
    band = table.birth_order.bands[status_id]
    order: Literal["bastard", "legitimate", "first-child"]
    if order_roll <= band.bastard:
        order = "bastard"
    elif order_roll <= band.legitimate:
        order = "legitimate"
    else:
        order = "first-child"
    sibling = None
    if order == "legitimate":  # 8.4: only a legitimate child rolls for sibling rank
        sibling_roll = dice.roll("sibling_rank", table.sibling_rank.dice, table.sibling_rank.rule)
        sibling = tables.index.sibling_rank(sibling_roll)
    allotment = table.starting_allotment
    experience_row = _allotment_row(dice.roll("experience", allotment.dice, allotment.rule), tables)
    silver_row = _allotment_row(dice.roll("silver", allotment.dice, allotment.rule), tables)
    effect = table.birth_order_effects[order]
    return Heritage(
        social_status=status_id,
        money_multiplier=status.money_multiplier,
        birth_order=order,
        sibling_rank=sibling,
        experience_points=starting_experience(experience_row.experience, effect.experience_factor),
        starting_silver=starting_silver(silver_row.silver, status.money_multiplier, effect.money_factor),
    )


def _allotment_row(roll: int, tables: Tables) -> AllotmentRow:
    return tables.heritage.starting_allotment.rows[tables.index.allotment(roll)]


def starting_experience(table_value: int, birth_order_factor: float) -> int:
    """8.3 and 8.5: the table's Experience times the order-of-birth factor, fractions dropped."""
    return math.floor(table_value * birth_order_factor)


def starting_silver(table_value: int, money_multiplier: int, birth_order_factor: float) -> int:
    """8.5: the table's Silver Pennies x the money multiplier (8.1) x the order-of-birth factor (8.3)."""
    return math.floor(table_value * money_multiplier * birth_order_factor)
