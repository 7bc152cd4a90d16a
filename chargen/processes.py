"""Every process chargen starts is started here, and ends by one policy (chargen.stopping).

Three shapes:

- `Pool`: the workers of one standard ProcessPoolExecutor (a batch's NPCs and records, the page's PDFs);
  `in_order` hands a batch's results back in task order from a pool replaced every so many tasks;
- `start_job` and `end_job`: one process for one long job (a GM's batch on the page), which can be ended;
- `fork_call`: a forked child for one call under limits (a GM's template, chargen.render.bounded).

Each process runs `stopping.in_worker` first: it leaves Ctrl-C to the process that owns it and dies
with its owner, even an owner killed outright. Its temporary files go to a scratch folder named after
the owner's pid, which the owner removes, and which `remove_left_folders` removes once the owner is gone.

Ending a pool: the tasks not started are cancelled, those already queued to a worker are skipped (an
Event the workers look at before each task), a worker in the middle of a task ends at once (STOP_TASK; a
worker that is sending a result or waiting for a task finishes that, for a worker ended while it writes
would leave half a result in the pipe the pool reads, and hang it), and the pool is shut down and waited
for. A worker that dies (killed, out of memory) is one ChargenError, `WorkerDied`.

Workers that keep memory for good (WeasyPrint leaks a little in each layout, see docs/weasyprint-leak.md)
are retired by replacing the whole pool, never by the executor's own tasks-per-worker limit: on Python
3.11 to 3.15.0b3 a pool using it stops replacing workers and hangs when tasks are queued (CPython
gh-115634).

Workers start by fork where the platform has it safely (Linux): they begin with this process's tables
and caches. Elsewhere (macOS, whose system libraries are not fork-safe, and Windows) they are spawned. A
process with threads (the server) asks `server_method()`: a fork server (a clean process forks each
worker) whose socket is in a short private folder of its own, whatever the temporary folder's name; a
Unix socket's path holds at most 107 bytes (103 on macOS), and multiprocessing would put it three
folders down in the temporary folder. Where no short folder can be made, workers are spawned.

A process that cannot be started (no file descriptors left, no memory) is one ChargenError naming it.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import multiprocessing
import multiprocessing.util
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar, cast

from chargen import stopping
from chargen.errors import ChargenError

Task = TypeVar("Task")
Made = TypeVar("Made")

#: Tasks in flight per worker: enough to keep every worker busy while this process writes.
WINDOW_PER_JOB = 4
#: Seconds an ended job has to clean up (its own workers, its files) before it is killed.
JOB_GRACE = 3.0
#: What a process sends a worker to end the task it is running (None: no such signal).
STOP_TASK = getattr(signal, "SIGUSR1", None)
#: The longest path a Unix socket may have: 107 bytes on Linux, 103 on macOS (the smaller of the two).
SOCKET_PATH_MAX = 103
#: What multiprocessing adds to its temporary folder's path for the fork server's socket.
LISTENER = "/listener-XXXXXXXX"


class WorkerDied(ChargenError):
    """A worker process ended before it sent its result (killed, or out of memory)."""


class CannotStart(ChargenError):
    """A process could not be started: the system refused it (too many open files, no memory)."""


@contextlib.contextmanager
def _start_errors() -> Iterator[None]:
    """An OSError while processes or their pipes are made, told as what it is."""
    try:
        yield
    except OSError as error:
        raise CannotStart(f"cannot start worker processes ({error.strerror or error})") from None


def start_method() -> str:
    """fork on Linux, spawn elsewhere (see the module's text)."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


def scratch_folder(kind: str, where: str | None = None) -> str:
    """A new temporary folder `chargen-KIND-PID-*` (in `where`, default the temporary folder): whose it is
    stays readable after its owner is gone."""
    return tempfile.mkdtemp(prefix=f"chargen-{kind}-{os.getpid()}-", dir=where)


def remove_left_folders(kind: str, where: str | None = None) -> None:
    """Remove the `chargen-KIND-PID-*` folders of owners no longer running (killed outright: SIGKILL,
    out of memory), so they do not pile up in `where` (default: the temporary folder)."""
    for folder in Path(where or tempfile.gettempdir()).glob(f"chargen-{kind}-*-*"):
        owner = folder.name.split("-")[2]
        if owner.isascii() and owner.isdigit() and not _running(int(owner)):
            shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: running
        return True
    return True


_server_method: str | None = None


def server_method() -> str:
    """How a process with threads starts its workers: "forkserver", its socket in a short private folder
    (see the module's text), or "spawn" where none can be made. Decided once, before the first worker."""
    global _server_method
    if _server_method is None:
        _server_method = "forkserver" if _short_socket_folder() else "spawn"
    return _server_method


def _short_socket_folder() -> bool:
    """Whether multiprocessing's temporary folder, where the fork server's socket goes, is short enough:
    made here, in the temporary folder or else in /tmp, before multiprocessing makes one of its own."""
    for base in dict.fromkeys((tempfile.gettempdir(), "/tmp")):
        socket = f"{base}/chargen-sockets-{os.getpid()}-XXXXXXXX/pymp-XXXXXXXX{LISTENER}"
        if len(socket) > SOCKET_PATH_MAX or not os.path.isdir(base):
            continue
        remove_left_folders("sockets", base)
        try:
            folder = scratch_folder("sockets", base)
        except OSError:
            continue
        multiprocessing.util.Finalize(  # after multiprocessing removes its own folder in it
            None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=-200
        )
        usual, tempfile.tempdir = tempfile.tempdir, folder
        try:
            multiprocessing.util.get_temp_dir()  # made now, in `folder`, and kept for the process
        finally:
            tempfile.tempdir = usual
        break
    return len(multiprocessing.util.get_temp_dir() + LISTENER) <= SOCKET_PATH_MAX


# In a worker: set by the pool's owner when it stops early (see the module's text).
_stopped: Event | None = None
# In a worker: whether it is running a task (not waiting for one, nor sending its result).
_in_task = False


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
    owner: int,
    scratch: str,
    stopped: Event,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> None:
    global _stopped, _in_task
    _stopped = stopped
    stopping.in_worker(owner)
    if STOP_TASK is not None:
        signal.signal(STOP_TASK, _stop_task)
    # A worker ends by os._exit, so nothing it made in the temporary folder is removed by its own
    # finalizers (WeasyPrint's FontConfiguration keeps its fonts in a `weasyprint-*` folder until its
    # __del__): it makes them in the pool's scratch folder instead, which the owner removes.
    tempfile.tempdir = scratch
    if initializer is not None:
        _in_task = True  # an initializer may take long too (a warm-up), and touches no pipe either
        try:
            initializer(*initargs)
        finally:
            _in_task = False


def _run(function: Callable[..., Made], *args: Any) -> Made | None:
    """A task in a worker, unless the pool's owner is stopping (then nothing: it is not waited for)."""
    global _in_task
    if _stopped is not None and _stopped.is_set():
        return None
    _in_task = True
    try:
        return function(*args)
    finally:
        _in_task = False


def _nothing() -> None:
    """The task that starts a worker ahead of the work (Pool.start)."""


class Pool:
    """`workers` processes of one ProcessPoolExecutor started by `method` (default: start_method()),
    each running `initializer(*initargs)` first; with `preload`, the modules a fork server imports once
    for every worker it forks."""

    def __init__(
        self,
        workers: int,
        *,
        method: str | None = None,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        preload: Sequence[str] = (),
    ) -> None:
        self.workers = workers
        self.scratch = scratch_folder("workers")
        #: Set once the pool was told to stop: its tasks in flight failed on purpose, not by a crash.
        self.stopped = False
        try:
            context = multiprocessing.get_context(method or start_method())
            if preload:
                context.set_forkserver_preload(list(preload))
            self._starting = _Noting(context)
            with _start_errors():
                self._stop_event = context.Event()
                self.executor = ProcessPoolExecutor(
                    max_workers=workers,
                    mp_context=cast(BaseContext, self._starting),  # a context, as far as the pool can tell
                    initializer=_start_worker,
                    initargs=(os.getpid(), self.scratch, self._stop_event, initializer, initargs),
                )
        except BaseException:
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise

    def submit(self, function: Callable[..., Made], *args: Any) -> Future[Made]:
        """`function(*args)` in a worker. BrokenProcessPool when a worker of this pool has died; CannotStart
        when its workers cannot be started."""
        with _start_errors():
            return cast("Future[Made]", self.executor.submit(_run, function, *args))

    def start(self) -> None:
        """Start every worker now (and so run its initializer) rather than with the first tasks."""
        for _ in range(self.workers):
            self.submit(_nothing)

    def stop(self) -> None:
        """End the work in flight: queued tasks skipped, running ones ended with their worker."""
        self.stopped = True
        self._stop_event.set()
        self._starting.stop_tasks()

    def close(self, *, stop: bool = False) -> None:
        """Shut the pool down (with `stop`, first ended as by stop(); else its tasks finish) and wait for
        every worker to end; their scratch folder is removed."""
        try:
            if stop:
                self.stop()
            self.executor.shutdown(wait=True, cancel_futures=stop)
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)


@contextlib.contextmanager
def pool(
    jobs: int,
    *,
    died: str,
    method: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[Pool]:
    """A Pool for one run: on the way out every worker has ended; on a failure or a stop the work in
    flight is ended first, and a worker that died is WorkerDied(`died`)."""
    made = Pool(jobs, method=method, initializer=initializer, initargs=initargs)
    try:
        yield made
    except BaseException as error:
        made.close(stop=True)
        if isinstance(error, BrokenProcessPool):
            raise WorkerDied(died) from None
        raise
    made.close()


def in_order(
    function: Callable[[Task], Made],
    tasks: Iterable[Task],
    jobs: int,
    *,
    died: str,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    tasks_per_worker: int | None = None,
) -> Generator[Made, None, None]:
    """`function(task)` for every task, in task order, made by `jobs` workers. The tasks are taken as
    they are needed (a few per worker ahead), never listed; with `tasks_per_worker`, a fresh pool takes
    over after every `jobs * tasks_per_worker` tasks. A worker that died is WorkerDied(`died`)."""
    remaining = iter(tasks)
    per_pool = jobs * tasks_per_worker if tasks_per_worker else None
    while True:
        part = itertools.islice(remaining, per_pool)
        first = next(part, None)
        if first is None:
            return
        with pool(jobs, died=died, initializer=initializer, initargs=initargs) as workers:
            yield from _gathered(workers, function, itertools.chain([first], part), jobs * WINDOW_PER_JOB)


def _gathered(
    workers: Pool, function: Callable[[Task], Made], tasks: Iterable[Task], window: int
) -> Iterator[Made]:
    waiting: collections.deque[Future[Made]] = collections.deque()
    for task in tasks:
        waiting.append(workers.submit(function, task))
        if len(waiting) >= window:
            yield waiting.popleft().result()
    while waiting:
        yield waiting.popleft().result()


def start_job(function: Callable[..., None], *args: Any, method: str | None = None) -> BaseProcess:
    """`function(*args)` in a process of its own, started now. Not a daemon: a job may start workers of
    its own (a daemon may not). SIGTERM (end_job) stops it as it stops a command: its own workers and
    temporaries are cleaned up on the way out."""
    context = multiprocessing.get_context(method or start_method())
    process: BaseProcess = context.Process(target=_job, args=(os.getpid(), function, *args))  # type: ignore[attr-defined]
    with _start_errors():
        process.start()
    return process


def _job(owner: int, function: Callable[..., None], *args: Any) -> None:
    stopping.in_worker(owner)
    stopping.install()  # SIGTERM and SIGHUP raise Stopped: the job's own pool and files are cleaned up
    try:
        function(*args)
    except stopping.Stopped as stop:
        sys.exit(stop.exit_status)  # quietly: multiprocessing prints a traceback for anything else


def end_job(process: BaseProcess) -> None:
    """End a job (SIGTERM: it cleans up) and wait for it; killed if it has not ended in JOB_GRACE s."""
    if process.is_alive():
        process.terminate()
    process.join(timeout=JOB_GRACE)
    if process.is_alive():
        process.kill()
        process.join()


def fork_call(child: Callable[[], None]) -> int:
    """`child()` in a forked copy of this process; its pid to the parent, which must wait for it. The
    child leaves by os._exit whatever happens, so nothing of the parent's (buffers, exit handlers) runs
    twice: status 0 when `child` returned, 1 when it raised."""
    owner = os.getpid()
    with _start_errors():
        pid = os.fork()
    if pid != 0:
        return pid
    status = 1
    try:
        stopping.in_worker(owner)
        child()
        status = 0
    finally:
        os._exit(status)
