"""The Roll20 export's word on the sheet's load table, at each edge of a band: the sheet takes Agility off
only for pounds above a limit (tables/export_roll20.yaml `load`), and all of it only above the band's last.
A PS 18 porter carries the money chargen gives him (1/16 pound a coin) and a sack weighed to land on each
edge: the pounds allowed, and a coin's weight more."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from chargen import api
from chargen.export import export_document
from chargen.export.targets import LoadBand, roll20_names
from chargen.tables import Tables, load_tables
from tests.consumers import dqsheet

PORTER = """
name: Porter
gender: male
race: human
allocation: {PS: 18, MD: 15, AG: 15, EN: 16, MA: 7, WP: 17}
rolls: {points: 9, hand: [2, 9], aspect: 17, social_status: 62, birth_order: 50, sibling_rank: 4, experience: 40, silver: 70}
weapons: []
"""
COIN = 1 / 16  # a pound of money is 16 coins
#: PS 18's band: Agility drops by 1 above 17.5 pounds, by 2 above 25, ... by 12 above 140, all of it above 150.
EDGES = [
    (17.5, "nothing"),
    (17.5 + COIN, "1"),
    (25, "1"),
    (25 + COIN, "2"),
    (140, "10"),
    (140 + COIN, "12"),
    (150, "12"),
    (150 + COIN, "all"),
]


def carrying(pounds: float, tables: Tables) -> str:
    """What the export's GM notes say the sheet's load table takes, for the porter carrying `pounds` in all."""
    money = api.build(PORTER, "porter.yaml", tables=tables).silver_pennies * COIN
    assert money < 17.5  # the sack makes up the rest
    text = PORTER + f"equipment: [{{name: sack, weight: {pounds - money}, count: 1}}]\n"
    character = api.build(text, "porter.yaml", tables=tables)
    notes = str(export_document(character, tables, "roll20")["character"]["gmnotes"])
    taken = re.search(
        r"load table takes (nothing|all|\d+) (?:off|of) Agility(?: for the ([\d.]+) pounds)?", notes
    )
    assert taken is not None, notes
    if taken.group(2) is not None:
        assert float(taken.group(2)) == pytest.approx(pounds, abs=0.001)  # printed with %g
    return taken.group(1)


@pytest.mark.parametrize(("pounds", "taken"), EDGES, ids=[f"{pounds:g}lb" for pounds, _ in EDGES])
def test_the_sheets_load_table_takes_agility_only_above_each_limit(
    pounds: float, taken: str, tables: Tables
) -> None:
    assert carrying(pounds, tables) == taken


#: The porter's PS 18 made 36 to 40 by a ruleset's racial modifier: the band from 37 holds below 40 only.
STRENGTHS = [(36, "1"), (37, "nothing"), (39, "nothing"), (40, "1")]


@pytest.mark.parametrize(("strength", "taken"), STRENGTHS, ids=[f"PS{ps}" for ps, _ in STRENGTHS])
def test_each_band_holds_from_its_strength_and_below_the_next(
    strength: int, taken: str, tmp_path: Path
) -> None:
    tables = _strong(strength, tmp_path)
    # 60 pounds: above PS 33's first limit (55), not above PS 37's (65)
    assert carrying(60, tables) == taken


def _strong(strength: int, folder: Path) -> Tables:
    """The book's tables with the porter's PS 18 made `strength` by a ruleset's racial modifier."""
    ruleset = folder / "strong.yaml"
    ruleset.write_text(
        f"add:\n  races:\n    races:\n      human:\n        modifiers: {{PS: {strength - 18}}}\n"
    )
    return load_tables(None, [str(ruleset)])


#: PS 28's band as the sheet has it: 205 pounds, then 260, then 250 (its own order). Above 250 it takes all
#: of Agility, so 12 is never taken.
QUIRK_EDGES = [(205, "9"), (205 + COIN, "10"), (250, "10"), (250 + COIN, "all"), (260, "all")]


@pytest.mark.parametrize(("pounds", "taken"), QUIRK_EDGES, ids=[f"{pounds:g}lb" for pounds, _ in QUIRK_EDGES])
def test_ps_28s_band_falls_where_the_sheets_does(pounds: float, taken: str, tmp_path: Path) -> None:
    assert carrying(pounds, _strong(28, tmp_path)) == taken


def test_the_load_table_is_the_sheets() -> None:
    """tables/export_roll20.yaml against the pinned sheet's script (tests/consumers/dqsheet.py)."""
    load = roll20_names().load
    ours = [(band.start, band.below, tuple(band.limits)) for band in load.bands]
    assert ours == [(max(start, 0), below, limits) for start, below, limits in dqsheet.LOAD_BANDS]
    assert [-loss for loss in load.losses] == list(dqsheet.LOAD_LOSSES[:-1])


RISING = {"from": 28, "limits": [45, 205, 205]}


def test_a_band_whose_limits_stay_level_loads() -> None:
    assert LoadBand.model_validate(RISING).limits == [45, 205, 205]


def test_a_band_whose_limits_fall_is_refused_unless_marked_the_sheets() -> None:
    falling = {**RISING, "limits": [45, 205, 204.5]}
    with pytest.raises(ValidationError, match=r"load band from PS 28: limit 204\.5 after 205 \(limits rise"):
        LoadBand.model_validate(falling)
    assert LoadBand.model_validate({**falling, "quirk": "the sheet's"}).limits == [45, 205, 204.5]


def test_a_quirk_on_a_band_that_rises_is_refused() -> None:
    with pytest.raises(ValidationError, match="`quirk` given, but its limits rise"):
        LoadBand.model_validate({**RISING, "quirk": "the sheet's"})
