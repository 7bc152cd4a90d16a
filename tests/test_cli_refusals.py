"""Refusals that name what the user gave: `batch --export DIR --force` names --export, and `rules new`
replaces its file with --force only, as every command that writes files does (docs/hardening.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # chargen in a process for each case


def chargen(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_an_export_into_a_folder_names_export_in_its_refusal(tmp_path: Path) -> None:
    made = chargen(["batch", "-n", "1", "--seed", "1", "--export", "foundry", "first"], tmp_path)
    assert made.returncode == 0, made.stderr
    (name,) = [path.name for path in (tmp_path / "first").iterdir()]
    (tmp_path / "again" / name).mkdir(parents=True)  # a folder where the NPC's file would go
    result = chargen(["batch", "-n", "1", "--seed", "1", "--export", "foundry", "again", "--force"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"chargen: error: --export: again/{name} is not a regular file"), (
        result.stderr
    )
    assert sorted(path.name for path in (tmp_path / "again").iterdir()) == [name]


def test_rules_new_replaces_its_file_with_force_only(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("# my own\n", encoding="utf-8")
    refused = chargen(["rules", "new", "mine"], tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == "chargen: error: rules new: mine.yaml exists; use --force to replace it\n"
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "# my own\n"
    replaced = chargen(["rules", "new", "mine", "--force"], tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8").startswith("# mine: house rules")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mine.yaml"]
