"""NPCs a GM fields as they come. 2,000 NPCs of every archetype: no shield behind a
two-handed first weapon (20); every caster (an archetype with colleges) has a college and at least one
talent or spell; and NPCs of one archetype vary in kit where the rules and the purse allow."""

from __future__ import annotations

import pytest

from chargen.batch.mix import Mix
from chargen.batch.npc import Plan, make_character
from chargen.model import Character
from chargen.tables import Tables, load_tables

COUNT = 2000


def npcs(tables: Tables, archetype: str, count: int, seed: int = 77) -> list[Character]:
    plan = Plan(run_seed=seed, archetypes=Mix((archetype,), (1.0,)), races=None, gender=None, count=count)
    return [make_character(plan, number, tables) for number in range(1, count + 1)]


def kit(npc: Character) -> tuple[object, ...]:
    return (tuple((item.name, item.rank) for item in npc.weapons), npc.armor, npc.shield)


@pytest.mark.slow  # many rolled characters
@pytest.mark.parametrize("archetype", sorted(load_tables().archetypes))
def test_two_thousand_npcs_of_each_archetype_are_fielded_as_they_come(tables: Tables, archetype: str) -> None:
    casts = bool(tables.archetypes[archetype].abilities.colleges)
    for npc in npcs(tables, archetype, COUNT):
        if npc.weapons and tables.weapons[npc.weapons[0].name].hands == "2":
            assert npc.shield is None, f"{archetype} seed {npc.seed}: {npc.weapons[0].name} and a shield"
        if casts:
            assert npc.college in tables.abilities.colleges, f"{archetype} seed {npc.seed}: no college"
            assert any(spell.kind in ("talent", "spell") for spell in npc.spells), npc.seed


def test_600_soldiers_carry_no_shield_with_a_pike(tables: Tables) -> None:
    # The reproduction: `batch -n 600 --seed 77` gave 16 soldiers a Pike and a shield.
    soldiers = npcs(tables, "soldier", 600)
    pikes = [npc for npc in soldiers if npc.weapons and npc.weapons[0].name == "pike"]
    assert pikes and all(npc.shield is None for npc in pikes)
    assert all(npc.combat.defense == npc.combat.modified_agility for npc in pikes)


@pytest.mark.parametrize(("archetype", "at_least"), [("fighter", 30), ("soldier", 30), ("mercenary", 30)])
def test_npcs_of_one_archetype_vary_in_kit(tables: Tables, archetype: str, at_least: int) -> None:
    # Once, all five fighters of a batch carried Broadsword 3, Spear 2, Dagger 1: 4 distinct kits
    # in 100 fighters. Now second weapons, Ranks and armor vary (docs/npcs.md gives the figures).
    kits = {kit(npc) for npc in npcs(tables, archetype, 100, seed=5)}
    assert len(kits) >= at_least
