"""House rules that hold. The shipped house-combat ruleset gives every value its formulas
need (a stated fallback where seed 004 gives no number); render and build use the rulesets the file
records, so the captions describe the formulas that made the numbers; `rules show --diff` says when
nothing differs. Item 3's weight carried (82.9): an empty table a GM may fill, noted on the record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.cli import main
from chargen.model import to_document
from chargen.render import render_html
from chargen.tables import Tables, load_tables
from tests.render_fixtures.fields import SEP, STATS, expected_fields, html_fields, parse_html

CHARGEN = [sys.executable, "-m", "chargen"]


def nulls(value: Any, path: str = "") -> list[str]:
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in nulls(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [found for item in value for found in nulls(item, f"{path}[]")]
    return [path] if value is None else []


@pytest.mark.slow  # many rolled characters
def test_a_house_combat_batch_of_2000_has_no_null_derived_value(tables: Tables) -> None:
    # `chargen --rules house-combat batch -n 2000 --seed 3 --jsonl -` gave `defense: null` for every NPC.
    ran = subprocess.run(
        [*CHARGEN, "--rules", "house-combat", "batch", "-n", "2000", "--seed", "3", "--jsonl", "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = ran.stdout.splitlines()
    assert len(lines) == 2000
    for line in lines:
        document = json.loads(line)
        combat = document["combat"]
        found = nulls(combat, "combat")
        # Only what the book itself leaves open: an unranked weapon, a damage the Weapons Chart calls variable.
        for weapon in combat["weapons"]:
            if weapon["damage_modifier"] is None:
                assert tables.weapons[weapon["name"]].damage_modifier is None
        allowed = {"combat.weapons[].rank", "combat.weapons[].damage_modifier"}
        assert set(found) <= allowed, (document["name"], found)
        assert isinstance(combat["defense"], int)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


@pytest.mark.slow  # PDFs
def test_render_of_a_house_file_prints_the_house_captions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `chargen --rules house-combat roll --seed 42 -o hc.yaml && chargen render hc.yaml --pdf hc.pdf` showed
    # the book's captions under the house numbers and dropped the "kicks from Rank 4" line.
    made = tmp_path / "hc.yaml"
    assert run(["--rules", "house-combat", "roll", "--seed", "42", "-o", str(made)], capsys)[0] == 0
    page = tmp_path / "hc.html"
    assert run(["render", str(made), "--html", str(page)], capsys)[0] == 0
    text = parse_html(page.read_text(encoding="utf-8")).text()
    assert "Strike Chance (house rule, 17.1)" in text
    assert "Trips from Rank 2; kicks from Rank 4." in text
    assert "Defense (house rule, 17.5)" in text
    house = load_tables(rules=["house-combat"])
    character = api.build(made.read_text(encoding="utf-8"), tables=house)
    # The Defense box holds the house Defense (a one-digit number somewhere in the record would prove
    # nothing), and it is what the house rules give: the rules checker works it out again.
    shown = html_fields(page.read_text(encoding="utf-8"))
    defense = next(value for key, value in shown.items() if key.startswith(f"combat{SEP}Defense"))
    assert defense == f"{character.combat.defense}"
    assert defense == expected_fields(to_document(character), house)[f"combat{SEP}{STATS[0]}"]
    pdf = tmp_path / "hc.pdf"
    assert run(["render", str(made), "--pdf", str(pdf)], capsys)[0] == 0
    shown = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "kicks from Rank 4" in " ".join(shown.split())
    assert "house rule" in shown


def test_build_of_a_house_file_prints_its_record_with_the_house_captions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "hc.yaml"
    assert run(["--rules", "house-combat", "roll", "--seed", "7", "-o", str(made)], capsys)[0] == 0
    page = tmp_path / "hc.html"
    assert run(["build", str(made), "--html", str(page), "-o", str(tmp_path / "again.yaml")], capsys)[0] == 0
    assert "Strike Chance (house rule, 17.1)" in parse_html(page.read_text(encoding="utf-8")).text()
    assert (tmp_path / "again.yaml").read_text(encoding="utf-8") == made.read_text(encoding="utf-8")
    assert run(["validate", str(made)], capsys)[:2] == (0, f"{made}: valid\n")


def test_rules_show_diff_says_when_nothing_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    same = tmp_path / "same.yaml"
    same.write_text("change:\n  combat:\n    initiative:\n      rank_multiplier: 1\n", encoding="utf-8")
    code, out, _ = run(["rules", "show", str(same), "--diff"], capsys)
    assert (code, out) == (
        0,
        f"{same}: changes nothing in these tables (every value it sets is already so)\n",
    )
    code, out, _ = run(["rules", "show", "house-combat", "--diff"], capsys)
    assert code == 0 and "combat.unarmed.kick_from_rank: 3 -> 4" in out


def test_weight_carried_is_noted_until_a_gm_fills_its_table(tmp_path: Path, tables: Tables) -> None:
    # Game Terms: modified Agility is "after it has been modified due to weight carried (see 82.9) and
    # armor worn". 82.9's table is not in the rules text: the record says weight carried is not counted.
    rolled = api.roll(seed=4, archetype="fighter", race="human", tables=tables)
    text = parse_html(render_html(rolled, tables)).text()
    assert "Weight carriednot counted not in modified Agility or TMR" in text and "(82.9)" in text
    filled = tmp_path / "weight.yaml"
    filled.write_text(
        "change:\n  characteristics:\n    weight_carried:\n      rows:\n"
        "        - {low: 0, high: 20, value: 0}\n        - {low: 21, high: 9999, value: 2}\n",
        encoding="utf-8",
    )
    ruled = load_tables(rules=[str(filled)])
    from chargen.character_file import dump_document

    again = api.build(dump_document(rolled, "yaml"), tables=ruled)
    assert again.combat.modified_agility == rolled.combat.modified_agility - 2  # chainmail alone is 42 lb
    assert "Weight carried" not in parse_html(render_html(again, ruled)).text()
