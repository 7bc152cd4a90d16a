"""The batch PDF written record by record (chargen.batch.pdfstream): the pages, their text and the
bookmarks of every record, in order, and an object already written is not written twice."""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from chargen import api
from chargen.batch import BatchOptions, run_batch, workers
from chargen.batch.pdfstream import StreamingPdf
from chargen.render import render_pdf, wholefont
from chargen.tables import Tables


def joined(records: list[bytes]) -> bytes:
    out = io.BytesIO()
    writer = StreamingPdf(out)
    try:
        for record in records:
            writer.add(record)
        writer.finish()
    finally:
        writer.close()
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
    """Where WeasyPrint's leak cannot be stopped (chargen.render.pango_leak), workers retire every
    RECORDS_PER_WORKER records; where it can, one job makes every record in this process. The file is
    the same either way."""
    pool = workers.worker_pool
    pools: list[int] = []

    @contextlib.contextmanager
    def noted_pool(*args: Any, **kwargs: Any) -> Iterator[Any]:
        pools.append(args[0])
        with pool(*args, **kwargs) as made:
            yield made

    monkeypatch.setattr(workers, "worker_pool", noted_pool)
    monkeypatch.setattr("chargen.batch.WHOLE_FONTS_FROM", 5)  # the big batches' fonts, in a small one
    made = {}
    for per_worker, stoppable in ((10, False), (2, False), (2, True)):
        monkeypatch.setattr(workers, "RECORDS_PER_WORKER", per_worker)
        monkeypatch.setattr(workers, "_leak_stoppable", lambda stoppable=stoppable: stoppable)
        target = tmp_path / f"{per_worker}-{stoppable}.pdf"
        run_batch(BatchOptions(count=5, seed=8, pdf=str(target), jobs=1), tables=tables)
        made[per_worker, stoppable] = target.read_bytes()
    # 10 a worker: all five in this process; 2 a worker: three pools in turn, or none with the stop.
    assert pools == [1, 1, 1]
    assert made[10, False] == made[2, False] == made[2, True]
    assert len(set(re.findall(rb"/FontFile2 (\d+) 0 R", made[10, False]))) == 2  # whole fonts, written once


# The records of a big batch embed their fonts whole (render_pdf(..., whole_fonts=True)), so the joined
# file holds each font once; a text map closed over the fonts' substitutions keeps their glyphs readable.


def whole(seed: int, tables: Tables) -> bytes:
    return render_pdf(api.roll(seed=seed, tables=tables), tables, whole_fonts=True)


def font_programs(pdf: bytes) -> dict[str, Any]:
    """Each font of the file by its name (without the subset tag): its FontFile2 stream and its text map."""
    found: dict[str, Any] = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            name = str(font["/BaseFont"]).split("+", 1)[1]
            found[name] = (descriptor["/FontFile2"], font["/ToUnicode"].get_object().get_data())
    return found


def texts_by_glyph_name(program: Any, to_unicode: bytes) -> dict[str, str]:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    names = TTFont(io.BytesIO(program.get_object().get_data())).getGlyphOrder()
    pairs = re.findall(rb"<([0-9a-f]{4})> <([0-9a-f]+)>", to_unicode)
    return {names[int(glyph, 16)]: bytes.fromhex(text.decode()).decode("utf-16-be") for glyph, text in pairs}


def test_glyphs_reached_by_substitution_read_as_their_letters(tables: Tables) -> None:
    fonts = font_programs(whole(4, tables))
    regular = texts_by_glyph_name(*fonts["Record-Garamond"])
    assert regular["a.sc"] == "a" and regular["A.sc"] == "A"  # small capitals: from a (smcp), from A (c2sc)
    assert regular["q.longsc"] == "q"  # reached from both q.sc and Q.sc: lower case
    assert regular["one.tablining"] == "1" and regular["seven.tablining"] == "7"  # tabular lining figures
    assert regular["T_h"] == "Th"  # a ligature: its letters
    italic = texts_by_glyph_name(*fonts["Record-Garamond-Italic"])
    assert italic["uniFB01"] == "fi"  # reached by the liga feature: fi, not the presentation form U+FB01


def test_whole_fonts_read_as_the_subset_fonts_do(tables: Tables) -> None:
    """The same words; only the case of small capitals can differ (one glyph serves both a and A)."""
    character = api.roll(seed=5, tables=tables)
    subset, whole_fonts = (
        [page.extract_text().lower() for page in PdfReader(io.BytesIO(pdf)).pages]
        for pdf in (render_pdf(character, tables), render_pdf(character, tables, whole_fonts=True))
    )
    assert whole_fonts == subset


def test_the_fonts_are_written_once_per_file(tables: Tables) -> None:
    records = [whole(seed, tables) for seed in (4, 5, 6)]
    one, three = joined(records[:1]), joined(records)
    programs = re.findall(rb"/FontFile2 (\d+) 0 R", three)
    # EB Garamond and its italic, once each: nothing per record
    assert len(set(programs)) == len(font_programs(one)) == 2
    assert font_programs(three)["Record-Garamond"][0].get_object()["/Filter"] == "/FlateDecode"
    # Measured: about 15 kB more per record (its pages); a font subset per record added about 5 kB more.
    assert (len(three) - len(one)) / 2 < 20_000


def test_a_small_batch_keeps_a_font_subset_per_record(tmp_path: Path, tables: Tables) -> None:
    """Below chargen.batch.WHOLE_FONTS_FROM records, subsets make the smaller file."""
    target = tmp_path / "two.pdf"
    run_batch(BatchOptions(count=2, seed=8, pdf=str(target), jobs=1), tables=tables)
    assert len(set(re.findall(rb"/FontFile2 (\d+) 0 R", target.read_bytes()))) == 4  # two fonts, two records


def test_whole_fonts_are_the_bytes_weasyprints_whole_font_mode_writes(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record is laid out with subsets and made whole after (chargen.render.wholefont): the same PDF as
    WeasyPrint's own whole-font mode with the full text map, which costs a parse of every glyph a record."""
    import weasyprint

    from chargen.render import textmap

    def full_text_map(document: Any, pdf: Any) -> None:  # the finisher of WeasyPrint's whole-font mode
        for font in [item for item in pdf.objects if isinstance(item, dict)]:
            if font.get("Subtype") == "/Type0":
                cid_font = pdf.objects[int(font["DescendantFonts"][0].split()[0])]
                descriptor = pdf.objects[int(cid_font["FontDescriptor"].split()[0])]
                program = pdf.objects[int(descriptor["FontFile2"].split()[0])]
                to_unicode = pdf.objects[int(font["ToUnicode"].split()[0])]
                program.compress = to_unicode.compress = False
                to_unicode.stream = [textmap.to_unicode_cmap(bytes(program.stream[0]))]

    character = api.roll(seed=6, tables=tables)
    ours = render_pdf(character, tables, whole_fonts=True)
    write_pdf = weasyprint.Document.write_pdf

    def whole_font_mode(document: Any, *args: Any, finisher: Any = None, **options: Any) -> Any:
        return write_pdf(document, *args, finisher=full_text_map, full_fonts=True, **options)

    monkeypatch.setattr(weasyprint.Document, "write_pdf", whole_font_mode)
    assert render_pdf(character, tables, whole_fonts=True) == ours


def test_a_batch_carries_each_font_once(tables: Tables) -> None:
    """Within carrying_once (a batch's worker) a font's program and text map go in the first record that
    uses them and a stand-in after: the records are small, the joined file the same."""
    characters = [api.roll(seed=seed, tables=tables) for seed in (4, 5, 6)]
    full = [render_pdf(character, tables, whole_fonts=True) for character in characters]
    with wholefont.carrying_once():
        carried = [render_pdf(character, tables, whole_fonts=True) for character in characters]
    assert carried[0] == full[0]
    assert all(len(record) < 60_000 < len(whole) for record, whole in zip(carried[1:], full[1:], strict=True))
    assert joined(carried) == joined(full)
    with pytest.raises(ValueError, match="no earlier record carried"):
        joined(carried[1:])


def test_a_batch_process_holding_the_fonts_writes_them_from_what_it_holds(tables: Tables) -> None:
    """With `hold` (the batch process makes and writes its records) even the first record carries only
    stand-ins, and the writer writes each font from the data held for it: the same file."""
    characters = [api.roll(seed=seed, tables=tables) for seed in (4, 5, 6)]
    full = [render_pdf(character, tables, whole_fonts=True) for character in characters]
    with wholefont.carrying_once(hold=True):
        held = [render_pdf(character, tables, whole_fonts=True) for character in characters]
        assert all(len(record) < 60_000 for record in held)  # no font program in any of them
        assert joined(held) == joined(full)
        assert wholefont._held == {}  # each taken once, by the writer
        with pytest.raises(ValueError, match="no earlier record carried"):
            joined(held)  # taken: a second file cannot be written from them
    assert wholefont._held is None


def test_a_batch_made_carrying_fonts_once_is_the_batch_made_without(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chargen.batch.WHOLE_FONTS_FROM", 3)
    made = []
    for once in (True, False):
        monkeypatch.setattr(workers, "_carries_fonts_once", lambda plan, once=once: once)
        target = tmp_path / f"{once}.pdf"
        run_batch(BatchOptions(count=3, seed=9, pdf=str(target), jobs=1), tables=tables)
        made.append(target.read_bytes())
        assert wholefont._carried is None  # the batch's carrying ends with it
    assert made[0] == made[1]


def test_offsets_past_four_gib_are_kept_whole() -> None:
    out = io.BytesIO()
    writer = StreamingPdf(out)
    writer.position = 2**32 + 7
    number = writer._reserve()
    writer._write(number, b"null")
    assert writer.offsets[number] == 2**32 + 7
    writer.finish()
    writer.close()
    assert b"\n4294967303 00000 n \n" in out.getvalue()


def test_the_writer_memory_does_not_grow_with_the_records(tables: Tables) -> None:
    """The offsets and the top bookmarks, which the end of the file needs, wait on disk
    (chargen.batch.spool): in memory they were about 0.6 kB a record. The same record again and again
    adds no digest either (see below), so what is left is a page number, 4 bytes a page."""
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
        writer.close()
    assert grown < 40 * 100, f"{grown / 40:.0f} bytes a record"


class _Nowhere(io.RawIOBase):
    """An output that keeps nothing: what the writer holds is all that grows."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return len(data)


def test_the_writer_files_are_unnamed_beside_the_output_and_closed_at_the_end(
    tmp_path: Path, tables: Tables
) -> None:
    """The writer's own files never have a name (nothing to leave behind, however the run ends), live on
    the output's disk, and are closed when the output is finished or discarded."""
    from chargen.batch.npc import NpcOutput
    from chargen.batch.writers import RecordsPdfOutput

    record = render_pdf(api.roll(seed=4, tables=tables), tables)
    for ending in ("finish", "discard"):
        before = _open_files()
        output = RecordsPdfOutput(str(tmp_path / f"{ending}.pdf"))
        output.add(NpcOutput(1, None, None, None, None, record, None))
        spooled = [name for name in _open_files() - before if not name.endswith(".part")]
        assert len(spooled) == 2 and all(
            name.startswith(str(tmp_path)) and name.endswith("(deleted)") for name in spooled
        ), spooled
        getattr(output, ending)()
        assert not set(spooled) & _open_files()
        output.discard()
        assert sorted(path.name for path in tmp_path.iterdir()) == []


def _open_files() -> set[str]:
    folder = Path("/proc/self/fd")
    if not folder.is_dir():
        pytest.skip("needs /proc/self/fd")
    names = set()
    for descriptor in folder.iterdir():
        with contextlib.suppress(OSError):
            names.add(os.readlink(descriptor))
    return names


def kept_after_each(records: list[bytes]) -> list[int]:
    writer = StreamingPdf(io.BytesIO())
    kept = []
    for record in records:
        writer.add(record)
        kept.append(len(writer.written_as))
    writer.close()
    return kept


def test_the_writer_keeps_no_digest_per_record(tables: Tables) -> None:
    """The same record again and again: what it shares is found, what is its own (pages, content,
    bookmarks) is not kept, so the digests kept stop growing after the first; each copy still adds its
    pages."""
    record = whole(4, tables)
    kept = kept_after_each([record] * 6)
    assert kept[1:] == [kept[0]] * 5


def test_no_digest_kept_is_of_a_record_own_object(tables: Tables) -> None:
    """Pages, their content streams and bookmarks, and what names them, are never kept: only what
    records can share (fonts, colour spaces, the layout's resources and patterns)."""
    out = io.BytesIO()
    writer = StreamingPdf(out)
    for seed in (4, 5, 6):
        writer.add(whole(seed, tables))
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
    writer.close()


def _number(page: Any) -> int:
    return int(page.indirect_reference.idnum)


def _contents(page: Any) -> list[Any]:
    contents = page.raw_get("/Contents")
    return list(contents) if isinstance(contents, list) else [contents]


def _raw(pdf: bytes, offset: int) -> bytes:
    """An object's bytes up to its stream data or end."""
    end = pdf.index(b"endobj", offset)
    return pdf[offset:end].split(b"stream\n", 1)[0]


def test_a_record_batch_collects_each_record_s_garbage_and_leaves_the_collector_as_it_was(
    tmp_path: Path, tables: Tables
) -> None:
    """A layout's cycles are collected after each record, over what the process held after its first one,
    frozen (chargen.batch.workers._collect_record_garbage); the batch unfreezes it when it ends."""
    import gc

    seen: list[tuple[int, int]] = []

    def noted(done: int) -> None:
        seen.append((gc.get_freeze_count(), len(gc.garbage)))

    assert gc.get_freeze_count() == 0
    run_batch(
        BatchOptions(count=3, seed=2, jobs=1, pdf=str(tmp_path / "r.pdf")), tables=tables, progress=noted
    )
    assert len(seen) == 3 and all(frozen > 0 for frozen, _ in seen)  # frozen from the first record on
    assert gc.get_freeze_count() == 0  # and given back


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


def test_each_record_s_cycles_are_collected_before_the_next_layout(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cycles a record's layout leaves are gone before the record is written (1 job), and those its
    copy into the file leaves (pypdf's reader) before the next record is laid out, whatever the collector's
    own thresholds (turned off here)."""
    import gc
    import weakref

    from chargen.batch import pdfstream

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    left: list[weakref.ref[Cycle]] = []
    alive: dict[str, list[int]] = {"layout": [], "writing": []}

    def leaving_a_cycle(step: str, function: Any) -> Any:
        def leaving(*arguments: Any) -> Any:
            alive[step].append(sum(cycle() is not None for cycle in left))  # before its own
            cycle = Cycle()
            left.append(weakref.ref(cycle))
            return function(*arguments)

        return leaving

    monkeypatch.setattr(workers, "make_output", leaving_a_cycle("layout", workers.make_output))
    add = pdfstream.StreamingPdf.add
    monkeypatch.setattr(pdfstream.StreamingPdf, "add", leaving_a_cycle("writing", add))
    gc.disable()
    try:
        run_batch(BatchOptions(count=3, seed=2, jobs=1, pdf=str(tmp_path / "r.pdf")), tables=tables)
    finally:
        gc.enable()
    assert len(left) == 6 and alive == {"layout": [0, 0, 0], "writing": [0, 0, 0]}
    assert left[-1]() is None  # the last record's copy too, before the batch ends


def test_the_record_fonts_are_worked_out_before_any_layout(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """prepare_whole_fonts works out fonts.css's fonts from their files, known again by their identity when
    a record uses them; the writer then reads each program from its file (nothing held) and writes the
    same file as records that carry their fonts."""
    from chargen.render import pdf

    monkeypatch.setattr(wholefont, "_fonts", {})
    monkeypatch.setattr(wholefont, "_sources", {})
    characters = [api.roll(seed=seed, tables=tables) for seed in (4, 5)]
    full = [render_pdf(character, tables, whole_fonts=True) for character in characters]
    monkeypatch.setattr(wholefont, "_fonts", {})
    with wholefont.carrying_once(hold=True):
        pdf.prepare_whole_fonts()
        assert len(wholefont._sources) == 2  # the regular and the italic
        monkeypatch.setattr(wholefont, "_work_out", lambda font: pytest.fail("worked out in a layout"))
        held = [render_pdf(character, tables, whole_fonts=True) for character in characters]
        assert wholefont._held is not None
        held_readers = wholefont._held
        assert all(held_readers.get(key) is read for key, read in wholefont._sources.items())  # not held
        assert joined(held) == joined(full)


def test_a_font_file_that_changes_during_the_batch_is_refused(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer reads a prepared font's program again: if the file changed since, the records laid out
    with the old one would not fit it, and the batch stops with one error instead of a wrong file."""
    from chargen.errors import ChargenError
    from chargen.render import pdf

    monkeypatch.setattr(wholefont, "_fonts", {})
    monkeypatch.setattr(wholefont, "_sources", {})
    reads: list[str] = []
    real = pdf._font_program

    def changing(url: str) -> bytes:
        reads.append(url)
        return real(url) + (b"\0" if len(reads) > 2 else b"")  # the same for prepare, then changed

    monkeypatch.setattr(pdf, "_font_program", changing)
    with wholefont.carrying_once(hold=True):
        pdf.prepare_whole_fonts()
        record = render_pdf(api.roll(seed=4, tables=tables), tables, whole_fonts=True)
        with pytest.raises(ChargenError, match="changed on disk"):
            joined([record])
