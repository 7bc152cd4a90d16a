"""Hostile rulesets and tables (issue 31 items 3, 11 and 12): formulas that overflow, give NaN or numbers
no character file can hold, whole tables removed, dice past any table's need, a named pipe in place of a
table, weights whose sum is infinite. Each is one line and exit 2, quickly, and writes nothing."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from chargen.paths import tables_dir
from tests.test_hostile_yaml import chargen, one_line_exit_2


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
}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_hostile_ruleset_is_one_line(tmp_path: Path, name: str) -> None:
    text, needle = RULESETS[name]
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    started = time.monotonic()
    result = chargen(["--rules", "house.yaml", "roll", "--seed", "1", "-o", "x.yaml"], cwd=tmp_path)
    assert time.monotonic() - started < 15
    one_line_exit_2(result, needle)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["house.yaml"]


def test_a_named_pipe_in_place_of_a_table_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    shutil.copytree(tables_dir(), folder)
    (folder / "races.yaml").unlink()
    os.mkfifo(folder / "races.yaml")  # nobody writes: reading it would wait for ever
    started = time.monotonic()
    result = chargen(["--tables", str(folder), "roll", "--seed", "1"], cwd=tmp_path)
    assert time.monotonic() - started < 15
    one_line_exit_2(result, "races.yaml: not a regular file")


def test_weights_whose_sum_is_infinite_are_refused(tmp_path: Path) -> None:
    result = chargen(
        ["batch", "-n", "20", "--archetype", "fighter=1e308,thief=1e308", "--jsonl", "x.jsonl"], cwd=tmp_path
    )
    one_line_exit_2(result, "--archetype: weight of 'fighter' must be a positive number up to")
    assert list(tmp_path.iterdir()) == []
