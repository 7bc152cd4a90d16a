"""NPCs of one archetype differ in kit where the rules allow (second weapons, Ranks, armor), drawn
with each NPC's own dice so the same seed still gives the same NPC. Our choices, not the book's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from chargen.character_file import Item
from chargen.generation.equipment import Equipment, kept_item, rank_problem
from chargen.tables import Tables
from chargen.tables.memo import per_tables

#: How an NPC's given kit varies within its archetype. Each weapon after the first is kept two
#: times in three; each Rank moves one down or up one time in four each way (within what 20.2 allows); the
#: armor is any of the archetype's that its Agility carries (18.1, load_divisor). Our choices, not the book's.
KEEP_SECOND = (True, True, False)
RANK_STEP = (-1, 0, 0, 1)


def varied_equipment(
    base: Equipment,
    archetype_id: str,
    stats: Mapping[str, int],
    choose: Callable[[Sequence[object]], object],
    tables: Tables,
) -> Equipment:
    """`base` (given_equipment's kit) varied by `choose` (the NPC's own dice), so NPCs of one archetype
    differ in their second weapons, Ranks and armor as the rules allow; the first weapon (the one the
    allocation aimed at) and the shield stay. A varied Rank is one 20.2 allows (rank_problem)."""
    if not base.weapons:
        return base
    lead, *rest = base.weapons
    weapons = [lead, *(item for item in rest if choose(KEEP_SECOND))]
    varied = [_varied_item(item, stats, choose, tables) for item in weapons]
    carried = _carried_armor(archetype_id, stats["AG"], tables)
    armor = str(choose(carried)) if len(carried) > 1 else base.armor
    return Equipment(varied, armor, base.shield)


@per_tables(4096)
def _carried_armor(archetype_id: str, agility: int, tables: Tables) -> tuple[str, ...]:
    """The archetype's armor an Agility carries, worked out once per Tables: a batch meets few of these."""
    divisor = tables.archetype_file.load_divisor
    armor = tables.archetypes[archetype_id].armor
    return tuple(name for name in armor if tables.armor[name].agility_loss * divisor <= agility)


def _varied_item(
    item: Item, stats: Mapping[str, int], choose: Callable[[Sequence[object]], object], tables: Tables
) -> Item:
    step = choose(RANK_STEP)
    if item.rank is None or not step or not isinstance(step, int):
        return item
    rank = max(0, item.rank + step)
    if rank == item.rank or rank_problem(tables.weapons[item.name], rank, stats["PS"], stats["MD"]):
        return item
    return kept_item(item.name, rank)
