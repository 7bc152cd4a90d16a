"""Making NPCs on every core, handing them back in NPC order.

Data NPCs (JSONL, CSV, files, roster, stat blocks) are made, on Linux, by the batch process and forked
workers claiming chunks in turn (chargen.batch.forked). Character Records, and data NPCs where there is no
fork, are made by a process pool: each worker gets the plan and the tables once (its initializer), then makes NPCs a
chunk at a time, submitted through a bounded window and collected strictly in order. Either way the
output is the same whatever the number of jobs, and memory holds a few chunks, never the whole run.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from chargen import stopping
from chargen.batch.npc import NpcOutput, Plan, make_output
from chargen.tables import Tables

if TYPE_CHECKING:  # imported where a pool is made: a data batch on Linux needs none (chargen.batch.forked)
    from concurrent.futures import Future, ProcessPoolExecutor

#: Chunks in flight per worker: enough to keep every worker busy while the parent writes.
WINDOW_PER_JOB = 4
#: Character Records a worker makes before a fresh pool takes over, when WeasyPrint's text layouts leak
#: (about 0.2 MB a record, chargen.render.pango_leak) and the stop for it does not fit the installed
#: WeasyPrint: retiring the workers keeps a 2,000-record batch at the memory of a small one. A new worker
#: costs about a second (WeasyPrint's import, our fonts), 40 records about twelve. With the stop (WeasyPrint
#: 70) memory stays flat without: the records are made in the batch process with one job, and by one pool
#: of workers for the whole run with more.
RECORDS_PER_WORKER = 40

#: Data NPCs made in the batch process before the workers are forked: they start with what those filled,
#: above all the modules a roll imports and the JSONL line writers (the first NPC takes about 19 ms, the
#: next ones 100 to 200 us), not each making its own. The caches that fill more slowly (kits, weapon
#: lines) fill in each process at once: every NPC made here before the fork delays the workers. 10,000
#: NPCs with 2 jobs, compiled, medians of 5-7 alternating runs in three sittings: 0.448, 0.426, 0.424 s
#: with 8 against 0.454, 0.436, 0.425 with 64 (128: 0.465).
WARM_UP = 8

#: Data NPCs a process claims at a time beside forked workers (chargen.batch.forked): about 5 ms of work,
#: so the processes end within 5 ms of each other; a claim's own cost (a lock, a pipe message, the
#: NPCs' pickles) stays near 1% of it.
CLAIMED_CHUNK = 64

# Set once per worker process by `_start_worker` (and in the parent when the run uses one job).
_plan: Plan | None = None
_tables: Tables | None = None
# Whether this process froze its objects after its first Character Record (_collect_record_garbage).
_froze = False


def _start_worker(plan: Plan, tables: Tables) -> None:
    global _plan, _tables
    _plan, _tables = plan, tables


def _start_pool_records_worker(plan: Plan, tables: Tables) -> None:
    """A pool worker's start: its whole-font records carry each font once (chargen.render.wholefont),
    for as long as the process lives, which is no longer than the batch."""
    _start_worker(plan, tables)
    if _carries_fonts_once(plan):
        from chargen.render import wholefont

        wholefont.carry_once_for_good()


def _carries_fonts_once(plan: Plan) -> bool:
    return plan.want_record and plan.whole_fonts


@contextlib.contextmanager
def _carrying_fonts_once(plan: Plan) -> Iterator[None]:
    """While this process makes the records of a whole-font batch: each font carried once."""
    if not _carries_fonts_once(plan):
        yield
        return
    from chargen.render import wholefont
    from chargen.render.pdf import prepare_whole_fonts

    with wholefont.carrying_once(hold=True):  # the records' writer is this process
        prepare_whole_fonts()
        yield


def _start_pool_worker(
    parent: int, scratch: str, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    stopping.in_worker(parent)
    # A worker ends by os._exit, so nothing it made in the temporary folder is removed by its own
    # finalizers (WeasyPrint's FontConfiguration keeps its fonts in a `weasyprint-*` folder until its
    # __del__): it makes them in the pool's scratch folder instead, which the parent removes.
    tempfile.tempdir = scratch
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def worker_pool(
    jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> Iterator[ProcessPoolExecutor]:
    """chargen's process pool (the other way it starts workers is chargen.batch.forked, for data NPCs on
    Linux). Workers follow chargen.stopping (they leave stopping to the parent and die with it); when the
    block fails or is stopped, they are ended at once, not left to finish their queue, and waited for, so
    no process outlives the command. Whatever temporary files the workers make lie in a scratch folder
    removed once they have ended."""
    from concurrent.futures import ProcessPoolExecutor

    scratch = tempfile.mkdtemp(prefix="chargen-workers-")
    try:
        pool = ProcessPoolExecutor(
            max_workers=jobs,
            initializer=_start_pool_worker,
            initargs=(os.getpid(), scratch, initializer, initargs),
        )
        try:
            yield pool
        except BaseException:
            # `_processes` is the executor's own table of its workers; there is no public way to end them.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def make_chunk(numbers: range) -> list[NpcOutput]:
    if _plan is None or _tables is None:
        raise RuntimeError("make_chunk called before the worker was started")
    made = [make_output(_plan, number, _tables) for number in numbers]
    if _plan.want_record:
        _collect_record_garbage()
    else:
        gc.collect(0)  # the collection the collector skips while data NPCs are made (_collector_by_chunk)
    return made


def _collect_record_garbage() -> None:
    """A Character Record's layout leaves many cycles (WeasyPrint's boxes), which only the collector's
    full collections free, and those come rarely: between them the garbage of a varying number of records
    waited, so a batch's peak memory grew with its length (1 job, whole fonts: 103.5 MB at record 7, 104.4
    at record 400). Collected after every record, it stays near one record's (98.1-99.0 MB from record 2 to
    400). So that each collection looks only at what the records made, what the process holds after its
    first record (tables, WeasyPrint, fonts) is frozen (gc.freeze): about 9 ms a record, against 48 ms
    for the whole heap (400 records, pure Python). A process whose objects are frozen already is left as
    it is."""
    global _froze
    gc.collect()
    if not _froze and gc.get_freeze_count() == 0:
        gc.freeze()
        _froze = True


@contextlib.contextmanager
def _records_made_here() -> Iterator[None]:
    """While this process makes Character Records itself: on the way out, what _collect_record_garbage
    froze goes back to the collector, so the caller's process is left as it was."""
    global _froze
    try:
        yield
    finally:
        if _froze:
            gc.unfreeze()
            _froze = False


@contextlib.contextmanager
def _collector_by_chunk() -> Iterator[None]:
    """While data NPCs are made and written, Python's cyclic garbage collector does not run by itself:
    make_chunk collects the youngest generation after each chunk. An NPC leaves almost no cycles (about two
    objects), but the thousands of short-lived objects it makes set off a young collection every few NPCs
    and, every few thousand, a full one over the tables; together about 3% of a data NPC's time (10,000
    NPCs, compiled: 0.79-0.81 s of CPU, 0.77 collecting by chunk). Workers forked meanwhile inherit the
    setting. A Character Record's layout leaves many cycles: records are made with the collector on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def chunk_size(count: int, jobs: int, *, expensive: bool) -> int:
    """NPCs per task. A Character Record takes a third of a second, so one per task balances best; data
    NPCs take a millisecond, so tasks are bigger to keep the per-task overhead small. Only scheduling
    depends on it, never the output."""
    if expensive:
        return 1
    return max(1, min(256, count // (jobs * WINDOW_PER_JOB) or 1))


def _leak_stoppable() -> bool:
    from chargen.render import pango_leak

    return pango_leak.stoppable()


def outputs(plan: Plan, tables: Tables, jobs: int, chunk: int) -> Iterator[NpcOutput]:
    """Every NPC of the plan, in order, in chunks of `chunk`. `jobs` <= 1 (or a single chunk) runs in this
    process, except Character Records past RECORDS_PER_WORKER where WeasyPrint's leak cannot be stopped:
    those are made by pools that retire after that many. With more jobs, data NPCs are shared by this
    process and `jobs - 1` workers (_data_npcs), and Character Records are made by `jobs` workers while
    this process writes."""
    if plan.want_record:
        yield from _records(plan, tables, jobs, chunk)
        return
    with _collector_by_chunk():
        yield from _data_npcs(plan, tables, jobs, chunk)


def _chunks(first: int, last: int, chunk: int) -> Iterator[range]:
    return (range(start, min(start + chunk, last + 1)) for start in range(first, last + 1, chunk))


def _data_npcs(plan: Plan, tables: Tables, jobs: int, chunk: int) -> Iterator[NpcOutput]:
    """With more jobs, the first WARM_UP are made here, then the workers start and the rest are made in
    chunks of at most CLAIMED_CHUNK by this process beside `jobs - 1` forked workers (or, where there is no
    fork, by a pool of `jobs` workers while this process writes)."""
    _start_worker(plan, tables)
    if jobs <= 1 or plan.count <= chunk:
        for numbers in _chunks(1, plan.count, chunk):
            yield from make_chunk(numbers)
        return
    warm = range(1, min(WARM_UP, plan.count) + 1)
    yield from make_chunk(warm)
    if warm.stop > plan.count:
        return
    from chargen.batch import forked

    if forked.available():
        rest = list(_chunks(warm.stop, plan.count, min(chunk, CLAIMED_CHUNK)))
        for npcs in forked.in_order(make_chunk, rest, jobs):
            yield from npcs
    else:
        yield from _pooled(plan, tables, jobs, _chunks(warm.stop, plan.count, chunk))


def _records(plan: Plan, tables: Tables, jobs: int, chunk: int) -> Iterator[NpcOutput]:
    chunk_count = -(-plan.count // chunk)
    retiring = plan.count > RECORDS_PER_WORKER and not _leak_stoppable()
    if (jobs <= 1 and not retiring) or chunk_count <= 1:
        _start_worker(plan, tables)
        with _carrying_fonts_once(plan), _records_made_here():
            for numbers in _chunks(1, plan.count, chunk):
                yield from make_chunk(numbers)  # its layouts' cycles collected before they are written
                # Copying a record into the file (pypdf's reader of it) leaves cycles as well, which
                # waited through the next record's layout, at its peak: collected too, over what is not
                # frozen (20 records, whole fonts, compiled: 96.2-96.3 MB, against 96.4-97.0 collected
                # only after the copy, two sittings, and 97.6-97.9 only before it).
                gc.collect()
        return
    chunks = _chunks(1, plan.count, chunk)
    pool_size = min(max(1, jobs), chunk_count)
    per_pool = max(1, RECORDS_PER_WORKER // chunk) * pool_size if retiring else chunk_count
    for _ in range(0, chunk_count, per_pool):
        yield from _pooled(plan, tables, pool_size, itertools.islice(chunks, per_pool))


def _pooled(plan: Plan, tables: Tables, jobs: int, chunks: Iterator[range]) -> Iterator[NpcOutput]:
    """The NPCs of `chunks`, in order, made by a new pool of `jobs` workers that ends with them."""
    window: collections.deque[Future[list[NpcOutput]]] = collections.deque()
    with worker_pool(jobs, _start_pool_records_worker, (plan, tables)) as pool:
        for numbers in chunks:
            window.append(pool.submit(make_chunk, numbers))
            if len(window) >= jobs * WINDOW_PER_JOB:
                yield from window.popleft().result()
        while window:
            yield from window.popleft().result()
