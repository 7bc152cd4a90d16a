"""The server's worker processes: PDFs and batches run here, off the request threads, in a small pool.

A forkserver context (a clean process forks each worker, never the threaded server itself), so a worker
cannot inherit a lock some server thread held; each worker is replaced after a number of tasks, so what
WeasyPrint and Pango keep between documents cannot pile up over 500 downloads. At most `waiting` tasks wait
for a worker: past that the page says the server is busy rather than queueing without end.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from chargen.errors import ChargenError

T = TypeVar("T")

#: Workers for PDFs; the machine chargen is written on has 2 cores, and a page makes one PDF at a time.
WORKERS = 2
#: Tasks a worker does before it is replaced by a fresh one (memory stays flat; a fresh worker costs
#: a fork of the forkserver, which has chargen and WeasyPrint imported already).
TASKS_PER_WORKER = 25
#: Tasks waiting or running at once; past that a request is told the server is busy.
WAITING = 16
#: Batches running at once (each in a process of its own, which ends with the batch).
BATCHES = 2


def quiet_worker() -> None:
    """A worker leaves Ctrl-C (sent by the terminal to the whole process group) to the server."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Busy(ChargenError):
    """Too much work is waiting: the page says so and the user tries again."""


class Pool:
    def __init__(self, workers: int = WORKERS, tasks_per_worker: int = TASKS_PER_WORKER) -> None:
        self._workers = workers
        self._tasks = tasks_per_worker
        self._slots = threading.BoundedSemaphore(WAITING)
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["chargen.web.jobs", "chargen.api", "chargen.render"])
                self._executor = ProcessPoolExecutor(
                    self._workers,
                    mp_context=context,
                    initializer=quiet_worker,
                    max_tasks_per_child=self._tasks,
                )
            return self._executor

    def submit(self, function: Callable[..., T], *args: Any) -> Future[T]:
        """Start `function(*args)` in a worker; Busy when WAITING tasks are already there."""
        if not self._slots.acquire(blocking=False):
            raise Busy("the server is busy with other PDFs and batches; try again in a moment")
        try:
            try:
                future = self._pool().submit(function, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh once
                self._reset()
                future = self._pool().submit(function, *args)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _: self._slots.release())
        return future

    def run(self, function: Callable[..., T], *args: Any, timeout: float = 300) -> T:
        """`function(*args)` in a worker, waited for (the calling request thread waits; the server's other
        threads go on). A worker that died is reported as a ChargenError and its pool replaced."""
        future = self.submit(function, *args)
        try:
            return future.result(timeout=timeout)
        except BrokenProcessPool:
            self._reset()
            raise ChargenError("a worker process stopped while making this; try again") from None
        except TimeoutError:
            future.cancel()
            raise ChargenError(f"this took longer than {timeout:g} seconds and was given up") from None

    def _reset(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop every worker (the server is stopping): running tasks are cancelled, not waited for."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


class Batches:
    """GM batches, each in a process of its own (from the same forkserver): a long batch can be stopped
    (the server stopping, or the job dropped), and its memory goes back when it ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, multiprocessing.process.BaseProcess] = {}

    def start(self, key: str, function: Callable[..., None], *args: Any) -> None:
        """Run `function(*args)` in a new process, known by `key`; Busy when BATCHES are running."""
        with self._lock:
            self._reap()
            if len(self._running) >= BATCHES:
                raise Busy(f"{BATCHES} batches are being made already; try again when one is done")
            context = multiprocessing.get_context("forkserver")
            # not a daemon: the batch starts worker processes of its own (a daemon may not); close() ends it
            process = context.Process(target=_quiet_call, args=(function, *args))
            process.start()
            self._running[key] = process

    def running(self, key: str) -> bool:
        """Whether the batch known by `key` is still being made."""
        with self._lock:
            process = self._running.get(key)
        return process is not None and process.is_alive()

    def stop(self, key: str) -> None:
        with self._lock:
            process = self._running.pop(key, None)
        if process is not None:
            _end(process)

    def close(self) -> None:
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for process in running:
            _end(process)

    def _reap(self) -> None:
        for key, process in list(self._running.items()):
            if not process.is_alive():
                process.join()
                del self._running[key]


def _quiet_call(function: Callable[..., None], *args: Any) -> None:
    quiet_worker()
    function(*args)


def _end(process: multiprocessing.process.BaseProcess) -> None:
    if process.is_alive():
        process.terminate()
    process.join(timeout=5)
    if process.is_alive():
        process.kill()
        process.join()
