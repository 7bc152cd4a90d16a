"""Whole fonts for the records of a big batch PDF, without WeasyPrint's whole-font mode.

The records of a big batch (chargen.batch.WHOLE_FONTS_FROM) embed each font whole, so the font objects
are the same bytes in every record and chargen.batch.pdfstream writes them once per file. WeasyPrint's
own whole-font mode (`full_fonts`) costs every record a fontTools parse of every glyph of every font (its
widths) and a megabyte of font program in the record: about 9 MB more peak memory than subset records,
measured. So a record is laid out and written as a subset record (WeasyPrint keeps each glyph's id when it
subsets), and `make_whole` (a WeasyPrint finisher: the PDF's objects before they are written) puts back
what a whole font has: the program, a width for every glyph, the bounding box those widths give, and a
text map for every glyph (chargen.render.textmap). These come from the font file, worked out once per
process: the same bytes as WeasyPrint's whole-font mode writes.

`carrying_once()`: within it (a batch's worker), a font's program and text map are carried by the first
record of the process that uses the font, and later records carry only a stand-in naming them (a stream
with /StandsFor and no data): chargen.batch.pdfstream, which writes the records in order, has then already
written the real stream. `carrying_once(hold=True)`: the batch process makes the records itself, so even
the first record carries a stand-in, and the stream's data is held here until the writer, in the same
process, takes it (`take_held`); for a font `prepare` worked out before the first layout, only how to read
it again from its file is held. The first record is then laid out and written without a megabyte of font
programs in it, which made its peak memory about 3.5 MB above every later record's. A record with
stand-ins is not a PDF to use alone; outside `carrying_once` every record carries its fonts.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from chargen.render.errors import RenderError

#: The key of a stand-in stream: the sha256 (hex, as a PDF name) of the data of the stream it stands for.
STANDS_FOR = "StandsFor"

# Within `carrying_once`: the keys of the streams a record of this process has carried or stood in for.
_carried: set[str] | None = None
# Within `carrying_once(hold=True)`: how to read each stream stood in for that the writer has not taken yet.
_held: dict[str, Callable[[], bytes]] | None = None
# The programs `prepare` worked out, by key: how to read each again (its font file), so none is held.
_sources: dict[str, Callable[[], bytes]] = {}


@dataclass(frozen=True)
class WholeFont:
    """What a font embedded whole adds to its subset's objects; the same for every record. The program
    itself is not kept (most records carry only its key): it is read from the font again when needed."""

    program_key: str
    program_length: int
    to_unicode: bytes  # the ToUnicode CMap, uncompressed
    to_unicode_key: str
    widths: bytes  # the CIDFont's /W array, as PDF
    widest: float  # the largest width: the right edge of the descriptor's /FontBBox


def _key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_fonts: dict[bytes, WholeFont] = {}  # by font file (`_identity`): a few fonts, kept for the process


@contextlib.contextmanager
def carrying_once(*, hold: bool = False) -> Iterator[None]:
    """Whole-font records made inside carry each font's big streams once, or with `hold` (the records'
    writer is in this process) never, their data held for the writer (see the module's text)."""
    global _carried, _held
    saved = _carried, _held
    _carried, _held = set(), ({} if hold else None)
    try:
        yield
    finally:
        _carried, _held = saved


def take_held(key: str) -> bytes | None:
    """The data of the stream `key` names, held since a record of this process stood in for it (or read
    again from its font file now, for a font `prepare` worked out); None when none is held (it was carried
    by a record, or taken already)."""
    reader = _held.pop(key, None) if _held is not None else None
    if reader is None:
        return None
    data = reader()
    if _key(data) != key:  # a font file that changed since `prepare` read it: its records do not fit
        raise RenderError(f"a font changed on disk while the batch used it ({key[:12]}...)")
    return data


def prepare(read: Callable[[], bytes]) -> None:
    """Work out now the whole-font objects of a font file the records may use (`read` gives its program,
    as WeasyPrint embeds it), rather than while the first record's layout fills memory; and, for records
    that hold their fonts for the writer, read the program again only when the writer takes it. A font
    whose file WeasyPrint loads otherwise is told apart by `_identity`, and worked out when first met."""
    program = read()
    identity = _identity_of(program, 0)
    upem = _units_per_em(program)
    if identity is None or identity in _fonts or not 16 <= upem <= 16384:  # HarfBuzz's own upem otherwise
        return
    whole = _fonts[identity] = _worked_out(program, 0, upem)
    _sources[whole.program_key] = read


def carry_once_for_good() -> None:
    """`carrying_once` for the rest of this process: a batch worker's, which ends with the batch."""
    global _carried
    _carried = set()


def make_whole(document: Any, pdf: Any) -> None:
    """The finisher: each subset font of `pdf` (pydyf objects) made whole, or a stand-in for it."""
    fonts = {font.name: font for font in document.fonts.values()}

    def target(reference: bytes) -> Any:
        return pdf.objects[int(reference.split()[0])]

    for font_dictionary in list(pdf.objects):
        if not isinstance(font_dictionary, dict) or font_dictionary.get("Subtype") != "/Type0":
            continue
        font = fonts.get(font_dictionary["BaseFont"])
        if font is None or not _wholly_kept(font):
            continue  # a font WeasyPrint changes when it embeds it whole: its subset stays
        whole = whole_font(font)
        cid_font = target(font_dictionary["DescendantFonts"][0])
        descriptor = target(cid_font["FontDescriptor"])
        cid_font["W"] = whole.widths
        box = descriptor["FontBBox"]
        descriptor["FontBBox"] = type(box)((box[0], box[1], whole.widest, box[3]))
        program = target(descriptor.get("FontFile2") or descriptor["FontFile3"])
        if "Length1" in program.extra:
            program.extra["Length1"] = whole.program_length
        _fill(program, whole.program_key, functools.partial(_program, font))  # read only when carried
        to_unicode = target(font_dictionary["ToUnicode"])
        _fill(to_unicode, whole.to_unicode_key, functools.partial(bytes, whole.to_unicode))


def _wholly_kept(font: Any) -> bool:
    """Whether WeasyPrint embeds the font's file as it is when it embeds it whole: not a variable font
    (made static first) nor one with colour glyphs (taken out first)."""
    return not ("fvar" in font.tables or font.png or font.svg or getattr(font, "colr", False))


def _fill(stream: Any, key: str, data: Callable[[], bytes]) -> None:
    """A pydyf stream given its whole data, uncompressed (the batch writer compresses it once per file),
    or made a stand-in for it: within `carrying_once`, once this process has carried it, and always when
    the data is held for the writer. A stand-in keeps the stream's own entries, so the writer can write
    the real stream from it and the held data."""
    stream.compress = False
    if _carried is None:  # a record on its own: it carries everything
        stream.stream = [data()]
        return
    if key not in _carried:
        _carried.add(key)
        if _held is None:  # a worker's first record with the font: it carries the stream to the writer
            stream.stream = [data()]
            return
        _held[key] = _sources.get(key) or functools.partial(bytes, data())
    stream.stream = []
    stream.extra = {**stream.extra, STANDS_FOR: "/" + key}


def whole_font(font: Any) -> WholeFont:
    """The whole-font objects of a WeasyPrint font, worked out the first time the process meets its file."""
    identity = _identity(font)
    known = _fonts.get(identity)
    if known is None:
        known = _fonts[identity] = _work_out(font)
    return known


def _identity(font: Any) -> bytes:
    """The font file, told apart without copying it: its length and its head table, whose
    checkSumAdjustment is a checksum of the whole file."""
    from weasyprint.text.ffi import ffi, harfbuzz

    blob = harfbuzz.hb_face_reference_blob(font.hb_face)
    head = harfbuzz.hb_face_reference_table(font.hb_face, harfbuzz.hb_tag_from_string(b"head", -1))
    try:
        with ffi.new("unsigned int *") as length:
            data = harfbuzz.hb_blob_get_data(head, length)
            table = b"" if data == ffi.NULL else ffi.unpack(data, int(length[0]))
        return b"%d %d " % (harfbuzz.hb_blob_get_length(blob), font.index) + table
    finally:
        harfbuzz.hb_blob_destroy(head)
        harfbuzz.hb_blob_destroy(blob)


def _work_out(font: Any) -> WholeFont:
    return _worked_out(_program(font), font.index, font.upem)


def _worked_out(program: bytes, index: int, upem: int) -> WholeFont:
    """As WeasyPrint's whole-font mode: a width for every glyph, in glyph order, in thousandths of the em."""
    import pydyf  # type: ignore[import-untyped]

    from chargen.render import textmap

    widths = [advance * 1000 / upem for advance in _advances(program, index)]
    array = pydyf.Array([0, pydyf.Array(widths)]) if widths else pydyf.Array()
    to_unicode = textmap.to_unicode_cmap(program)
    return WholeFont(
        program_key=_key(program),
        program_length=len(program),
        to_unicode=to_unicode,
        to_unicode_key=_key(to_unicode),
        widths=array.data,
        widest=max(widths, default=0),
    )


def _identity_of(program: bytes, index: int) -> bytes | None:
    """`_identity` of a font file read whole (not a collection): None where its head cannot be read."""
    head = _table(program, b"head")
    return b"%d %d " % (len(program), index) + head if head is not None else None


def _table(program: bytes, tag: bytes) -> bytes | None:
    """A table of a font file (not a collection), found through its table directory."""
    try:
        (tables,) = struct.unpack_from(">H", program, 4)
        for record in range(tables):
            found, _, offset, length = struct.unpack_from(">4sIII", program, 12 + 16 * record)
            if found == tag:
                return program[offset : offset + length]
    except struct.error:
        return None
    return None


def _program(font: Any) -> bytes:
    """The font file, as WeasyPrint's whole-font mode embeds it (checked by `_wholly_kept`)."""
    from weasyprint.text.fonts import get_hb_object_data

    program: bytes = get_hb_object_data(font.hb_face)
    return program


def _advances(program: bytes, index: int) -> list[int]:
    """Each glyph's advance width, read from the hmtx table's bytes: fontTools' own hmtx table would stay
    in memory (measured: about 180 kB a font, for the life of the process)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    parsed = TTFont(BytesIO(program), fontNumber=index, lazy=True)
    glyphs: int = parsed["maxp"].numGlyphs
    metrics: int = parsed["hhea"].numberOfHMetrics
    table: bytes = parsed.reader["hmtx"]
    advances = [int(advance) for advance, _ in struct.iter_unpack(">Hh", table[: 4 * metrics])]
    return advances + advances[-1:] * (glyphs - metrics)


def _units_per_em(program: bytes) -> int:
    head = _table(program, b"head")
    return int(struct.unpack_from(">H", head, 18)[0]) if head is not None and len(head) >= 20 else 0
