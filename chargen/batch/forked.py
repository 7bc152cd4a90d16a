"""Tasks made by forked workers and handed back in task order, with no thread in the batch process.

A data NPC takes about 80 us to make, so with `--jobs 2` the batch process's own share of the work
(receiving the NPCs, writing them) decides how close two workers come to twice one. A
ProcessPoolExecutor spends that share on three threads of its own (feeding tasks, collecting results,
waking the reader), which wait for the GIL while the batch process writes. Here each worker is forked
with its whole share of the tasks (every `jobs`-th one) already in its memory, makes them one after
another and sends each result through a pipe of its own; the batch process reads the pipes in task order.
The pipes are the only flow control: a worker that is ahead waits while its pipe is full, so memory
holds a few tasks' results, never the whole run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from chargen import stopping
from chargen.errors import ChargenError

Task = TypeVar("Task")
Result = TypeVar("Result")

#: Bytes a worker's pipe holds before the worker waits for the batch process: about two chunks of data
#: NPCs (chargen.batch.workers.chunk_size), so a worker a chunk ahead of the other keeps working.
PIPE_BYTES = 1 << 20
_F_SETPIPE_SZ = 1031  # fcntl(2), Linux: set a pipe's capacity
_DONE, _FAILED = b"+", b"!"


def available() -> bool:
    """Forked workers start with the batch process's memory (its tables, caches and stand-ins): where
    there is no fork (Windows; macOS, where it is unsafe), chargen uses its process pool instead."""
    return sys.platform.startswith("linux")


def in_order(
    make: Callable[[Task], list[Result]], tasks: Sequence[Task], jobs: int
) -> Iterator[list[Result]]:
    """`make(task)` for every task, in task order, made by `jobs` forked workers. A worker's failure is
    raised here as it was raised there; when this generator is closed early or fails, the workers are
    ended and waited for, so none outlives it."""
    context = multiprocessing.get_context("fork")
    jobs = max(1, min(jobs, len(tasks)))
    workers: list[tuple[BaseProcess, Connection]] = []
    for stream in (sys.stdout, sys.stderr):  # a worker flushes them as it ends: nothing of ours in them
        if stream is not None:
            stream.flush()
    try:
        for index in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            _widen(writer)
            share = tasks[index::jobs]
            worker = context.Process(target=_serve, args=(os.getpid(), make, share, writer), daemon=True)
            worker.start()
            writer.close()
            workers.append((worker, reader))
        for index in range(len(tasks)):
            yield _received(*workers[index % jobs])
    except BaseException:
        for process, _ in workers:
            process.terminate()
        raise
    finally:
        for process, reader in workers:
            process.join()
            reader.close()


def _widen(connection: Connection) -> None:
    import fcntl  # Linux only, as `available` says

    # Above /proc/sys/fs/pipe-max-size for this user it is refused: the default capacity still works.
    with contextlib.suppress(OSError):
        fcntl.fcntl(connection.fileno(), _F_SETPIPE_SZ, PIPE_BYTES)


def _serve(
    parent: int, make: Callable[[Task], list[Result]], tasks: Sequence[Task], writer: Connection
) -> None:
    """A worker's whole life: each task made and sent, or the first failure sent, and nothing after it."""
    stopping.in_worker(parent)
    try:
        for task in tasks:
            writer.send_bytes(_DONE + pickle.dumps(make(task), pickle.HIGHEST_PROTOCOL))
    except BaseException as error:  # KeyboardInterrupt too: the batch process raises it as its own
        writer.send_bytes(_FAILED + _pickled_failure(error))
    finally:
        writer.close()


def _pickled_failure(error: BaseException) -> bytes:
    try:
        return pickle.dumps(error, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle is sent as its text
        return pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"), pickle.HIGHEST_PROTOCOL)


def _received(process: BaseProcess, reader: Connection) -> list[Result]:
    try:
        message = reader.recv_bytes()
    except EOFError:
        process.join()
        raise ChargenError(
            f"batch: a worker process ended before it sent its NPCs (exit status {process.exitcode})"
        ) from None
    payload = pickle.loads(memoryview(message)[1:])
    if message[:1] == _FAILED:
        raise payload
    result: list[Result] = payload
    return result
