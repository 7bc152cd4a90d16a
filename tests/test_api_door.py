"""chargen.api checks its arguments at the door: a wrong type or a value no
character file could hold is one ChargenError, and what chargen writes, chargen reads back."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.character_file import dump_document
from chargen.errors import ChargenError

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")

CALLS: dict[str, tuple[Callable[[], Any], str]] = {
    "seed-text": (lambda: api.roll(seed="5"), "seed: must be a whole number"),
    "seed-float": (lambda: api.roll(seed=5.5), "seed: must be a whole number"),
    "seed-bool": (lambda: api.roll(seed=True), "seed: must be a whole number"),
    "seed-negative": (lambda: api.roll(seed=-1), "seed: must be a whole number from 0"),
    "seed-huge": (lambda: api.roll(seed=10**30), "seed: must be a whole number from 0"),
    "optional-int": (lambda: api.roll(optional=5), "optional: must be a list of strings"),
    "optional-text": (lambda: api.roll(optional="PB"), "optional: must be a list of strings"),
    "equip-none": (lambda: api.roll(equip=None), "equip: must be"),
    "equip-steal": (lambda: api.roll(equip="steal"), "equip: must be"),
    "namer-int": (lambda: api.roll(namer=5), "namer: must be a function"),
    "namer-returns-int": (lambda: api.roll(seed=1, namer=lambda race, gender: 5), "namer: returned 5"),
    "namer-two-lines": (lambda: api.roll(seed=1, namer=lambda race, gender: "a\nb"), "one line of text"),
    "namer-chinese": (lambda: api.roll(seed=1, namer=lambda race, gender: "李小龙"), "cannot print 李 小 龙"),
    "name-int": (lambda: api.roll(name=5), "name: must be a string"),
    "race-attempts-text": (lambda: api.roll(race_attempts="elf"), "race_attempts: must be a list"),
    "tables-text": (lambda: api.roll(tables="x"), "tables: must be chargen.tables.Tables"),
    "build-none": (lambda: api.build(None), "text: must be a string"),
    "build-int": (lambda: api.build(5), "text: must be a string"),
    "build-dict": (lambda: api.build({}), "text: must be a string"),
    "build-seed": (lambda: api.build(ROLF, seed=-1), "seed: must be a whole number"),
    "validate-none": (lambda: api.validate(None), "text: must be a string"),
    "build-spec-dict": (lambda: api.build_spec({}), "spec: must be a CharacterInput"),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_wrong_argument_is_one_chargen_error(name: str) -> None:
    call, needle = CALLS[name]
    with pytest.raises(ChargenError) as failure:
        call()
    assert needle in str(failure.value)
    assert "\n" not in str(failure.value)


def test_the_largest_seed_writes_a_file_that_reads_back(tables: Any) -> None:
    character = api.roll(seed=10**15, tables=tables)
    text = dump_document(character, "yaml")
    assert api.validate(text, "x.yaml", tables=tables) == []


def chargen(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("seed", ["1000000000000001", "9" * 5000, "²", "٣", "1_000", "-1"])
def test_a_seed_no_file_could_hold_is_refused_at_the_door_in_short(tmp_path: Path, seed: str) -> None:
    result = chargen(["roll", "--seed", seed, "-o", "x.yaml"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--seed" in result.stderr, result.stderr
    assert len(result.stderr) < 300
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # chargen in a process for each case
def test_the_largest_seed_from_the_command_line_is_recorded_validates_and_reproduces(
    tmp_path: Path, tables: Any
) -> None:
    from chargen.yamlio import MAX_NUMBER

    assert chargen(["roll", "--seed", str(MAX_NUMBER), "-o", "x.yaml"], tmp_path).returncode == 0
    written = (tmp_path / "x.yaml").read_text(encoding="utf-8")
    assert api.build(written, tables=tables).seed == MAX_NUMBER
    result = chargen(["validate", "x.yaml"], tmp_path)
    assert result.returncode == 0, result.stderr
    again = chargen(["roll", "--seed", str(MAX_NUMBER)], tmp_path)
    assert again.returncode == 0 and again.stdout == written
    assert written != chargen(["roll", "--seed", str(MAX_NUMBER - 1)], tmp_path).stdout


@pytest.mark.slow  # chargen in a process for each case
@pytest.mark.parametrize("name", ["李小龙", "देवनागरी", "Bob 😀"])
def test_a_name_the_record_cannot_print_is_refused_naming_its_characters(tmp_path: Path, name: str) -> None:
    result = chargen(["roll", "--seed", "1", "--name", name, "-o", "x.yaml"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "the Character Record cannot print" in result.stderr
    assert name[-1] in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_names_in_the_scripts_the_record_prints_are_kept(tables: Any) -> None:
    for name in ("Zoë", "Ἀλέξανδρος", "Владимир", "דוד בן ישי", "علي بن أحمد"):
        assert api.roll(seed=1, name=name, tables=tables).name == name


@pytest.mark.parametrize("count", ["٣", "1_0", "²", "0", "+2"])
def test_a_count_is_ascii_digits_as_a_seed_is(tmp_path: Path, count: str) -> None:
    result = chargen(["batch", "-n", count, "--seed", "1", "--jsonl", "x.jsonl"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "must be a whole number of at least 1" in result.stderr
    assert list(tmp_path.iterdir()) == []
