"""The batch PDF written record by record (chargen.batch.pdfstream): the pages, their text and the
bookmarks of every record, in order, and an object already written is not written twice."""

from __future__ import annotations

import contextlib
import io
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
    """Workers retire every RECORDS_PER_WORKER records (WeasyPrint's memory growth); the file is the one a
    single process makes."""
    pool = workers.worker_pool
    pools: list[int] = []

    @contextlib.contextmanager
    def noted_pool(*args: Any, **kwargs: Any) -> Iterator[Any]:
        pools.append(args[0])
        with pool(*args, **kwargs) as made:
            yield made

    monkeypatch.setattr(workers, "worker_pool", noted_pool)
    made = {}
    for per_worker in (10, 2):
        monkeypatch.setattr(workers, "RECORDS_PER_WORKER", per_worker)
        target = tmp_path / f"{per_worker}.pdf"
        run_batch(BatchOptions(count=5, seed=8, pdf=str(target), jobs=1), tables=tables)
        made[per_worker] = target.read_bytes()
    assert pools == [1, 1, 1]  # 10 a worker: all five in this process; 2 a worker: three pools in turn
    assert made[10] == made[2]
