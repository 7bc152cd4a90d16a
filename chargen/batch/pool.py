"""chargen's one process pool: the standard library's ProcessPoolExecutor, tasks handed back in order.

Workers follow chargen.stopping: they leave stopping to this process and die with it. When the caller
fails or is stopped, the tasks not started are cancelled, those already queued to a worker are skipped
(an Event the workers look at before each task), a worker in the middle of a task ends at once (SIGUSR1,
where there is one; a worker that is sending a result or waiting for a task finishes that, for a worker
ended while it writes would leave half a result in the pipe the pool reads, and hang it), and the pool
is shut down and waited for, so no process outlives the call. A worker that dies (killed, out of memory)
is one ChargenError.

The workers start by fork where the platform has it safely (Linux): they begin with this process's
tables and caches. Elsewhere (macOS, whose system libraries are not fork-safe, and Windows) they are
spawned, and the initializer's arguments are pickled to them. A caller that must not fork (a server
with threads) names "spawn" or "forkserver".

Long-lived workers that keep memory for good (WeasyPrint leaks a little in each layout, see
docs/weasyprint-leak.md) are retired after `tasks_per_worker` tasks: the pool is replaced by a fresh
one. The standard `max_tasks_per_child` would do this per worker, but on Python 3.11 to 3.15.0b3 a pool
using it stops replacing workers and hangs when tasks are queued (CPython gh-115634), and it refuses fork.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from types import FrameType
from typing import Any, TypeVar, cast

from chargen import stopping
from chargen.errors import ChargenError

Task = TypeVar("Task")
Made = TypeVar("Made")

#: Tasks in flight per worker: enough to keep every worker busy while this process writes.
WINDOW_PER_JOB = 4


def start_method() -> str:
    """fork on Linux, spawn elsewhere (see the module's text)."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


# In a worker: set by the pool's process when it stops early (see the module's text).
_stopped: Event | None = None
# In a worker: whether it is running a task (not waiting for one, nor sending its result).
_in_task = False
#: What the pool's process sends a worker to end the task it is running (None: no such signal).
STOP_TASK = getattr(signal, "SIGUSR1", None)


def _stop_task(signum: int, frame: FrameType | None) -> None:
    if _in_task:  # nothing of the pool's pipes is being read or written: nothing is cut
        os._exit(128 + signum)


class _Noting:
    """A multiprocessing context that notes the processes it starts: a pool's workers, to be told to
    stop (the pool itself names them nowhere public)."""

    def __init__(self, context: BaseContext) -> None:
        self.context = context
        self.started: list[BaseProcess] = []

    def Process(self, *args: Any, **kwargs: Any) -> BaseProcess:  # the name the pool calls
        process: BaseProcess = self.context.Process(*args, **kwargs)  # type: ignore[attr-defined]
        self.started.append(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self.context, name)

    def stop_tasks(self) -> None:
        for process in self.started:
            if STOP_TASK is not None and process.pid is not None and process.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, STOP_TASK)


def _start_worker(
    parent: int,
    scratch: str,
    stopped: Event,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> None:
    global _stopped
    _stopped = stopped
    stopping.in_worker(parent)
    if STOP_TASK is not None:
        signal.signal(STOP_TASK, _stop_task)
    # A worker ends by os._exit, so nothing it made in the temporary folder is removed by its own
    # finalizers (WeasyPrint's FontConfiguration keeps its fonts in a `weasyprint-*` folder until its
    # __del__): it makes them in the pool's scratch folder instead, which the parent removes.
    tempfile.tempdir = scratch
    if initializer is not None:
        initializer(*initargs)


def _run(function: Callable[[Task], Made], task: Task) -> Made | None:
    """A task in a worker, unless the pool's process is stopping (then nothing: it is not waited for)."""
    global _in_task
    if _stopped is not None and _stopped.is_set():
        return None
    _in_task = True
    try:
        return function(task)
    finally:
        _in_task = False


@contextlib.contextmanager
def process_pool(
    jobs: int,
    *,
    context: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[ProcessPoolExecutor]:
    """A pool of `jobs` workers started by `context` (default: start_method()), each running
    `initializer(*initargs)` first. On the way out every worker has ended and the scratch folder their
    temporary files went to is removed."""
    scratch = tempfile.mkdtemp(prefix="chargen-workers-")
    try:
        starting = _Noting(multiprocessing.get_context(context or start_method()))
        stopped = starting.Event()
        pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=cast(BaseContext, starting),  # a context, as far as the pool can tell
            initializer=_start_worker,
            initargs=(os.getpid(), scratch, stopped, initializer, initargs),
        )
        try:
            yield pool
        except BaseException as error:
            stopped.set()
            starting.stop_tasks()
            pool.shutdown(wait=True, cancel_futures=True)
            if isinstance(error, BrokenProcessPool):
                raise ChargenError(
                    "batch: a worker process ended before it sent its NPCs (killed, or out of memory); "
                    "nothing was written"
                ) from None
            raise
        pool.shutdown(wait=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def in_order(
    function: Callable[[Task], Made],
    tasks: Iterable[Task],
    jobs: int,
    *,
    context: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    tasks_per_worker: int | None = None,
) -> Generator[Made, None, None]:
    """`function(task)` for every task, in task order, made by `jobs` workers. The tasks are taken as
    they are needed (a few per worker ahead), never listed; with `tasks_per_worker`, a fresh pool takes
    over after every `jobs * tasks_per_worker` tasks."""
    remaining = iter(tasks)
    per_pool = jobs * tasks_per_worker if tasks_per_worker else None
    while True:
        part = itertools.islice(remaining, per_pool)
        first = next(part, None)
        if first is None:
            return
        with process_pool(jobs, context=context, initializer=initializer, initargs=initargs) as pool:
            yield from _gathered(pool, function, itertools.chain([first], part), jobs * WINDOW_PER_JOB)


def _gathered(
    pool: ProcessPoolExecutor, function: Callable[[Task], Made], tasks: Iterable[Task], window: int
) -> Iterator[Made]:
    waiting: collections.deque[Future[Made]] = collections.deque()
    for task in tasks:
        waiting.append(pool.submit(_run, function, task))  # type: ignore[arg-type]  # None only when stopping
        if len(waiting) >= window:
            yield waiting.popleft().result()
    while waiting:
        yield waiting.popleft().result()
