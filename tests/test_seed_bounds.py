"""A seed at each edge of what a character file holds (0 to 10**15, chargen.yamlio.MAX_NUMBER), at every door
that takes one: chargen.api, the command line's --seed and a file's `seed:`. The last allowed is taken, the
next refused in one line."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.cli import cli
from chargen.errors import ChargenError
from chargen.tables import Tables

LARGEST = 10**15
ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("allowed", "refused"), [(0, -1), (LARGEST, LARGEST + 1)], ids=["least", "most"])
def test_the_api_takes_the_last_seed_allowed_and_refuses_the_next(
    tables: Tables, allowed: int, refused: int
) -> None:
    assert api.roll(seed=allowed, tables=tables).seed == allowed
    with pytest.raises(ChargenError, match="seed: must be a whole number from 0 to 1,000,000,000,000,000"):
        api.roll(seed=refused, tables=tables)


@pytest.mark.parametrize(
    ("allowed", "refused"), [("0", "-1"), (str(LARGEST), str(LARGEST + 1))], ids=["least", "most"]
)
def test_the_command_line_takes_the_last_seed_allowed_and_refuses_the_next(
    tmp_path: Path, allowed: str, refused: str
) -> None:
    with contextlib.chdir(tmp_path):
        taken = CliRunner().invoke(cli, ["roll", "--seed", allowed, "-o", "x.yaml"])
        assert taken.exit_code == 0, taken.output
        assert f"seed: {allowed}\n" in Path("x.yaml").read_text(encoding="utf-8")
        refusal = CliRunner().invoke(cli, ["roll", "--seed", refused, "-o", "y.yaml"])
    assert refusal.exit_code == 2
    assert "'--seed': must be a whole number from 0 to 1,000,000,000,000,000" in refusal.output, (
        refusal.output
    )
    assert not (tmp_path / "y.yaml").exists()


def test_a_file_holds_the_largest_seed_and_refuses_the_next(tables: Tables) -> None:
    assert api.build(ROLF + f"seed: {LARGEST}\n", "rolf.yaml", tables=tables).seed == LARGEST
    with pytest.raises(ChargenError, match=r"rolf.yaml:\d+:\d+: .*at most 1,000,000,000,000,000") as refusal:
        api.build(ROLF + f"seed: {LARGEST + 1}\n", "rolf.yaml", tables=tables)
    assert "\n" not in str(refusal.value)
