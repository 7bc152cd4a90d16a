"""A character carried through play with `chargen advance` (12, 17, 87): awards into the bank, raises paid
from it, the player's comments kept, `validate` satisfied; a raise the bank cannot pay, with no cost known
or past a limit of the rules refused in one line with the file left byte for byte."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from chargen import api
from chargen.character_file import dump_document
from chargen.tables import Tables
from tests.test_cli import run

CHART = Path(__file__).parent / "rulesets" / "experience-chart.yaml"  # costs that test makes up


@pytest.fixture
def hero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: Tables) -> Path:
    """A rolled character (seed 7: Tolliver Tumbledown, a halfling ranger with a long bow unranked, PS 16,
    112 Experience in the bank) whose player wrote two comments into the file."""
    monkeypatch.chdir(tmp_path)
    text = dump_document(api.roll(seed=7, tables=tables), "yaml")
    text = "# Tolliver, played on Thursdays\n" + text.replace("seed: 7\n", "seed: 7  # keep this\n")
    path = tmp_path / "hero.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def advance(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run(["advance", "hero.yaml", *argv], capsys)


def test_a_rolled_character_is_awarded_and_raised_and_stays_valid(
    hero: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = hero.read_text(encoding="utf-8")
    assert advance(capsys, "--award", "500", "--note", "Adventure 1") == (
        0,
        "hero.yaml: 500 Experience awarded; bank 612\n",
        "",
    )
    argv = ["--raise", "long-bow", "--to", "2", "--cost", "300", "--note", "Adventure 2"]
    assert advance(capsys, *argv) == (0, "hero.yaml: Long Bow raised to 2 for 300 Experience; bank 312\n", "")
    argv = ["--raise", "PS", "--to", "17", "--cost", "100", "--note", "Adventure 3", "--date", "2026-12-06"]
    assert advance(capsys, *argv) == (0, "hero.yaml: PS raised to 17 for 100 Experience; bank 212\n", "")
    text = hero.read_text(encoding="utf-8")
    assert text.startswith("# Tolliver, played on Thursdays\n") and "seed: 7  # keep this\n" in text
    assert text.endswith(
        "advancement:\n"
        "- {award: 500, note: Adventure 1}\n"
        "- {raise: long-bow, to: 2, cost: 300, note: Adventure 2}\n"
        "- {raise: PS, to: 17, cost: 100, note: Adventure 3, date: '2026-12-06'}\n"
    )
    played = api.build(text)
    assert (played.experience_bank, played.characteristics.PS) == (212, 17)  # 112 + 500 - 300 - 100
    bow = next(weapon for weapon in played.combat.weapons if weapon.name == "long-bow")
    assert (bow.rank, bow.strike_chance) == (2, 82)  # 55 + MD 19 + 4 x Rank 2 (17.1)
    assert [line.note for line in played.history] == ["Adventure 1", "Adventure 2", "Adventure 3"]
    assert run(["validate", "hero.yaml"], capsys) == (0, "hero.yaml: valid\n", "")
    assert Counter(before.splitlines()) - Counter(text.splitlines()) == Counter(
        {
            "  PS: 16",  # characteristics.PS, and what reads it:
            "    strike_chance: 41",  # unarmed
            "    rank: null",  # the long bow's
            "    strike_chance: 55",
            "    initiative: 28",
            "    endurance_damage: 01-08",
            "    grievous_injury: 01-03",
            "experience_bank: 112",
        }
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--raise", "long-bow", "--to", "2", "--cost", "300"],
            "hero.yaml: advancement[0].cost: Long Bow to 2 costs 300 Experience Points but the bank holds 112: "
            "188 short; rule 17",
        ),
        (
            ["--raise", "PS", "--to", "17"],
            "hero.yaml: advancement[0]: no cost known for PS to 17: the GM's chart prices no value 17 of "
            "abilities.experience.cost_chart.characteristics.PS; give the GM's figure as `cost:` or a "
            "ruleset's chart (the Experience Cost Chart, 87.7, is not in the seeds); rule 17, 87",
        ),
        (
            ["--raise", "long-bow", "--to", "9", "--cost", "1"],
            "hero.yaml: advancement[0].to: Rank 9 is above the Long Bow's maximum Rank 8; rule 20.2",
        ),
    ],
    ids=["bank-short", "no-cost-known", "past-maximum-rank"],
)
def test_a_refused_raise_is_one_line_and_the_file_is_unchanged(
    hero: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    before = hero.read_bytes()
    assert advance(capsys, *argv) == (2, "", f"chargen: error: {message}\n")
    assert hero.read_bytes() == before
    assert [path.name for path in hero.parent.iterdir()] == ["hero.yaml"]


def test_an_unknown_name_is_refused_and_the_file_is_unchanged(
    hero: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = hero.read_bytes()
    code, out, err = advance(capsys, "--raise", "moonbow", "--to", "1", "--cost", "1")
    assert (code, out) == (2, "")
    assert err.startswith("chargen: error: hero.yaml: advancement[0]") and "moonbow" in err, err
    assert err.count("\n") == 1
    assert hero.read_bytes() == before


@pytest.mark.parametrize(
    ("race", "cost"),
    [("halfling", 110), ("human", 100)],  # the chart's 100 times the race multiplier (1.1, 1), rounded up
)
def test_a_gms_chart_prices_a_raise_times_the_race_multiplier_and_the_file_says_what_was_spent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], race: str, cost: int
) -> None:
    monkeypatch.chdir(tmp_path)
    rolled = api.roll(seed=7, race=race)
    (tmp_path / "hero.yaml").write_text(dump_document(rolled, "yaml"), encoding="utf-8")
    assert rolled.experience_bank is not None and rolled.characteristics.PS == 16
    assert run(["advance", "hero.yaml", "--award", "500"], capsys)[0] == 0
    argv = ["advance", "hero.yaml", "--raise", "PS", "--to", "17", "--rules", str(CHART)]
    code, out, err = run(argv, capsys)
    bank = rolled.experience_bank + 500 - cost
    assert (code, out, err) == (0, f"hero.yaml: PS raised to 17 for {cost} Experience; bank {bank}\n", "")
    text = (tmp_path / "hero.yaml").read_text(encoding="utf-8")
    assert text.endswith(f"advancement:\n- {{award: 500}}\n- {{raise: PS, to: 17, cost: {cost}}}\n")
    assert run(["validate", "hero.yaml"], capsys) == (0, "hero.yaml: valid\n", "")  # the cost is written


def test_the_library_gives_the_text_the_command_writes(
    hero: Path, tables: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    text = hero.read_text(encoding="utf-8")
    made = api.advance(text, "hero.yaml", raise_="long bow", to=1, cost=50, note="Adventure 1", tables=tables)
    assert made.character.history[0].label == "Long Bow"
    assert made.character.experience_bank == 62
    assert made.text.endswith("advancement:\n- {raise: long bow, to: 1, cost: 50, note: Adventure 1}\n")
    argv = ["--raise", "long bow", "--to", "1", "--cost", "50", "--note", "Adventure 1"]
    assert advance(capsys, *argv)[0] == 0
    assert hero.read_text(encoding="utf-8") == made.text
