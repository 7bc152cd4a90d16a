"""One PDF made of many records, written as they come, so memory stays flat whatever the count.

Each record arrives as a whole PDF. Its pages, their resources and its bookmarks are copied into the output
at once, object by object, with new object numbers; an object whose bytes were already written is not
written again but referred to. Only the page list, the top bookmarks, the offsets and one digest per
object stay in memory until the end, when the page tree, the bookmarks' top level, the catalog and the
cross-reference table close the file. The same records in the same order give the same bytes.

Fonts: the records of a big batch (chargen.batch.WHOLE_FONTS_FROM) embed each font whole
(chargen.render.pdf, whole_fonts), so the font programs, their text maps and widths are the same bytes in
every record and are written once per file, not once per record; a smaller batch keeps a subset per record. A record leaves those big streams uncompressed (it is only passed here); a stream
without a filter is compressed when it is first written, so the work is done once per file too.
"""

from __future__ import annotations

import hashlib
import zlib
from io import BytesIO
from typing import IO, Any

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    StreamObject,
)

HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
#: Keys of a copied page or bookmark that point back up its own tree: set by this writer, never copied.
_UPWARD = ("/Parent", "/Prev", "/Next")


class StreamingPdf:
    """Records appended one at a time to `stream` (binary, written only forward)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.position = 0
        self.offsets: list[int | None] = [None]  # by object number; 0 is the free list's head
        self.written_as: dict[bytes, int] = {}  # digest of an object's bytes -> its number
        self.page_ids: list[int] = []
        self.bookmarks: list[tuple[int, bytes]] = []  # each record's top bookmark: number, own entries
        self._emit(HEADER)
        self.pages_id, self.outlines_id = self._reserve(), self._reserve()

    def _emit(self, data: bytes) -> None:
        self.stream.write(data)
        self.position += len(data)

    def _reserve(self) -> int:
        self.offsets.append(None)
        return len(self.offsets) - 1

    def _write(self, number: int, body: bytes) -> None:
        self.offsets[number] = self.position
        self._emit(b"%d 0 obj\n%s\nendobj\n" % (number, body))

    def add(self, record: bytes) -> None:
        """Copy one record's pages and bookmarks."""
        copy = _RecordCopy(self, PdfReader(BytesIO(record)))
        pages = list(copy.reader.pages)
        for page in pages:  # numbered first: bookmarks point at the pages
            assert page.indirect_reference is not None
            copy.mapped[page.indirect_reference.idnum] = self._reserve()
        for page in pages:
            assert page.indirect_reference is not None
            number = copy.mapped[page.indirect_reference.idnum]
            entries = copy.entries(page, skip=_UPWARD)
            self._write(number, b"<<%s/Parent %d 0 R>>" % (entries, self.pages_id))
            self.page_ids.append(number)
        root: Any = copy.reader.trailer["/Root"]
        outlines: Any = root.get("/Outlines")
        top: Any = outlines.get("/First") if outlines is not None else None
        while top is not None:
            item = top.get_object()
            number = self._reserve()
            copy.mapped[_idnum(item)] = number
            self.bookmarks.append((number, copy.entries(item, skip=_UPWARD)))
            top = item.get("/Next")

    def finish(self) -> None:
        """The page tree, the bookmarks' top level, the catalog, the cross-reference table."""
        kids = b" ".join(b"%d 0 R" % number for number in self.page_ids)
        self._write(self.pages_id, b"<</Type/Pages/Count %d/Kids[%s]>>" % (len(self.page_ids), kids))
        for index, (number, entries) in enumerate(self.bookmarks):
            links = b"/Parent %d 0 R" % self.outlines_id
            if index > 0:
                links += b"/Prev %d 0 R" % self.bookmarks[index - 1][0]
            if index + 1 < len(self.bookmarks):
                links += b"/Next %d 0 R" % self.bookmarks[index + 1][0]
            self._write(number, b"<<%s%s>>" % (entries, links))
        if self.bookmarks:
            first, last = self.bookmarks[0][0], self.bookmarks[-1][0]
            body = b"<</Type/Outlines/Count %d/First %d 0 R/Last %d 0 R>>" % (
                len(self.bookmarks),
                first,
                last,
            )
        else:
            body = b"<</Type/Outlines/Count 0>>"
        self._write(self.outlines_id, body)
        catalog = self._reserve()
        self._write(
            catalog, b"<</Type/Catalog/Pages %d 0 R/Outlines %d 0 R>>" % (self.pages_id, self.outlines_id)
        )
        table = self.position
        lines = [b"xref\n0 %d\n" % len(self.offsets), b"0000000000 65535 f \n"]
        for offset in self.offsets[1:]:
            lines.append(b"%010d 00000 n \n" % offset if offset is not None else b"0000000000 00000 f \n")
        lines.append(
            b"trailer\n<</Size %d/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n"
            % (len(self.offsets), catalog, table)
        )
        self._emit(b"".join(lines))


class _RecordCopy:
    """One record's objects as they are copied: its object numbers mapped to the output's."""

    def __init__(self, writer: StreamingPdf, reader: PdfReader) -> None:
        self.writer, self.reader = writer, reader
        self.mapped: dict[int, int] = {}
        self.unfinished: set[int] = set()  # being copied: a reference back to one rules out sharing it

    def entries(self, dictionary: DictionaryObject, skip: tuple[str, ...] = ()) -> bytes:
        return b"".join(
            self.value(key) + b" " + self.value(value) for key, value in dictionary.items() if key not in skip
        )

    def value(self, value: Any) -> bytes:
        """A value as PDF bytes, its indirect objects copied (or found already written) first."""
        if isinstance(value, IndirectObject):
            return b"%d 0 R" % self.reference(value)
        if isinstance(value, StreamObject):
            raise ValueError("a stream is always an indirect object")
        if isinstance(value, DictionaryObject):
            return b"<<" + self.entries(value) + b">>"
        if isinstance(value, ArrayObject):
            return b"[" + b" ".join(self.value(item) for item in value) + b"]"
        out = BytesIO()
        value.write_to_stream(out)
        return out.getvalue()

    def reference(self, reference: IndirectObject) -> int:
        known = self.mapped.get(reference.idnum)
        if known is not None:
            if known in self.unfinished:
                self.unfinished.discard(known)  # part of a cycle: written under its own number
            return known
        number = self.mapped[reference.idnum] = self.writer._reserve()
        self.unfinished.add(number)
        target = reference.get_object()
        if isinstance(target, StreamObject):
            data = target._data  # the encoded bytes, copied as they are
            head = self.entries(target, skip=("/Length",))
            body = b"<<%s/Length %d>>\nstream\n%s\nendstream" % (head, len(data), data)
        else:
            body = self.value(target)
        shareable = number in self.unfinished
        self.unfinished.discard(number)
        digest = hashlib.sha256(body).digest()
        if shareable and digest in self.writer.written_as:
            same = self.writer.written_as[digest]
            self.mapped[reference.idnum] = same
            return same  # the reserved number stays free in the cross-reference table
        if shareable:
            self.writer.written_as[digest] = number
        if isinstance(target, StreamObject) and "/Filter" not in target:
            data = zlib.compress(target._data, 9)
            body = b"<<%s/Filter/FlateDecode/Length %d>>\nstream\n%s\nendstream" % (head, len(data), data)
        self.writer._write(number, body)
        return number


def _idnum(item: Any) -> int:
    reference = item.indirect_reference
    assert reference is not None
    return int(reference.idnum)
