"""The golden files: each is first checked by the independent reading of the rules (tests/rules_checker.py),
then compared byte for byte with what chargen writes today. A golden file that was wrong when it was
recorded fails the first check, whatever chargen writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from chargen import api
from chargen.character_file import dump_document
from chargen.tables import Tables
from tests.rules_checker import check_character

GOLDEN = Path(__file__).parent / "golden"
#: Each golden file and the `chargen roll` choices that wrote it.
ROLLS: dict[str, dict[str, Any]] = {
    "roll_seed_1.yaml": {"seed": 1},
    "roll_seed_2024_giant.json": {"seed": 2024, "race": "giant", "gender": "female", "archetype": "knight"},
}


def load(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def test_every_golden_file_is_listed() -> None:
    assert sorted(path.name for path in GOLDEN.iterdir()) == sorted(ROLLS)


@pytest.mark.parametrize("name", sorted(ROLLS))
def test_golden_file_obeys_the_rules_then_matches(tables: Tables, name: str) -> None:
    path = GOLDEN / name
    check_character(load(path), tables)
    fmt = "json" if path.suffix == ".json" else "yaml"
    written = dump_document(api.roll(tables=tables, **ROLLS[name]), fmt)
    assert written == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(ROLLS))
def test_golden_file_validates_and_rebuilds_to_itself(tables: Tables, name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    assert api.validate(text, name, tables=tables) == []
    fmt = "json" if name.endswith(".json") else "yaml"
    assert dump_document(api.build(text, name, tables=tables), fmt) == text
