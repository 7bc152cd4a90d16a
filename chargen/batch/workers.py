"""Making a batch's NPCs, handed back in NPC order, on as many cores as asked (chargen.processes).

Data NPCs (JSONL, CSV, files, roster, stat blocks) are made a chunk at a time: by this process with one
job, else by `jobs` workers while this process writes. Character Records are made one per task by
`jobs` workers, replaced every RECORDS_PER_WORKER records, while this process writes the PDF. Either way
the output is the same whatever the number of jobs, the chunks are planned as they are needed, and memory
holds a few chunks, never the whole run.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Generator, Iterator

from chargen import processes
from chargen.batch.npc import NpcOutput, Plan, make_output
from chargen.tables import Tables

#: Character Records a worker makes before a fresh one takes over. WeasyPrint keeps a little memory for
#: good in every layout (docs/weasyprint-leak.md); retired workers keep a long batch at the memory of a
#: short one. A fresh worker (WeasyPrint's import, our fonts and stylesheets) costs a small part of what
#: its records do (docs/performance.md).
RECORDS_PER_WORKER = 40
#: What a batch says when one of its workers dies.
DIED = "batch: a worker process ended before it sent its NPCs (killed, or out of memory); nothing was written"

# Set once per worker process by `_start_worker` (and in this process when it makes the NPCs itself).
_plan: Plan | None = None
_tables: Tables | None = None
# Whether this worker froze its objects after its first Character Record (make_record).
_froze = False


def _start_worker(plan: Plan, tables: Tables) -> None:
    global _plan, _tables
    _plan, _tables = plan, tables


def make_chunk(numbers: range) -> list[NpcOutput]:
    if _plan is None or _tables is None:
        raise RuntimeError("make_chunk called before the worker was started")
    made = [make_output(_plan, number, _tables) for number in numbers]
    gc.collect(0)  # the collection the collector skips while data NPCs are made (_collector_by_chunk)
    return made


def make_record(number: int) -> NpcOutput:
    """A worker's Character Record. A layout leaves many cycles (WeasyPrint's boxes), which only the
    collector's full collections free, and those come rarely: between them the garbage of a varying
    number of records waited, so the worker's peak grew. Collected after every record, it stays near one
    record's. So that each collection looks only at what the record made, what the worker holds after its
    first record (tables, WeasyPrint, fonts) is frozen (gc.freeze), far quicker than collecting the whole
    heap (docs/performance.md)."""
    global _froze
    if _plan is None or _tables is None:
        raise RuntimeError("make_record called before the worker was started")
    made = make_output(_plan, number, _tables)
    gc.collect()
    if not _froze:
        gc.freeze()
        _froze = True
    return made


@contextlib.contextmanager
def _collector_by_chunk() -> Iterator[None]:
    """While data NPCs are made and written, Python's cyclic garbage collector does not run by itself:
    make_chunk collects the youngest generation after each chunk. An NPC leaves almost no cycles (about two
    objects), but the thousands of short-lived objects it makes set off a young collection every few NPCs
    and, every few thousand, a full one over the tables (docs/performance.md). Forked
    workers inherit the setting."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def chunk_size(count: int, jobs: int) -> int:
    """Data NPCs per task: a data NPC takes well under a millisecond, so tasks are big enough to keep the
    per-task cost (a message each way, the pickles) small, and small enough to keep every worker busy.
    Only scheduling depends on it, never the output."""
    return max(1, min(256, count // (jobs * processes.WINDOW_PER_JOB) or 1))


def _chunks(count: int, chunk: int) -> Iterator[range]:
    return (range(start, min(start + chunk, count + 1)) for start in range(1, count + 1, chunk))


def outputs(plan: Plan, tables: Tables, jobs: int) -> Generator[NpcOutput, None, None]:
    """Every NPC of the plan, in order (see the module's text)."""
    if plan.want_record:
        yield from processes.in_order(
            make_record,
            range(1, plan.count + 1),
            min(jobs, plan.count),
            initializer=_start_worker,
            initargs=(plan, tables),
            tasks_per_worker=RECORDS_PER_WORKER,
            died=DIED,
        )
        return
    chunk = chunk_size(plan.count, jobs)
    with _collector_by_chunk():
        if jobs <= 1 or plan.count <= chunk:
            _start_worker(plan, tables)
            for numbers in _chunks(plan.count, chunk):
                yield from make_chunk(numbers)
            return
        made = processes.in_order(
            make_chunk,
            _chunks(plan.count, chunk),
            jobs,
            initializer=_start_worker,
            initargs=(plan, tables),
            died=DIED,
        )
        with contextlib.closing(made):  # closed with this generator: the pool ends at once
            for npcs in made:
                yield from npcs
