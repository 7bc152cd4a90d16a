"""Tasks shared by the batch process and forked workers, handed back in task order, with no thread.

A data NPC takes about 80 us to make, so with `--jobs 2` the batch process's own share of the work
(receiving the NPCs, writing them) decides how close two processes come to twice one. A
ProcessPoolExecutor spends that share on three threads of its own (feeding tasks, collecting results,
waking the reader), which wait for the GIL while the batch process writes; and its workers compute while
the batch process mostly waits. Here the batch process forks `jobs - 1` workers and works beside them.
Each process claims the next task from a shared counter and makes it; a worker sends each result, with
its task's number, through a pipe of its own. The batch process takes what has arrived whenever it
finishes a task, keeps a result that came early until its turn and hands the results out in task order.
Claiming as they go, the processes end within a task of each other whatever their speed (the batch
process, which also writes, makes fewer). At most AHEAD results wait for their turn: past that the batch
process waits for the workers instead of claiming more, and a worker whose pipe is full waits for it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import struct
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.sharedctypes import Synchronized
from typing import TypeVar, cast

from chargen import stopping
from chargen.errors import ChargenError

Task = TypeVar("Task")
Result = TypeVar("Result")

#: Results made ahead of their turn that the batch process keeps at most before it waits for a worker.
AHEAD = 8
#: Bytes a worker's pipe holds before the worker waits for the batch process: a few tasks' results.
PIPE_BYTES = 1 << 20
_F_SETPIPE_SZ = 1031  # fcntl(2), Linux: set a pipe's capacity
_NUMBER = struct.Struct("=Q")  # the task's number, before each message
_DONE, _FAILED = b"+", b"!"
Workers = dict[Connection, BaseProcess]


def available() -> bool:
    """Forked workers start with the batch process's memory (its tables, caches and stand-ins): where
    there is no fork (Windows; macOS, where it is unsafe), chargen uses its process pool instead."""
    return sys.platform.startswith("linux")


def in_order(
    make: Callable[[Task], list[Result]], tasks: Sequence[Task], jobs: int
) -> Generator[list[Result], None, None]:
    """`make(task)` for every task, in task order, made by this process and `jobs - 1` forked workers. A
    worker's failure is raised here as it was raised there; when this generator is closed early or fails,
    the workers are ended and waited for, so none outlives it."""
    context = multiprocessing.get_context("fork")
    claims: Synchronized[int] = context.Value("q", 0)
    workers: Workers = {}
    for stream in (sys.stdout, sys.stderr):  # a worker flushes them as it ends: nothing of ours in them
        if stream is not None:
            stream.flush()
    try:
        for _ in range(min(jobs, len(tasks)) - 1):
            reader, writer = context.Pipe(duplex=False)
            _widen(writer)
            worker = context.Process(
                target=_serve, args=(os.getpid(), make, tasks, claims, writer), daemon=True
            )
            worker.start()
            writer.close()
            workers[reader] = worker
        yield from _gathered(make, tasks, claims, dict(workers))
    except BaseException:
        for process in workers.values():
            process.terminate()
        raise
    finally:
        for reader, process in workers.items():
            process.join()
            reader.close()


def _claim(claims: Synchronized[int]) -> int:
    with claims.get_lock():
        number = claims.value
        claims.value = number + 1
    return number


def _gathered(
    make: Callable[[Task], list[Result]], tasks: Sequence[Task], claims: Synchronized[int], workers: Workers
) -> Iterator[list[Result]]:
    """The results in task order: those the workers send, and those this process makes while it waits."""
    early: dict[int, list[Result]] = {}
    for number in range(len(tasks)):
        while number not in early:
            _take(workers, early, timeout=0)
            if number in early:
                break
            mine = _claim(claims) if len(early) < AHEAD else len(tasks)
            if mine < len(tasks):
                early[mine] = make(tasks[mine])
            elif workers:
                _take(workers, early, timeout=None)
            else:  # pragma: no cover - every task was claimed, and a worker that died is raised in _take
                raise ChargenError(f"batch: no process made task {number}")
        yield early.pop(number)


def _take(workers: Workers, early: dict[int, list[Result]], timeout: float | None) -> None:
    """What the workers have sent (waiting for something when `timeout` is None): a failure raised, a
    worker that ended removed, and one that died raised."""
    for ready in multiprocessing.connection.wait(list(workers), timeout):
        reader = cast(Connection, ready)  # wait() hands back the very objects it was given
        try:
            message = reader.recv_bytes()
        except EOFError:
            worker = workers.pop(reader)
            worker.join()
            if worker.exitcode != 0:
                raise ChargenError(
                    f"batch: a worker process ended before it sent its NPCs (exit status {worker.exitcode})"
                ) from None
            continue
        (number,) = _NUMBER.unpack_from(message)
        payload = pickle.loads(memoryview(message)[_NUMBER.size + 1 :])
        if message[_NUMBER.size : _NUMBER.size + 1] == _FAILED:
            raise payload
        early[number] = payload


def _widen(connection: Connection) -> None:
    import fcntl  # Linux only, as `available` says

    # Above /proc/sys/fs/pipe-max-size for this user it is refused: the default capacity still works.
    with contextlib.suppress(OSError):
        fcntl.fcntl(connection.fileno(), _F_SETPIPE_SZ, PIPE_BYTES)


def _serve(
    parent: int,
    make: Callable[[Task], list[Result]],
    tasks: Sequence[Task],
    claims: Synchronized[int],
    writer: Connection,
) -> None:
    """A worker's whole life: tasks claimed, made and sent until none is left, or the first failure sent."""
    stopping.in_worker(parent)
    number = -1
    try:
        while (number := _claim(claims)) < len(tasks):
            writer.send_bytes(
                _NUMBER.pack(number) + _DONE + pickle.dumps(make(tasks[number]), pickle.HIGHEST_PROTOCOL)
            )
    except BaseException as error:  # KeyboardInterrupt too: the batch process raises it as its own
        writer.send_bytes(_NUMBER.pack(max(number, 0)) + _FAILED + _pickled_failure(error))
    finally:
        writer.close()


def _pickled_failure(error: BaseException) -> bytes:
    try:
        return pickle.dumps(error, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle is sent as its text
        return pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"), pickle.HIGHEST_PROTOCOL)
