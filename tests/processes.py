"""The processes a test leaves behind, read from /proc (Linux): a child still listed there, running or
ended but not waited for, is one the code under test did not clean up."""

from __future__ import annotations

import contextlib
import os
import signal
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
