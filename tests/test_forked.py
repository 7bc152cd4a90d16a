"""chargen.batch.forked: tasks shared by the batch process and forked workers, in task order."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest

from chargen.batch import forked
from tests.processes import own_children

needs_fork = pytest.mark.skipif(not forked.available(), reason="forked workers are Linux's")


def noted(task: int) -> list[tuple[int, int]]:
    time.sleep(0.0005)  # long enough that every process gets tasks to claim
    return [(task, os.getpid())]


@needs_fork
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_task_comes_back_once_in_order_made_by_every_process(jobs: int) -> None:
    here = os.getpid()

    def noted_slower_here(task: int) -> list[tuple[int, int]]:
        # The batch process alone would take 0.6 s over the 300: a worker started late still gets tasks.
        time.sleep(0.0015 if os.getpid() == here else 0)
        return noted(task)

    before = own_children()
    results = [item for items in forked.in_order(noted_slower_here, range(300), jobs) for item in items]
    assert [task for task, _ in results] == list(range(300))
    makers = {pid for _, pid in results}
    assert os.getpid() in makers and len(makers) == jobs
    assert own_children() == before  # every worker ended and waited for


def failing_in(place: str) -> Callable[[int], list[int]]:
    """A make that fails in the batch process, or in a worker, on the first task it makes there."""
    here = os.getpid()

    def make(task: int) -> list[int]:
        time.sleep(0.0005)
        if (os.getpid() == here) == (place == "here"):
            raise ValueError(f"task {task} failed {place}")
        return [task]

    return make


@needs_fork
@pytest.mark.parametrize("place", ["here", "in a worker"])
def test_a_failure_is_raised_here_wherever_the_task_was_made(place: str) -> None:
    before = own_children()
    with pytest.raises(ValueError, match=f"failed {place}$"):
        list(forked.in_order(failing_in(place), range(300), 2))
    assert own_children() == before


@needs_fork
def test_closing_early_ends_the_workers() -> None:
    before = own_children()
    results = forked.in_order(noted, range(1_000_000), 3)  # minutes of work
    assert next(results)[0][0] == 0
    assert len(own_children() - before) == 2
    started = time.monotonic()
    results.close()
    assert time.monotonic() - started < 5  # ended, not waited for until they finish
    assert own_children() == before


@needs_fork
def test_a_worker_that_dies_inside_a_result_is_one_chargen_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed while it writes a result leaves a message cut short in its pipe: one ChargenError,
    not the pipe's own end-of-file error."""
    from chargen.errors import ChargenError

    here, send = os.getpid(), forked._send

    def cut_short(results: int, number: int, outcome: bytes, payload: bytes) -> None:
        if os.getpid() == here:
            send(results, number, outcome, payload)
            return
        os.write(results, forked._HEADER.pack(number, outcome, len(payload)) + payload[:1])
        os._exit(5)

    monkeypatch.setattr(forked, "_send", cut_short)
    before = own_children()
    with pytest.raises(ChargenError, match=r"ended before it sent its NPCs \(exit status 5\)"):
        list(forked.in_order(noted, range(300), 2))
    assert own_children() == before


@needs_fork
def test_a_worker_that_dies_holding_the_claims_token_is_one_chargen_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker killed between reading the next task's number and writing it back takes the token with it:
    the batch process must say so, not wait for the token for ever."""
    import signal

    from chargen.errors import ChargenError

    here, claim = os.getpid(), forked._Claims.claim

    def killed_holding_it(claims: forked._Claims) -> int:
        if os.getpid() == here:
            return claim(claims)
        os.read(claims.reader, forked._TOKEN.size)  # the token taken, never given back
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("not reached")

    def waited_too_long(signum: int, frame: object) -> None:
        raise TimeoutError("the batch process waited for a token no process holds")

    monkeypatch.setattr(forked._Claims, "claim", killed_holding_it)
    before = own_children()
    previous = signal.signal(signal.SIGALRM, waited_too_long)
    signal.alarm(20)
    try:
        with pytest.raises(ChargenError, match=r"ended before it sent its NPCs \(exit status -9\)"):
            list(forked.in_order(noted, range(1_000_000), 2))  # minutes of work: the worker gets to claim
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert own_children() == before


@needs_fork
def test_without_an_opening_of_its_own_the_batch_process_waits_for_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the claims pipe cannot be opened anew (no /proc), the batch process waits for the token as
    the workers do, as it did before: every task made once, in order, no descriptor nor process left."""
    monkeypatch.setattr(forked, "_OWN_OPENING", "/no-such-folder/{}")
    descriptors, children = set(os.listdir("/proc/self/fd")), own_children()
    results = [item for items in forked.in_order(noted, range(300), 2) for item in items]
    assert [task for task, _ in results] == list(range(300))
    assert set(os.listdir("/proc/self/fd")) == descriptors and own_children() == children
