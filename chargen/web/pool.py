"""The server's worker processes (chargen.processes): PDFs run in a small pool, off the request threads;
a GM's batch runs in a process of its own.

The workers come from a fork server (a clean process forks each one, never the threaded server itself),
so a worker cannot inherit a lock some server thread held. They start with the server, each making one
Character Record first, so the first PDF a player asks for is as quick as the later ones. The pool is
replaced by a fresh one after a number of PDFs, so what WeasyPrint and Pango keep between documents
cannot pile up; the old one ends once its PDFs are made. A PDF past its time is ended with its worker,
and its pool replaced (the PDFs that pool was making are made again by the fresh one). At most
`waiting` PDFs wait or run at once: past that the page says at once that the server is busy, and a
request thread is never left waiting behind them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from chargen import processes
from chargen.errors import ChargenError

T = TypeVar("T")

#: Workers for PDFs; the machine chargen is written on has 2 cores, and a page makes one PDF at a time.
WORKERS = 2
#: PDFs a worker makes before its pool is replaced (memory stays flat; a fresh pool costs a fork of the
#: fork server, which has chargen and WeasyPrint imported already, and one Character Record a worker).
TASKS_PER_WORKER = 25
#: PDFs waiting or being made at once; past that a request is told the server is busy. Fewer than the
#: server's request threads (chargen.web.server.THREADS), so some are always free for the page itself.
WAITING = 8
#: Seconds a PDF may take, waiting included, before it is given up and its worker ended.
TIMEOUT = 300.0
#: Batches running at once (each in a process of its own, which ends with the batch).
BATCHES = 2
#: What the fork server imports once, for every worker it forks.
PRELOAD = ("chargen.web.jobs", "chargen.api", "chargen.render")


class TryAgain(ChargenError):
    """Nothing was made, through no fault of what was sent (the server busy or stopping, a worker lost or
    not started): the page answers 503, and the user tries again."""


class Busy(TryAgain):
    """Too much work is waiting: the page says so and the user tries again."""


def warm_up() -> None:
    """In a fresh worker: one Character Record made and dropped, so that the fonts, stylesheets and
    WeasyPrint's first layout are paid here rather than by the first player to ask."""
    from chargen import api
    from chargen.render import render_pdf
    from chargen.tables import load_tables

    # Only a warm-up: whatever goes wrong here the player's own PDF meets again, and reports.
    with contextlib.suppress(Exception):
        tables = load_tables()
        render_pdf(api.roll(seed=1, tables=tables), tables)


class Pool:
    def __init__(
        self,
        workers: int = WORKERS,
        tasks_per_worker: int = TASKS_PER_WORKER,
        waiting: int = WAITING,
        initializer: Callable[[], None] | None = warm_up,
    ) -> None:
        self._workers = workers
        self._per_pool = workers * tasks_per_worker
        self._initializer = initializer
        self._slots = threading.BoundedSemaphore(waiting)
        self._lock = threading.Lock()
        self._current: processes.Pool | None = None
        self._given = 0  # tasks given to the current pool
        self._retiring: dict[processes.Pool, threading.Thread] = {}
        self._closed = False

    def start(self) -> None:
        """Start the workers now (the server is starting) rather than with the first PDF."""
        with self._lock:
            self._replace(None)

    def run(self, function: Callable[..., T], *args: Any, timeout: float = TIMEOUT) -> T:
        """`function(*args)` in a worker, waited for (the calling request thread waits; the server's other
        threads go on). Busy when `waiting` tasks are there already; a ChargenError when it runs past
        `timeout` or its worker dies."""
        if not self._slots.acquire(blocking=False):
            raise Busy("the server is busy with other PDFs; try again in a moment")
        try:
            return self._run(function, args, timeout)
        finally:
            self._slots.release()

    def _run(self, function: Callable[..., T], args: tuple[Any, ...], timeout: float) -> T:
        for _ in (1, 2):
            try:
                workers, future = self._submit(function, args)
            except processes.CannotStart as error:
                raise TryAgain(f"{error}; try again in a moment") from None
            try:
                return future.result(timeout=timeout)
            except TimeoutError:
                self._give_up(workers)
                raise TryAgain(f"this took longer than {timeout:g} seconds and was given up") from None
            except (BrokenProcessPool, CancelledError):
                # Its pool broke (a worker died: this task's or another's) or was ended for another
                # task: every task it held fails so, and each is made once more by a fresh pool.
                self._give_up(workers)
                if self._closed:
                    raise TryAgain("the server is stopping; nothing was made") from None
        raise TryAgain("a worker process stopped while making this (killed, or out of memory); try again")

    def _submit(self, function: Callable[..., T], args: tuple[Any, ...]) -> tuple[processes.Pool, Future[T]]:
        """The task given to the current pool, a fresh one once the current one has made its share (under
        the lock, so no pool is shut down between being chosen and being given the task)."""
        with self._lock:
            if self._closed:
                raise TryAgain("the server is stopping; nothing was made")
            if self._current is None or self._given >= self._per_pool:
                self._replace(self._current)
            assert self._current is not None
            self._given += 1
            workers = self._current
            try:
                return workers, workers.submit(function, *args)
            except BrokenProcessPool:  # a worker died while the pool was idle: failed as a task would
                failed: Future[T] = Future()
                failed.set_exception(BrokenProcessPool())
                return workers, failed

    def _replace(self, old: processes.Pool | None) -> None:
        """A fresh pool takes the next tasks (lock held); `old` ends once its tasks are done."""
        fresh = processes.Pool(
            self._workers,
            method=processes.server_method(),
            preload=PRELOAD,
            initializer=self._initializer,
        )
        fresh.start()
        self._current, self._given = fresh, 0
        if old is not None:
            self._retire(old, stop=False)

    def _retire(self, old: processes.Pool, *, stop: bool) -> None:
        """`old` shut down in a thread of its own, so no request waits for it (lock held)."""
        if stop:
            old.stop()

        def close() -> None:
            old.close(stop=stop)
            with self._lock:
                del self._retiring[old]

        closing = threading.Thread(target=close, name="chargen-pool-retire", daemon=True)
        self._retiring[old] = closing
        closing.start()

    def _give_up(self, workers: processes.Pool) -> None:
        """A task of `workers` timed out or its pool broke: its workers are ended and, if it is still the
        current pool, a fresh one takes the next tasks."""
        with self._lock:
            if workers is self._current and not self._closed:
                self._current = None
                self._retire(workers, stop=True)
            elif not workers.stopped:
                workers.stop()

    def close(self) -> None:
        """Stop every worker (the server is stopping): running tasks are ended, not waited for."""
        with self._lock:
            self._closed = True
            current, self._current = self._current, None
            retiring = dict(self._retiring)
        for workers in [*retiring, *([current] if current else [])]:
            workers.stop()
        if current is not None:
            current.close(stop=True)
        for closing in retiring.values():  # each closed by its own thread: closed twice, a pipe was too
            closing.join()


class Batches:
    """GM batches, each in a process of its own (from the same fork server): a long batch can be stopped
    (the server stopping, or the job dropped), and its memory goes back when it ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, BaseProcess] = {}

    def start(self, key: str, function: Callable[..., None], *args: Any) -> None:
        """Run `function(*args)` in a new process, known by `key`; Busy when BATCHES are running."""
        with self._lock:
            self._reap()
            if len(self._running) >= BATCHES:
                raise Busy(f"{BATCHES} batches are being made already; try again when one is done")
            try:
                self._running[key] = processes.start_job(function, *args, method=processes.server_method())
            except processes.CannotStart as error:
                raise TryAgain(f"{error}; try again in a moment") from None

    def running(self, key: str) -> bool:
        """Whether the batch known by `key` is still being made."""
        with self._lock:
            process = self._running.get(key)
        return process is not None and process.is_alive()

    def stop(self, key: str) -> None:
        with self._lock:
            process = self._running.pop(key, None)
        if process is not None:
            processes.end_job(process)

    def close(self) -> None:
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for process in running:
            if process.is_alive():
                process.terminate()  # all told at once; each then has its grace
        for process in running:
            processes.end_job(process)

    def _reap(self) -> None:
        for key, process in list(self._running.items()):
            if not process.is_alive():
                process.join()
                del self._running[key]
