"""The server's PDF pool (chargen.web.pool over chargen.processes): bounded, replaced whole after its
share of tasks, never hung by a backlog, a timed-out task ended with its worker, a dead worker one
clear error; and the one process module: no other module of chargen starts processes."""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.errors import ChargenError
from chargen.web.pool import Busy, Pool, TryAgain
from tests.processes import alive, started_then_held, starts, wait_until

pytestmark = pytest.mark.slow  # worker processes, signals and their clean-up

CHARGEN = Path(__file__).parents[1] / "chargen"


@pytest.fixture
def pool() -> Iterator[Pool]:
    made = Pool(workers=1, tasks_per_worker=1000, initializer=None)
    try:
        yield made
    finally:
        made.close()


def in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """`work(index)` in `count` threads at once; what each returned or raised."""
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            results[index] = work(index)
        except BaseException as error:  # the test reads it
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a task never came back"
    return results


def in_thread(work: Callable[[], Any]) -> Callable[[], Any]:
    """`work()` started in a thread; call what this returns to wait for it: its value, or what it raised."""
    done: list[Any] = []

    def run() -> None:
        try:
            done.append((work(), None))
        except BaseException as error:  # raised again in the test's thread
            done.append((None, error))

    thread = threading.Thread(target=run)
    thread.start()

    def result() -> Any:
        thread.join(timeout=300)
        assert done, "the task never came back"
        value, error = done[0]
        if error is not None:
            raise error
        return value

    return result


def test_the_pool_says_busy_rather_than_queue_without_end(tmp_path: Path) -> None:
    pool = Pool(workers=1, waiting=1, initializer=None)
    try:
        first = threading.Thread(target=pool.run, args=(started_then_held, str(tmp_path), "first"))
        first.start()
        wait_until(lambda: starts(tmp_path, "first") == 1, "the first task started")
        with pytest.raises(Busy, match="busy"):
            pool.run(abs, 0)
        # refused while the first still runs (it runs until released): refused at once, not after a wait
        assert first.is_alive()
        (tmp_path / "release").touch()
        first.join(timeout=120)
        assert not first.is_alive()
        assert pool.run(abs, -3) == 3
    finally:
        (tmp_path / "release").touch()
        pool.close()


def test_workers_are_replaced_after_their_share_of_tasks() -> None:
    pool = Pool(workers=1, tasks_per_worker=2, initializer=None)
    try:
        pids = [pool.run(os.getpid) for _ in range(5)]
    finally:
        pool.close()
    assert pids[0] == pids[1] and pids[2] == pids[3] and len(set(pids)) == 3
    wait_until(lambda: not any(alive(pid) for pid in pids), "every worker ended with its pool")


def test_a_backlog_never_hangs_the_pool() -> None:
    """The page's old pool (2 workers, 25 tasks a child by max_tasks_per_child, 16 in flight) stopped
    for good after a few dozen tasks with a backlog (CPython gh-115634): 200 tasks from 8 threads."""
    pool = Pool(workers=2, tasks_per_worker=25, initializer=None)
    try:
        results = in_threads(8, lambda index: [pool.run(abs, -index, timeout=30) for _ in range(25)])
    finally:
        pool.close()
    assert results == [[index] * 25 for index in range(8)]


def test_a_timed_out_task_ends_its_worker(pool: Pool) -> None:
    worker = pool.run(os.getpid)
    with pytest.raises(ChargenError, match="took longer than 1 seconds and was given up"):
        pool.run(time.sleep, 60, timeout=1)
    # an idle worker lives on with its pool: this one ends only because its task was given up
    wait_until(lambda: not alive(worker), "the worker ended with the task nobody waits for")
    assert pool.run(os.getpid) not in (worker, None)  # a fresh pool took over


def test_a_task_beside_a_timed_out_one_is_made_again(tmp_path: Path) -> None:
    pool = Pool(workers=2, initializer=None)
    try:
        other = in_thread(lambda: pool.run(started_then_held, str(tmp_path), "other"))
        wait_until(lambda: starts(tmp_path, "other") == 1, "the other task started")
        with pytest.raises(ChargenError, match=r"took longer than 1\.5 seconds"):
            pool.run(time.sleep, 60, timeout=1.5)  # its pool given up, the other's worker ended too
        wait_until(lambda: starts(tmp_path, "other") == 2, "the other task made again by the fresh pool")
        (tmp_path / "release").touch()
        assert isinstance(other(), int)  # made again: no error
    finally:
        (tmp_path / "release").touch()
        pool.close()


def test_a_task_whose_pool_is_given_up_twice_is_one_clear_error(tmp_path: Path) -> None:
    """Made again once when a task beside it is given up; given up again, the player is told to try
    again (a worker stopped), not left with an error of chargen's own."""
    pool = Pool(workers=2, initializer=None)
    try:
        other = in_thread(lambda: pool.run(started_then_held, str(tmp_path), "other"))
        for runs in (1, 2):
            wait_until(lambda runs=runs: starts(tmp_path, "other") == runs, "the other task started")
            with pytest.raises(ChargenError, match="took longer than"):
                pool.run(time.sleep, 60, timeout=1)
        with pytest.raises(ChargenError, match=r"^a worker process stopped while making this"):
            other()
        assert starts(tmp_path, "other") == 2
    finally:
        (tmp_path / "release").touch()
        pool.close()


def test_a_worker_that_dies_is_one_clear_error(pool: Pool) -> None:
    with pytest.raises(ChargenError, match=r"^a worker process stopped while making this \(killed, or out"):
        pool.run(os._exit, 9)
    assert pool.run(abs, -5) == 5  # and the next task is made by a fresh pool


def test_one_module_starts_processes() -> None:
    starting = re.compile(r"\bos\.fork\(|(?<!psutil\.)\bProcess\(|ProcessPoolExecutor\(|\bsubprocess\b")
    texts = {
        str(path.relative_to(CHARGEN)): path.read_text(encoding="utf-8") for path in CHARGEN.rglob("*.py")
    }
    assert {name for name, text in texts.items() if starting.search(text)} == {"processes.py"}
    assert [name for name, text in texts.items() if "max_tasks_per_child" in text] == []


def test_tasks_beside_a_worker_that_died_are_made_or_told_to_try_again() -> None:
    """Under load the page answered one of 40 PDFs with a 500. A worker that dies fails every task of its
    pool: each is made again by a fresh pool, or answered "try again" (TryAgain: 503), never another error;
    and closing the pool while a broken one is being shut down raised OSError (a pipe closed twice)."""
    for _ in range(3):
        pool = Pool(workers=2, waiting=8, initializer=None)
        try:
            results = in_threads(8, functools.partial(_run_dies_at_3, pool))
        finally:
            pool.close()
        assert [result for result in results if not isinstance(result, int | TryAgain)] == []
        assert [index for index, result in enumerate(results) if isinstance(result, int)] == [
            result for result in results if isinstance(result, int)
        ]


def _run_dies_at_3(pool: Pool, index: int) -> int:
    return pool.run(_dies_at_3, index, timeout=60)


def _dies_at_3(index: int) -> int:
    if index == 3:
        os._exit(9)
    time.sleep(0.3)  # running or queued when task 3's worker dies
    return index


def test_the_page_answers_try_again_with_503() -> None:
    from chargen.web.app import create_app, shared

    app = create_app()
    client = app.test_client()
    rolf = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
    assert client.post("/open", data={"text": rolf}).status_code == 303
    shared(app).pool.close()  # as when the server stops: nothing more is made
    answer = client.get("/open/character.letter.pdf")
    assert answer.status_code == 503
    assert "the server is stopping; nothing was made" in answer.get_data(as_text=True)
    shared(app).close()
