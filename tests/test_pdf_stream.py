"""The batch PDF written record by record (chargen.batch.pdfstream): the pages, their text and the
bookmarks of every record, in order, and an object already written is not written twice."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from chargen import api
from chargen.batch import BatchOptions, run_batch, workers
from chargen.batch.pdfstream import StreamingPdf
from chargen.render import render_pdf
from chargen.tables import Tables

pytestmark = pytest.mark.slow  # PDFs


def joined(records: list[bytes]) -> bytes:
    out = io.BytesIO()
    writer = StreamingPdf(out)
    for record in records:
        writer.add(record)
    writer.finish()
    return out.getvalue()


def test_the_joined_file_holds_each_record_page_for_page(tables: Tables) -> None:
    records = [render_pdf(api.roll(seed=seed, tables=tables), tables) for seed in (4, 5)]
    merged = PdfReader(io.BytesIO(joined(records)))
    expected = [page.extract_text() for record in records for page in PdfReader(io.BytesIO(record)).pages]
    assert [page.extract_text() for page in merged.pages] == expected
    titles = [PdfReader(io.BytesIO(record)).outline[0].title for record in records]
    top = [item for item in merged.outline if not isinstance(item, list)]
    assert [item.title for item in top] == titles
    assert [merged.get_destination_page_number(item) for item in top] == [0, len(expected) // 2]
    children = [item for item in merged.outline if isinstance(item, list)]
    assert len(children) == 2 and children[0][0].title == "Who"


def test_an_object_written_once_is_referred_to_after(tables: Tables) -> None:
    record = render_pdf(api.roll(seed=4, tables=tables), tables)
    once, twice = joined([record]), joined([record, record])
    # The second copy shares the fonts and every other identical object: only its pages, their contents
    # and its bookmarks are new.
    assert len(twice) - len(once) < len(record) / 2
    assert len(PdfReader(io.BytesIO(twice)).pages) == 2 * len(PdfReader(io.BytesIO(record)).pages)


def test_records_from_replaced_workers_make_the_same_file(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers are replaced every RECORDS_PER_WORKER records (WeasyPrint keeps a little of every layout,
    docs/weasyprint-leak.md): a fresh pool takes over, and the file is the same."""
    from chargen import processes as pool

    opened = pool.pool
    pools: list[int] = []

    @contextlib.contextmanager
    def noted_pool(*args: Any, **kwargs: Any) -> Iterator[Any]:
        pools.append(args[0])
        with opened(*args, **kwargs) as made:
            yield made

    monkeypatch.setattr(pool, "pool", noted_pool)
    made = {}
    for per_worker in (10, 2):
        monkeypatch.setattr(workers, "RECORDS_PER_WORKER", per_worker)
        target = tmp_path / f"{per_worker}.pdf"
        run_batch(BatchOptions(count=5, seed=8, pdf=str(target), jobs=1), tables=tables)
        made[per_worker] = target.read_bytes()
    # 10 a worker: one pool for all five; 2 a worker: three pools in turn.
    assert pools == [1, 1, 1, 1]
    assert made[10] == made[2]
    # A font subset per record, written once where records use the same glyphs.
    assert 2 < len(set(re.findall(rb"/FontFile2 (\d+) 0 R", made[2]))) <= 10


def test_offsets_past_four_gib_are_kept_whole() -> None:
    out = io.BytesIO()
    writer = StreamingPdf(out)
    writer.position = 2**32 + 7
    number = writer._reserve()
    writer._write(number, b"null")
    assert writer.offsets[number] == 2**32 + 7
    writer.finish()
    assert b"\n4294967303 00000 n \n" in out.getvalue()


def test_the_writer_memory_does_not_grow_with_the_records(tables: Tables) -> None:
    """What the end of the file needs is kept (each object's offset, each page's number, each record's
    top bookmark), not the records: pypdf's writer grows 0.75 MB a record. The same record again and
    again adds no digest either (see below)."""
    import gc
    import tracemalloc

    record = render_pdf(api.roll(seed=4, tables=tables), tables)
    writer = StreamingPdf(_Nowhere())
    for _ in range(10):  # past what the first records leave for good (pypdf's and re's caches)
        writer.add(record)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(40):
            writer.add(record)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 40 * 1500, f"{grown / 40:.0f} bytes a record"  # measured: about 1 kB


class _Nowhere(io.RawIOBase):
    """An output that keeps nothing: what the writer holds is all that grows."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return len(data)


def kept_after_each(records: list[bytes]) -> list[int]:
    writer = StreamingPdf(io.BytesIO())
    kept = []
    for record in records:
        writer.add(record)
        kept.append(len(writer.written_as))
    return kept


def test_the_writer_keeps_no_digest_per_record(tables: Tables) -> None:
    """The same record again and again: what it shares is found, what is its own (pages, content,
    bookmarks) is not kept, so the digests kept stop growing after the first; each copy still adds its
    pages."""
    record = render_pdf(api.roll(seed=4, tables=tables), tables)
    kept = kept_after_each([record] * 6)
    assert kept[1:] == [kept[0]] * 5


def test_no_digest_kept_is_of_a_record_own_object(tables: Tables) -> None:
    """Pages, their content streams and bookmarks, and what names them, are never kept: only what
    records can share (fonts, colour spaces, the layout's resources and patterns)."""
    out = io.BytesIO()
    writer = StreamingPdf(out)
    for seed in (4, 5, 6):
        writer.add(render_pdf(api.roll(seed=seed, tables=tables), tables))
    writer.finish()
    reader = PdfReader(io.BytesIO(out.getvalue()))
    own = {_number(page) for page in reader.pages}
    own |= {reference.idnum for page in reader.pages for reference in _contents(page)}
    item = reader.trailer["/Root"]["/Outlines"].get("/First")
    while item is not None:  # the top bookmarks; their children name them and their pages
        own.add(item.indirect_reference.idnum)
        item = item.get_object().get("/Next")
    kept = set(writer.written_as.values())
    assert not kept & own
    for number in kept:
        named = re.findall(rb"(\d+) 0 R", _raw(out.getvalue(), writer.offsets[number]))
        assert not {int(name) for name in named} & own, number


def _number(page: Any) -> int:
    return int(page.indirect_reference.idnum)


def _contents(page: Any) -> list[Any]:
    contents = page.raw_get("/Contents")
    return list(contents) if isinstance(contents, list) else [contents]


def _raw(pdf: bytes, offset: int) -> bytes:
    """An object's bytes up to its stream data or end."""
    end = pdf.index(b"endobj", offset)
    return pdf[offset:end].split(b"stream\n", 1)[0]


def test_a_record_batch_leaves_the_caller_s_collector_as_it_was(tmp_path: Path, tables: Tables) -> None:
    """The records are made in workers, which freeze what they hold after their first record
    (chargen.batch.workers.make_record); the batch process's collector is left alone."""
    import gc

    seen: list[int] = []
    assert gc.get_freeze_count() == 0
    run_batch(
        BatchOptions(count=3, seed=2, jobs=1, pdf=str(tmp_path / "r.pdf")),
        tables=tables,
        progress=lambda done: seen.append(gc.get_freeze_count()),
    )
    assert seen == [0, 0, 0] and gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_caller_s_own_freeze_is_left_alone(tmp_path: Path, tables: Tables) -> None:
    import gc

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        run_batch(BatchOptions(count=2, seed=2, jobs=1, pdf=str(tmp_path / "r.pdf")), tables=tables)
        # Neither given back nor frozen more (a frozen object that dies leaves the count).
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


def test_each_record_s_cycles_are_collected_before_it_is_sent(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cycles a record's layout leaves are gone before the worker sends the record, whatever the
    collector's own thresholds (turned off here), and what the worker held after its first record is
    frozen, so each collection looks only at the next record's objects."""
    import gc
    import weakref

    from chargen.batch import checked_plan

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    left: list[weakref.ref[Cycle]] = []
    made_by = workers.make_output

    def leaving_a_cycle(*arguments: Any) -> Any:
        cycle = Cycle()
        left.append(weakref.ref(cycle))
        return made_by(*arguments)

    monkeypatch.setattr(workers, "make_output", leaving_a_cycle)
    monkeypatch.setattr(workers, "_froze", False)
    plan = checked_plan(BatchOptions(count=2, seed=2, pdf="r.pdf"), tables)
    monkeypatch.setattr(workers, "_plan", plan)  # as a worker's start sets them
    monkeypatch.setattr(workers, "_tables", tables)
    gc.disable()
    try:
        for number in (1, 2):
            assert workers.make_record(number).record_pdf
            assert left[-1]() is None
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
