"""The processes a test leaves behind, read from /proc (Linux): a child still listed there, running or
ended but not waited for, is one the code under test did not clean up."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path


def children(pid: int) -> set[int]:
    """The child processes of `pid`, zombies included (ended, not yet waited for)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(child) for child in (task / "children").read_text().split())
    return found


def own_children() -> set[int]:
    """This process's children: a test compares them before and after the code it runs."""
    return children(os.getpid())


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def end(pids: set[int]) -> None:
    """Kill what a failed test left running, so a failure does not load the machine for the rest."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def tree(pid: int) -> list[int]:
    """The process and its descendants, as /proc lists them now."""
    found, index = [pid], 0
    while index < len(found):
        with contextlib.suppress(OSError):  # it ended while it was read
            found.extend(children(found[index]))
        index += 1
    return found


def tree_pss_mb(pid: int) -> float:
    """The memory a process and its descendants hold, in MB: the sum of their proportional set sizes
    (Pss), which counts a page forked workers share with their parent once, not once per process."""
    total = 0
    for member in tree(pid):
        try:
            with open(f"/proc/{member}/smaps_rollup", encoding="ascii") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass  # it ended while it was read
    return total / 1024


def wait_until(condition: Callable[[], object], what: str, seconds: float = 120) -> None:
    """Wait for `condition` to hold, polled. The bound only keeps a broken test from hanging: a loaded
    machine may take long, so no test asserts how quickly something happened, only that it did."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        time.sleep(0.02)


def started_then_held(folder: str, name: str) -> int:
    """A pool task: a line in `folder/name` says it started (each run adds one), then it waits until
    `folder/release` exists (at most 5 minutes); its process id."""
    here = Path(folder)
    with (here / name).open("a", encoding="ascii") as log:
        log.write(f"{os.getpid()}\n")
    with contextlib.suppress(AssertionError):
        wait_until((here / "release").exists, "released", seconds=300)
    return os.getpid()


def starts(folder: Path, name: str) -> int:
    """How many times `started_then_held` started for `name`."""
    path = folder / name
    return len(path.read_text(encoding="ascii").splitlines()) if path.exists() else 0
