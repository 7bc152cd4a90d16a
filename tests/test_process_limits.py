"""Processes where the system is tight: the fork server's socket whatever the temporary folder's name
(a Unix socket's path holds at most 107 bytes), and a process that cannot be started (too few file
descriptors) told as what it is, not as standard output's failure."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serve_support import served
from tests.test_serve_processes import ROLF, open_file, pdf

ROOT = Path(__file__).parents[1]


@pytest.fixture
def long_tmpdir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary folder of 200 characters (TMPDIR), made and removed by the test."""
    with tempfile.TemporaryDirectory(prefix="chargen-test-", dir="/tmp") as short:
        folder = Path(short) / ("t" * (199 - len(short)))
        folder.mkdir()
        assert len(str(folder)) == 200
        monkeypatch.setenv("TMPDIR", str(folder))
        yield folder


def run(*code: str, files: int | None = None) -> subprocess.CompletedProcess[str]:
    """`python -c CODE` (or `python -m chargen ARGS`) with at most `files` file descriptors."""

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    return subprocess.run(
        [sys.executable, *code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        preexec_fn=limit,
    )


@pytest.mark.slow
def test_serve_starts_and_makes_pdfs_with_a_200_character_tmpdir(long_tmpdir: Path) -> None:
    """It said `cannot write standard output (AF_UNIX path too long)` with a TMPDIR of 47 characters."""
    with served() as server:
        cookie = open_file(server.url, ROLF.read_text(encoding="utf-8"))
        status, body = pdf(server.url, cookie)
        assert (status, body[:5]) == (200, b"%PDF-")
        sockets = list(Path("/tmp").glob(f"chargen-sockets-{server.process.pid}-*"))
        assert len(sockets) == 1  # its socket's own folder, outside the long TMPDIR
        assert oct(sockets[0].stat().st_mode & 0o777) == "0o700"
    assert server.process.returncode == 0, server.log
    assert not sockets[0].exists()  # removed as it stopped
    assert list(long_tmpdir.iterdir()) == []


def test_the_fork_server_socket_fits_whatever_the_tmpdir(long_tmpdir: Path) -> None:
    shown = run(
        "-c",
        "import multiprocessing.util; from chargen import processes;"
        "print(processes.server_method()); print(multiprocessing.util.get_temp_dir())",
    )
    method, folder = shown.stdout.split()
    assert method == "forkserver"
    assert len(folder + "/listener-12345678") <= 103  # macOS's bound, the smaller


def test_no_fork_server_where_its_socket_cannot_be_made(long_tmpdir: Path) -> None:
    """multiprocessing's folder made in the long TMPDIR before chargen could choose it: workers are
    spawned instead, and work."""
    shown = run(
        "-c",
        "import multiprocessing.util; multiprocessing.util.get_temp_dir();"
        "from chargen import processes; method = processes.server_method();"
        "workers = processes.Pool(1, method=method); print(method, workers.submit(abs, -5).result());"
        "workers.close()",
    )
    assert shown.stdout.split() == ["spawn", "5"], shown.stderr


def test_a_batch_with_too_few_file_descriptors_says_so() -> None:
    """`ulimit -n 16; chargen batch -j 2` (here 12: fewer descriptors are open under a test) said `cannot write standard output (Too many open files)`."""
    made = run("-m", "chargen", "batch", "-n", "4", "-j", "2", "--jsonl", os.devnull, files=12)
    assert (made.returncode, made.stdout) == (2, "")
    assert made.stderr == "chargen: error: cannot start worker processes (Too many open files)\n"


@pytest.mark.slow
def test_serve_with_too_few_file_descriptors_says_so() -> None:
    made = run("-m", "chargen", "serve", "--port", "0", "--no-browser", files=12)
    assert made.returncode == 2
    assert made.stderr == "chargen: error: cannot start worker processes (Too many open files)\n"


def test_a_full_standard_output_is_still_told_as_such() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        made = subprocess.run(
            [sys.executable, "-m", "chargen", "roll", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert (made.returncode, made.stderr) == (
        2,
        "chargen: error: cannot write standard output (No space left on device)\n",
    )
