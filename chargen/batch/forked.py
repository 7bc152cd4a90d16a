"""Tasks shared by the batch process and forked workers, handed back in task order, with no thread.

A data NPC takes about 70 us to make, so with `--jobs 2` the batch process's own share of the work
(receiving the NPCs, writing them) decides how close two processes come to twice one. A
ProcessPoolExecutor spends that share on three threads of its own (feeding tasks, collecting results,
waking the reader), which wait for the GIL while the batch process writes; and its workers compute while
the batch process mostly waits. Here the batch process forks `jobs - 1` workers and works beside them.
Each process claims the next task and makes it; a worker sends each result, with its task's number,
through a pipe of its own. The batch process takes what has arrived whenever it finishes a task, keeps a
result that came early until its turn and hands the results out in task order. Claiming as they go, the
processes end within a task of each other whatever their speed (the batch process, which also writes,
makes fewer). At most AHEAD results wait for their turn: past that the batch process waits for the
workers instead of claiming more, and a worker whose pipe is full waits for it.

The workers are made with `os.fork` and plain pipes, not the multiprocessing package: everything before
the fork is done by one process alone, and importing multiprocessing's processes, pipes and shared value
took about 6 ms of it (its contexts, ctypes, subprocess and pickle), the tenth of what a second process
saves on 10,000 NPCs. The next task's number is the one token in a pipe (`_Claims`): a process claims a
task by reading the token and hands the next number on by writing it back, so no lock or shared memory is
needed. The batch process does not wait for the token (where /proc lets it open the pipe without
waiting): a worker killed while holding it is found dead.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TypeVar

from chargen import stopping
from chargen.errors import ChargenError

Task = TypeVar("Task")
Made = TypeVar("Made")

#: Results made ahead of their turn that the batch process keeps at most before it waits for a worker.
AHEAD = 8
#: Bytes a worker's pipe holds before the worker waits for the batch process: a few tasks' results.
PIPE_BYTES = 1 << 20
_F_SETPIPE_SZ = 1031  # fcntl(2), Linux: set a pipe's capacity
_HEADER = struct.Struct("=QcQ")  # before each result: its task's number, _DONE or _FAILED, its length
_TOKEN = struct.Struct("=Q")  # the next task's number, in the claims pipe
_DONE, _FAILED = b"+", b"!"


def available() -> bool:
    """Forked workers start with the batch process's memory (its tables, caches and stand-ins): where
    there is no fork (Windows; macOS, where it is unsafe), chargen uses its process pool instead."""
    return sys.platform.startswith("linux")


#: Where a process opens one of its descriptors anew (Linux's /proc): an opening of its own, with flags of
#: its own, of the same pipe.
_OWN_OPENING = "/proc/self/fd/{}"


class _Claims:
    """The next task's number, the one token in a pipe. Reading it claims that task; writing the next
    number back lets the next process claim. An 8-byte write to a pipe is never split (PIPE_BUF), so a
    read gets the whole token or none of it.

    A worker waits for the token (`claim`). The batch process does not (`claim_watching`): a worker killed
    between reading the token and writing it back takes it with it, and the batch process, waiting for
    it, would wait for ever instead of finding the worker dead. It reads through a non-blocking opening
    of the pipe of its own (`polled`, _OWN_OPENING): the flag belongs to that opening, so the workers'
    reads still wait. Where the pipe cannot be opened so (no /proc, or the opening refused), `polled` is
    None and the batch process waits for the token as the workers do."""

    def __init__(self) -> None:
        self.reader, self.writer = os.pipe()
        try:
            self.polled: int | None = os.open(_OWN_OPENING.format(self.reader), os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            self.polled = None
        os.write(self.writer, _TOKEN.pack(0))

    def claim(self) -> int:
        return self._handed_on(os.read(self.reader, _TOKEN.size))

    def claim_watching(self, others: Iterable[int]) -> int | None:
        """The batch process's claim: the next task's number as soon as the token is in the pipe; None when
        one of `others` (the workers' pipes) has something first, a result or the worker's end, which the
        caller takes (a worker that died is raised there, one killed while it held the token among them).
        Without `polled`, the token is waited for, as a worker does."""
        if self.polled is None:
            return self.claim()
        while True:
            try:
                return self._handed_on(os.read(self.polled, _TOKEN.size))
            except BlockingIOError:  # another process holds the token
                ready, _, _ = select.select([self.polled, *others], [], [])
                if self.polled not in ready:
                    return None

    def _handed_on(self, token: bytes) -> int:
        number = int(_TOKEN.unpack(token)[0])
        os.write(self.writer, _TOKEN.pack(number + 1))
        return number

    def close(self) -> None:
        for descriptor in (self.reader, self.writer, self.polled):
            if descriptor is not None:
                os.close(descriptor)


class _Worker:
    """A forked worker: its process and the reading end of the pipe it sends its results through."""

    def __init__(self, pid: int, results: int) -> None:
        self.pid = pid
        self.results = results
        self.exit_status: int | None = None  # set once it has ended and been waited for

    def wait(self) -> int:
        if self.exit_status is None:
            _, status = os.waitpid(self.pid, 0)
            self.exit_status = os.waitstatus_to_exitcode(status)
        return self.exit_status

    def end(self) -> None:
        if self.exit_status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)


Workers = dict[int, _Worker]  # by the file descriptor their results arrive on


def in_order(
    make: Callable[[Task], Made],
    tasks: Sequence[Task],
    jobs: int,
) -> Generator[Made, None, None]:
    """`make(task)` for every task, in task order, made by this process and `jobs - 1` forked workers. A
    worker's failure is raised here as it was raised there; when this generator is closed early or fails,
    the workers are ended and waited for, so none outlives it."""
    for stream in (sys.stdout, sys.stderr):  # a worker ends by os._exit: nothing of ours in them
        if stream is not None:
            stream.flush()
    claims = _Claims()
    started: list[_Worker] = []
    try:
        for _ in range(min(jobs, len(tasks)) - 1):
            started.append(_forked(make, tasks, claims))
        yield from _gathered(make, tasks, claims, {worker.results: worker for worker in started})
    except BaseException:
        for worker in started:
            worker.end()
        raise
    finally:
        for worker in started:
            worker.wait()
            os.close(worker.results)
        claims.close()


def _forked(make: Callable[[Task], Made], tasks: Sequence[Task], claims: _Claims) -> _Worker:
    """A worker process, serving until the tasks run out. The stopping signals wait while it is forked,
    so none can stop the worker before it has its own handlers (chargen.stopping.in_worker), nor stop this
    process between the fork and the worker's record."""
    parent = os.getpid()
    reader, writer = os.pipe()
    _widen(writer)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, stopping.STOPPING)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(reader)
        os.close(writer)
        raise
    if pid == 0:  # the worker: whatever happens, it ends here, running nothing more of its parent's
        status = 1
        try:
            os.close(reader)
            stopping.in_worker(parent)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            _serve(make, tasks, claims, writer)
            status = 0
        finally:
            os._exit(status)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    os.close(writer)
    return _Worker(pid, reader)


def _gathered(
    make: Callable[[Task], Made], tasks: Sequence[Task], claims: _Claims, workers: Workers
) -> Iterator[Made]:
    """The results in task order: those the workers send, and those this process makes while it waits."""
    early: dict[int, Made] = {}
    for number in range(len(tasks)):
        while number not in early:
            _take(workers, early, timeout=0)
            if number in early:
                break
            mine = claims.claim_watching(workers) if len(early) < AHEAD else len(tasks)
            if mine is None:  # a worker's pipe came first: taken at the top of the loop
                continue
            if mine < len(tasks):
                early[mine] = make(tasks[mine])
            elif workers:
                _take(workers, early, timeout=None)
            else:  # pragma: no cover - every task was claimed, and a worker that died is raised in _take
                raise ChargenError(f"batch: no process made task {number}")
        yield early.pop(number)


def _take(workers: Workers, early: dict[int, Made], timeout: float | None) -> None:
    """What the workers have sent (waiting for something when `timeout` is None): a failure raised, a
    worker that ended removed, and one that died raised."""
    import pickle

    ready, _, _ = select.select(list(workers), [], [], timeout)
    for results in ready:
        try:
            message, cut = _message(results), False
        except EOFError:  # the worker died inside a result: what it sent is cut short
            message, cut = None, True
        if message is None:  # the worker has ended: it closes its pipe only by ending
            worker = workers.pop(results)
            if worker.wait() != 0 or cut:
                raise ChargenError(
                    f"batch: a worker process ended before it sent its NPCs (exit status {worker.exit_status})"
                ) from None
            continue
        number, outcome, data = message
        payload = pickle.loads(data)
        if outcome == _FAILED:
            raise payload
        early[number] = payload


def _message(results: int) -> tuple[int, bytes, bytes] | None:
    """The next result in a worker's pipe (its task's number, its outcome, its data); None when the worker
    ended between results, EOFError when it ended inside one."""
    header = _read(results, _HEADER.size)
    if not header:
        return None
    number, outcome, length = _HEADER.unpack(header)
    return number, outcome, _read(results, length)


def _read(descriptor: int, size: int) -> bytes:
    """`size` bytes from a pipe, or none at its end (a result is whole, or its worker died sending it)."""
    parts = [os.read(descriptor, size)]
    got = len(parts[0])
    while 0 < got < size:
        part = os.read(descriptor, size - got)
        if not part:
            raise EOFError("a worker's pipe ended inside a result")
        parts.append(part)
        got += len(part)
    return b"".join(parts) if len(parts) > 1 else parts[0]


def _widen(descriptor: int) -> None:
    import fcntl  # Linux only, as `available` says

    # Above /proc/sys/fs/pipe-max-size for this user it is refused: the default capacity still works.
    with contextlib.suppress(OSError):
        fcntl.fcntl(descriptor, _F_SETPIPE_SZ, PIPE_BYTES)


def _serve(make: Callable[[Task], Made], tasks: Sequence[Task], claims: _Claims, results: int) -> None:
    """A worker's whole life: tasks claimed, made and sent until none is left, or the first failure sent."""
    import pickle

    number = -1
    try:
        while (number := claims.claim()) < len(tasks):
            _send(results, number, _DONE, pickle.dumps(make(tasks[number]), pickle.HIGHEST_PROTOCOL))
    except BaseException as error:  # KeyboardInterrupt too: the batch process raises it as its own
        _send(results, max(number, 0), _FAILED, _pickled_failure(error))
    finally:
        os.close(results)


def _send(results: int, number: int, outcome: bytes, payload: bytes) -> None:
    message = memoryview(_HEADER.pack(number, outcome, len(payload)) + payload)
    while message:
        message = message[os.write(results, message) :]


def _pickled_failure(error: BaseException) -> bytes:
    import pickle

    try:
        return pickle.dumps(error, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle is sent as its text
        return pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"), pickle.HIGHEST_PROTOCOL)
