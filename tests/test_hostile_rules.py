"""Hostile rulesets and tables: formulas that overflow, give NaN or numbers
no character file can hold, whole tables removed, dice past any table's need, a named pipe in place of a
table, weights whose sum is infinite. Each is one line and exit 2, quickly, and writes nothing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from chargen.paths import tables_dir
from tests.test_hostile_yaml import chargen, one_line_exit_2

pytestmark = pytest.mark.slow  # chargen in a process for each case


def initiative(formula: str) -> str:
    return f'change:\n  combat:\n    initiative:\n      formula: "{formula}"\n'


def point_dice(dice: str) -> str:
    return f"change:\n  characteristics:\n    point_generation:\n      dice: {dice}\n"


RULESETS = {
    "divide-overflow": (initiative("modified_agility / 1e-320"), "fails (OverflowError)"),
    "infinite": (initiative("-1e308*10 if modified_agility>1 else 1"), "fails (OverflowError)"),
    "not-a-number": (
        initiative("(modified_agility*1e308*10) - (modified_agility*1e308*10)"),
        "fails (ValueError)",
    ),
    "max-of-one": (initiative("max(modified_agility) if modified_agility>1 else 1"), "max() takes two"),
    "too-large": (initiative("modified_agility * 1e60"), "not a whole number within"),
    "many-terms": (initiative(" + ".join(["perception"] * 20000)), "longer than 1,000 characters"),
    # 500 minus signs (516 characters) and a sum of 490 terms (996): under the length limit, too deep for
    # Python's stack when walked recursively.
    "deep-minus": (initiative("-" * 500 + "modified_agility"), "nested more than 100 terms deep"),
    "long-sum": (initiative("modified_agility" + "+1" * 490), "nested more than 100 terms deep"),
    "remove-a-table": ("remove: [weapons]\n", "a whole table file cannot be removed"),
    "huge-die": (point_dice("D1000000000000"), "at most 100 dice of at most 10,000 sides"),
    "many-dice": (point_dice("100000000D2"), "at most 100 dice"),
    # 75 bytes that once made a record of gigabytes (a box a point), or a MemoryError traceback
    "endurance-ten-million": (
        "change:\n  races:\n    races:\n      dwarf:\n        modifiers: {EN: 10000000}\n",
        "modifiers.EN: 10,000,000 is past what a characteristic can hold",
    ),
    "endurance-past-the-track": (
        "change:\n  races:\n    races:\n      dwarf:\n        modifiers: {EN: 76}\n",
        "change.races.races.dwarf.modifiers.EN: a character's EN can reach 101 with it (got 76): the "
        "record's tracks hold at most 100 boxes",
    ),
    "giant-type": (
        "change:\n  races:\n    races:\n      giant:\n        types:\n          fire: {modifiers: {EN: 90}}\n",
        "types.fire.modifiers.EN: a character's EN can reach 115",
    ),
    "gender": (
        "add:\n  birthrights:\n    genders:\n      male:\n        modifiers: {EN: 80}\n",
        "add.birthrights.genders.male.modifiers.EN: a character's EN can reach 105",
    ),
    "fatigue-beyond": (
        "change:\n  characteristics:\n    fatigue:\n      beyond: {base: 90}\n",
        "fatigue.beyond.base: a character's FT can reach 107 with it (got 90)",
    ),
    "fatigue-row": (
        "change:\n  characteristics:\n    fatigue:\n      rows: [{low: 3, high: 1000000000, value: 16}]\n",
        "1,000,000,000 is past what a characteristic can hold",
    ),
    "skill-rank": (
        "change:\n  weapons:\n    weapons:\n      dagger: {max_rank: 1000000000000}\n",
        "max_rank: Rank 1,000,000,000,000: a Rank is from 0 to 100",
    ),
    "race-attempts": ("change:\n  races:\n    attempts: 1000000000\n", "from 0 to 200"),
    "group-count": (
        "change:\n  groups:\n    groups:\n      patrol:\n        members: {soldier: 100000}\n",
        "members.soldier: 100,000: a count is at most 10,000",
    ),
    "leader-best-of": ("change:\n  groups:\n    best_of: 1000000000\n", "from 1 to 100"),
    "points": (
        "change:\n  characteristics:\n    point_generation:\n      rows: [{roll: 2, points: 100000000000, maximum: 25}]\n",
        "100,000,000,000 is past what a characteristic can hold",
    ),
}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_hostile_ruleset_is_one_line(tmp_path: Path, name: str) -> None:
    text, needle = RULESETS[name]
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    # refused before any character is made: no bound to wait out (chargen() gives up on a hang)
    result = chargen(["--rules", "house.yaml", "roll", "--seed", "1", "-o", "x.yaml"], cwd=tmp_path)
    one_line_exit_2(result, needle)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["house.yaml"]


def test_a_named_pipe_in_place_of_a_table_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    shutil.copytree(tables_dir(), folder)
    (folder / "races.yaml").unlink()
    os.mkfifo(folder / "races.yaml")  # nobody writes: reading it would wait for ever
    result = chargen(["--tables", str(folder), "roll", "--seed", "1"], cwd=tmp_path)  # a read would hang
    one_line_exit_2(result, "races.yaml: not a regular file")


def test_weights_whose_sum_is_infinite_are_refused(tmp_path: Path) -> None:
    result = chargen(
        ["batch", "-n", "20", "--archetype", "fighter=1e308,thief=1e308", "--jsonl", "x.jsonl"], cwd=tmp_path
    )
    one_line_exit_2(result, "--archetype: weight of 'fighter' must be a positive number up to")
    assert list(tmp_path.iterdir()) == []
