"""What an archetype carries (8.7 with 20.2, 17.5, 18.1): the kit leads with the weapon the allocation aimed
at, an NPC carries nothing far past its PS, a rolled character buys nothing it falls short of, and armor and
shield are the first listed that cost no more than a third of Agility or Manual Dexterity, the shield also
keeping the MD the first weapon asks."""

from __future__ import annotations

import itertools

import pytest

from chargen import api
from chargen.generation import equipment
from chargen.generation.equipment import bought_equipment, given_equipment
from chargen.tables import Tables


def stats(**values: int) -> dict[str, int]:
    """Modified primaries: 12 where not given."""
    return {code: values.get(code, 12) for code in ("PS", "MD", "AG", "EN", "MA", "WP")}


def names(kit: equipment.Equipment) -> list[tuple[str, int | None]]:
    return [(item.name, item.rank) for item in kit.weapons]


def test_an_npc_leads_with_the_first_weapon_it_can_rank(tables: Tables) -> None:
    # PS 14 MD 16: no broadsword (PS 15) nor spear (PS 15) Rank; the dagger (PS 7, MD 10) leads at its Rank 1.
    kit = given_equipment("fighter", stats(PS=14, MD=16), tables)
    assert names(kit) == [("dagger", 1), ("broadsword", None), ("spear", None)]
    # With the broadsword's PS 15 and MD 15 the archetype's own order stands, each at its typical Rank.
    kit = given_equipment("fighter", stats(PS=15, MD=15), tables)
    assert names(kit) == [("broadsword", 3), ("spear", 2), ("dagger", 1)]


def test_an_npc_carries_no_weapon_more_than_three_past_its_strength(tables: Tables) -> None:
    margin = tables.archetype_file.carry_margin
    assert margin == 3
    # The hand-and-a-half sword asks PS 17: carried (unranked) at PS 14, dropped at PS 13.
    assert "hand-and-a-half" in dict(names(given_equipment("knight", stats(PS=14, MD=18), tables)))
    assert "hand-and-a-half" not in dict(names(given_equipment("knight", stats(PS=13, MD=18), tables)))


def test_armor_and_shield_cost_no_more_than_a_third(tables: Tables) -> None:
    # Chainmail costs 2 Agility (18.1): worn from Agility 6; at 5 no scale (3) either, but leather (1).
    assert given_equipment("fighter", stats(AG=6), tables).armor == "chainmail"
    assert given_equipment("fighter", stats(AG=5), tables).armor == "leather"
    # A shield keeps the MD its lead weapon asks (17.1: 5 off the Strike Chance a point short): with the
    # broadsword's MD 15, the large round shield (3 MD, 17.5) from MD 18, the small round (2) at 17, else
    # the buckler (0).
    shields = {
        dexterity: given_equipment("fighter", stats(PS=15, MD=dexterity), tables).shield
        for dexterity in (18, 17, 15)
    }
    assert {dexterity: shield.name if shield else None for dexterity, shield in shields.items()} == {
        18: "large-round-shield",
        17: "small-round-shield",
        15: "buckler",
    }


def test_a_kit_made_once_for_some_stats_is_the_kit_for_them(tables: Tables) -> None:
    """given_equipment keeps each kit for the PS, MD and AG past which nothing changes: the same as making it
    afresh for every value."""
    for name in ("fighter", "knight", "scout", "priest"):
        archetype = tables.archetypes[name]
        for strength, dexterity, agility in itertools.product(
            range(5, 31, 3), range(5, 26, 2), (3, 5, 6, 9, 14)
        ):
            values = stats(PS=strength, MD=dexterity, AG=agility)
            assert given_equipment(name, values, tables) == equipment._given_equipment(
                archetype, values, tables
            )


def test_a_rolled_character_buys_nothing_it_falls_short_of(tables: Tables) -> None:
    human = tables.races["human"]
    # PS 8: the short bow (PS 14), short sword (PS 10) and javelin (PS 12) are all out of reach.
    kit = bought_equipment("scout", stats(PS=8, MD=16, AG=15), 450, human, tables)
    assert kit.weapons == [] and kit.armor == "leather"
    # PS 12 MD 14: the short sword (PS 10, MD 12) leads; no javelin (MD 15).
    kit = bought_equipment("scout", stats(PS=12, MD=14, AG=15), 450, human, tables)
    assert names(kit) == [("short-sword", None)]


def test_a_rolled_character_buys_the_aimed_weapon_then_armor_shield_and_more(tables: Tables) -> None:
    human = tables.races["human"]
    kit = bought_equipment("fighter", stats(PS=16, MD=15, AG=12), 450, human, tables)
    assert names(kit) == [("broadsword", None), ("spear", None), ("dagger", None)]
    # MD 15 is the broadsword's own: only the buckler keeps it (17.5, 17.1).
    assert (kit.armor, kit.shield.name if kit.shield else None) == ("chainmail", "buckler")
    kit = bought_equipment("fighter", stats(PS=16, MD=18, AG=12), 450, human, tables)
    assert (kit.armor, kit.shield.name if kit.shield else None) == ("chainmail", "large-round-shield")
    # 60 Silver Pennies: the broadsword (50), then no armor (leather 20), the buckler (5); no spear (10).
    kit = bought_equipment("fighter", stats(PS=16, MD=15, AG=12), 60, human, tables)
    assert names(kit) == [("broadsword", None)]
    assert (kit.armor, kit.shield.name if kit.shield else None) == (None, "buckler")


@pytest.mark.slow  # many characters bought again
def test_a_kit_bought_once_for_some_stats_and_purse_is_the_kit_for_them(tables: Tables) -> None:
    """bought_kit keeps each kit (and its price and problems) for the race size, PS, MD, AG and purse past which nothing changes:
    the same as buying it afresh for every value, for every archetype and race."""
    for archetype_id, archetype in tables.archetypes.items():
        for race in {race.size: race for race in tables.races.values()}.values():
            for strength, dexterity, agility, purse in itertools.product(
                range(5, 27, 3), range(6, 25, 3), (4, 6, 9, 14), (0, 15, 40, 75, 130, 260, 2000)
            ):
                values = stats(PS=strength, MD=dexterity, AG=agility)
                bought = equipment.bought_kit(archetype_id, values, purse, race, tables)
                fresh = equipment._bought_equipment(archetype, values, purse, race, tables)
                assert bought.equipment == fresh
                assert bought.cost == equipment.equipment_cost(fresh, race, tables)[0]
                assert list(bought.problems) == equipment.check_equipment(fresh, values, tables)


def test_the_readme_dwarf_fighter_carries_a_broadsword(tables: Tables) -> None:
    """The issue's example: the seed-42 dwarf fighter once had MD 13 and only a dagger."""
    hero = api.roll(seed=42, archetype="fighter", race="dwarf", tables=tables)
    broadsword = tables.weapons["broadsword"]
    assert broadsword.ps <= hero.characteristics.PS and broadsword.md <= hero.characteristics.MD
    assert [item.name for item in hero.weapons] == ["broadsword"]
