"""A batch's memory does not grow with its count: the chunk plan is taken as it is
needed, never listed, and the roster's cards wait on disk a page at a time. Each test is bounded in time:
a run of a billion NPCs is watched for its first seconds, then stopped."""

from __future__ import annotations

import copy
import dataclasses
import gc
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from chargen import api
from chargen.batch.npc import NpcOutput
from chargen.batch.roster_file import RosterOutput
from chargen.tables import Tables
from chargen.views.cards import roster_card
from tests.processes import alive, end, tree, tree_pss_mb

pytestmark = pytest.mark.slow  # worker processes, signals and their clean-up

ROOT = Path(__file__).parents[1]
#: How long a run of a billion NPCs is watched (under 150 MB for its first 10 seconds).
WATCHED_SECONDS = 10
LIMIT_MB = 150


def watched(command: list[str], folder: Path) -> tuple[float, subprocess.Popen[str]]:
    """The most memory the command's processes held together (Pss) while it ran for WATCHED_SECONDS;
    then it is stopped (SIGTERM), as a GM would stop it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "chargen", "batch", "-q", *command],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    peak, started = 0.0, time.monotonic()
    members: set[int] = set()
    try:
        while time.monotonic() - started < WATCHED_SECONDS and process.poll() is None:
            members.update(tree(process.pid))
            peak = max(peak, tree_pss_mb(process.pid))
            time.sleep(0.2)
        assert process.poll() is None, process.communicate()[1]
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
        time.sleep(0.2)
        assert [pid for pid in members if alive(pid)] == []
    finally:
        process.kill()
        end(members)
    return peak, process


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="reads memory from /proc")
@pytest.mark.parametrize(
    "command",
    [
        ["-n", "1000000000", "-j", "2", "--jsonl", "-"],
        ["--group", "bandit=1000000000,bandit-chief=1", "-j", "2", "--jsonl", "-"],
    ],
    ids=["a billion NPCs", "a group of a billion"],
)
def test_a_billion_npcs_start_in_bounded_memory(tmp_path: Path, command: list[str]) -> None:
    peak, process = watched(command, tmp_path)
    assert process.returncode == 128 + signal.SIGTERM
    assert 0 < peak < LIMIT_MB, f"{peak:.0f} MB"
    assert list(tmp_path.iterdir()) == []


def test_a_count_written_as_a_float_is_refused_in_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "chargen", "batch", "-n", "1e9", "-j", "2", "--jsonl", "x.jsonl"]
    done = subprocess.run(
        command,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "must be a whole number of at least 1, not '1e9'" in done.stderr
    assert list(tmp_path.iterdir()) == []


def _held(tables: Tables, folder: Path, count: int) -> tuple[int, int]:
    """The memory (traced by Python) a roster output holds once `count` cards are added, and the most it
    holds while it writes the roster."""
    card = roster_card(1, api.roll(seed=3, tables=tables), tables)
    output = RosterOutput(str(folder / f"{count}.html"), paper="letter", title="t", jobs=1)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(1, count + 1):  # a card of its own for each NPC, as a batch makes them
            own = copy.deepcopy(dataclasses.replace(card, number=number))
            output.add(NpcOutput(number, None, None, None, None, None, own))
        gc.collect()
        added = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.reset_peak()
        output.finish()
        writing = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
        output.discard()
    return added, writing


def test_the_roster_does_not_keep_every_card(tmp_path: Path, tables: Tables) -> None:
    """`--roster r.html` of 40,000 NPCs kept every card (499 MB): now each page of ten waits on disk
    until the roster is written, a page at a time. Kept, 3,000 cards held about 3 MB."""
    (_, small_writing), (added, writing) = (_held(tables, tmp_path, count) for count in (300, 3000))
    assert added < 100_000, f"{added / 1e6:.1f} MB held for 3,000 cards"
    assert writing < small_writing + 500_000, f"writing: {small_writing / 1e6:.1f} MB, {writing / 1e6:.1f} MB"
