"""One signal policy: SIGINT, SIGTERM and SIGHUP mid-batch leave no temporary file or
folder and no process, and the command exits 128 + the signal's number with one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import alive, children, end, wait_until

pytestmark = pytest.mark.slow  # worker processes, signals and their clean-up

ROOT = Path(__file__).parents[1]


def everything_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def _env(folder: Path) -> dict[str, str]:
    """The command's environment, with its temporary folder (TMPDIR) in `folder`, where the test sees it."""
    (folder / "temporary").mkdir()
    return {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(folder / "temporary")}


def test_a_batch_with_workers_leaves_no_temporary_file(tmp_path: Path) -> None:
    """Workers end by os._exit: WeasyPrint's font folder (`weasyprint-*`, removed by a finalizer) would stay
    behind for each of them if they made it in the machine's temporary folder."""
    command = [sys.executable, "-m", "chargen", "batch", "-n", "3", "-j", "2", "--pdf", "x.pdf", "-q"]
    subprocess.run(command, cwd=tmp_path, env=_env(tmp_path), check=True, timeout=120)
    assert everything_under(tmp_path) == ["temporary", "x.pdf"]
    assert everything_under(tmp_path / "temporary") == []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_mid_batch_leaves_nothing_behind(tmp_path: Path, signum: signal.Signals) -> None:
    command = [sys.executable, "-m", "chargen", "batch", "-n", "2000", "-j", "2", "--seed", "1"]
    command += ["--pdf", "x.pdf", "--jsonl", "y.jsonl", "--out", "village"]
    process = subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (any(tmp_path.glob(".x.pdf.*.part")) and len(workers) >= 2):
            time.sleep(0.05)
            workers |= children(process.pid) if process.poll() is None else set()
        assert len(workers) >= 2, "the batch never started its two workers"
        time.sleep(0.5)  # well into the run
        process.send_signal(signum)
        _, err = process.communicate(timeout=30)  # 2,000 records would take minutes: it stopped
        assert process.returncode == 128 + signum
        assert err == f"chargen: error: stopped by {signum.name}\n"
        assert everything_under(tmp_path) == ["temporary"]
        assert everything_under(tmp_path / "temporary") == []
        wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended with the batch")
    finally:
        process.kill()
        end(workers)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker processes from /proc")
@pytest.mark.parametrize(
    "work",
    # Two workers each, from one pool (chargen.processes), for records and for data NPCs.
    [["-j", "2", "-n", "2000", "--pdf", "x.pdf"], ["-j", "2", "-n", "1000000", "--jsonl", "x.jsonl"]],
    ids=["records", "data NPCs"],
)
def test_workers_die_with_a_parent_killed_outright(tmp_path: Path, work: list[str]) -> None:
    """SIGKILL cannot be handled: the workers still go (PR_SET_PDEATHSIG), though temporaries may stay (in
    the test's own temporary folder, not the machine's)."""
    command = [sys.executable, "-m", "chargen", "batch", "-q", *work]
    process = subprocess.Popen(command, cwd=tmp_path, env=_env(tmp_path))
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.05)
            workers |= children(process.pid)
        assert len(workers) >= 2, "the batch never started its two workers"
        process.kill()
        process.wait(timeout=10)
        wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended with their parent")
    finally:
        process.kill()
        end(workers)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker processes from /proc")
def test_a_pool_worker_killed_mid_batch_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Once, `batch -n 40 -j 2 --pdf o.pdf` with a worker killed was a BrokenProcessPool
    traceback (exit 1). Now one line, exit 2, nothing written or left running."""
    command = [sys.executable, "-m", "chargen", "batch", "-n", "40", "-j", "2", "--pdf", "o.pdf"]
    process = subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.05)
            workers |= children(process.pid) if process.poll() is None else set()
        assert len(workers) >= 2, "the batch never started its two workers"
        os.kill(min(workers), signal.SIGKILL)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 2
        assert err == (
            "chargen: error: batch: a worker process ended before it sent its NPCs (killed, or out of "
            "memory); nothing was written\n"
        )
        assert everything_under(tmp_path) == ["temporary"]
        assert everything_under(tmp_path / "temporary") == []
        wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended with the batch")
    finally:
        process.kill()
        end(workers)
