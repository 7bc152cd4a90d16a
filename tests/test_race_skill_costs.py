"""6.4-6.9: the skills a race advances in for a part of the Experience (the elf's Healer and Courtesan, the
halfling's Spy and Thief, the shape-changer's Courtesan), priced on a GM's chart (tests/rulesets/
experience-chart.yaml, its numbers the test's own) with the race multiplier, rounded up once: in play (17,
87) and when a file's skills are bought at creation (8.6)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from chargen import api
from chargen.character_file import dump_document
from chargen.errors import ChargenError
from chargen.tables import Tables, load_tables
from tests.test_ledger import played

CHART = Path(__file__).parent / "rulesets" / "experience-chart.yaml"


@pytest.fixture(scope="module")
def charted() -> Tables:
    return load_tables(None, [str(CHART)])


def raise_cost(seed: int, race: str, skill: str, to: int, tables: Tables) -> int:
    """The Experience a raise of a skill not yet known costs the rolled character, as its ledger records."""
    text = played(
        dump_document(api.roll(seed=seed, race=race), "yaml"),
        "{award: 2000}",
        f"{{raise: {skill}, to: {to}}}",
    )
    made = api.build(text, tables=tables)
    assert made.history[1].charged == "chart"
    return -made.history[1].experience


@pytest.mark.parametrize(
    ("seed", "race", "skill", "to", "cost"),
    [
        # 8.6's flat 100 for Rank 0, then the chart's Ranks times the multiplier and the skill's factor
        (7, "halfling", "spy-and-thief", 2, 100 + 166),  # (101 + 200) x 1.1 x 1/2 = 165.55
        (7, "human", "spy-and-thief", 2, 100 + 301),  # no factor for a human
        (1, "elf", "healer", 1, 100 + 91),  # 101 x 1.2 x 3/4 = 90.9: rounded once (122 x 3/4 would be 92)
        (1, "elf", "courtesan", 1, 100 + 60),  # 100 x 1.2 x 1/2
        (2, "shape-changer", "courtesan", 1, 100 + 105),  # 100 x 1.4 x 3/4
        (7, "halfling", "ranger", 1, 330),  # known at Rank 0 already; 6.4/6.5's Ranger discounts are not its
        (1, "elf", "ranger", 1, 100 + 360),  # an elf's needs a woods specialisation no file records
    ],
)
def test_a_raise_of_a_skill_the_race_learns_cheaply_costs_its_part(
    charted: Tables, seed: int, race: str, skill: str, to: int, cost: int
) -> None:
    assert raise_cost(seed, race, skill, to, charted) == cost


@pytest.mark.parametrize(("skill", "spent"), [("spy-and-thief", 100 + 56), ("healer", 100 + 112)])
def test_a_files_skill_bought_at_creation_costs_the_halflings_part(
    charted: Tables, skill: str, spent: int
) -> None:
    document = yaml.safe_load(dump_document(api.roll(seed=7), "yaml"))
    assert (document["race"], document["experience_points"]) == ("halfling", 212)
    document["skills"] = [{"name": skill, "rank": 1}]
    del document["experience_bank"]
    made = api.build(yaml.safe_dump(document, sort_keys=False), tables=charted)
    assert made.experience_bank == 212 - spent  # 101 x 1.1 (x 1/2 for Spy and Thief), rounded up


def test_the_shipped_races_name_the_books_skills() -> None:
    races = load_tables().races
    factors = {
        (race_id, skill): (cost.factor, cost.rule)
        for race_id, race in races.items()
        for skill, cost in race.skill_costs.items()
    }
    assert factors == {
        ("elf", "healer"): (0.75, "6.5"),
        ("elf", "courtesan"): (0.5, "6.5"),
        ("halfling", "spy-and-thief"): (0.5, "6.7"),
        ("shape-changer", "courtesan"): (0.75, "6.9"),
    }


def ruleset(tmp_path: Path, skill: str, factor: str) -> str:
    path = tmp_path / "costs.yaml"
    path.write_text(
        f"add:\n  races:\n    races:\n      human:\n        skill_costs:\n"
        f'          {skill}: {{factor: {factor}, rule: "house"}}\n',
        encoding="utf-8",
    )
    return str(path)


@pytest.mark.parametrize("factor", ["1", "0.01"])
def test_a_factor_up_to_the_whole_cost_is_taken(tmp_path: Path, factor: str) -> None:
    tables = load_tables(None, [ruleset(tmp_path, "merchant", factor)])
    assert tables.races["human"].skill_costs["merchant"].factor == float(factor)


@pytest.mark.parametrize(
    ("skill", "factor", "told"),
    [
        ("merchant", "1.01", "skill_costs.merchant.factor: should be 1.0 or less (got 1.01)"),
        ("merchant", "0", "skill_costs.merchant.factor: should be more than 0.0 (got 0)"),
        ("thieving", "0.5", "skill_costs.thieving: 'thieving' is not in skills"),
    ],
)
def test_a_factor_past_its_bounds_or_of_no_skill_is_refused_where_it_stands(
    tmp_path: Path, skill: str, factor: str, told: str
) -> None:
    with pytest.raises(ChargenError) as error:
        load_tables(None, [ruleset(tmp_path, skill, factor)])
    assert str(error.value).endswith(f"add.races.races.human.{told}"), str(error.value)
