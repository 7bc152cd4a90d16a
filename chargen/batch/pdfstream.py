"""One PDF made of many records, written as they come, so memory stays flat whatever the count.

Each record arrives as a whole PDF. Its pages, their resources and its bookmarks are copied into the output
at once, object by object, with new object numbers; an object whose bytes were already written is not
written again but referred to. What the end of the file needs (each object's offset, 8 bytes; each page's
number, 4 bytes; each record's top bookmark, about 130 bytes) and one digest per shareable object (see
Memory) stay in memory until the end, when the page tree, the bookmarks' top level, the catalog and the
cross-reference table close the file: a little a record, where pypdf's writer holds every object it
has written (docs/performance.md). The same records in the same order give the same bytes.

Memory: an object whose bytes name an object of its own record that no other record can name (its pages,
its bookmarks, an object in a cycle, or any object not kept, in turn) cannot be written by another record,
nor can a page's content stream, the record's own drawing: their digests are neither kept nor looked up.
What is kept is what records share: colour spaces, the resources and patterns of the layout, and a font
subset when two records use the same glyphs.
"""

from __future__ import annotations

import hashlib
import re
from array import array
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
#: Cross-reference lines made and written at a time at the end.
_XREF_LINES = 4096


class StreamingPdf:
    """Records appended one at a time to `stream` (binary, written only forward)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.position = 0
        # Each object's offset by number, 0 for none (the header is at 0). Number 0 is the free list's head.
        self.offsets = array("Q", [0])
        self.bookmarks: list[tuple[int, bytes]] = []  # each record's top bookmark: number, own entries
        self.written_as: dict[bytes, int] = {}  # digest of a shareable object's bytes -> its number
        self.page_ids = array("I")
        self.form = _Form()
        self._emit(HEADER)
        self.pages_id, self.outlines_id = self._reserve(), self._reserve()

    def _emit(self, data: bytes) -> None:
        self.stream.write(data)
        self.position += len(data)

    def _reserve(self) -> int:
        self.offsets.append(0)
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
            copy.mapped[page.indirect_reference.idnum] = copy.own_number(self._reserve())
            copy.note_drawing(page.raw_get("/Contents"))
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
            number = copy.own_number(self._reserve())
            copy.mapped[_idnum(item)] = number
            self.bookmarks.append((number, copy.entries(item, skip=_UPWARD)))
            top = item.get("/Next")
        self.form.add(copy)

    def finish(self) -> None:
        """The page tree, the bookmarks' top level, the catalog, the cross-reference table."""
        kids = b" ".join(b"%d 0 R" % number for number in self.page_ids)
        self._write(self.pages_id, b"<</Type/Pages/Count %d/Kids[%s]>>" % (len(self.page_ids), kids))
        self._write_bookmarks()
        marks = self.bookmarks
        if marks:
            body = b"<</Type/Outlines/Count %d/First %d 0 R/Last %d 0 R>>" % (
                len(marks),
                marks[0][0],
                marks[-1][0],
            )
        else:
            body = b"<</Type/Outlines/Count 0>>"
        self._write(self.outlines_id, body)
        catalog = self._reserve()
        self._write(
            catalog,
            b"<</Type/Catalog/Pages %d 0 R/Outlines %d 0 R%s>>"
            % (self.pages_id, self.outlines_id, self.form.entry()),
        )
        table = self.position
        self._emit(b"xref\n0 %d\n0000000000 65535 f \n" % len(self.offsets))
        for start in range(1, len(self.offsets), _XREF_LINES):  # a slice at a time: 20 bytes an object
            self._emit(
                b"".join(
                    b"%010d 00000 n \n" % offset if offset else b"0000000000 00000 f \n"
                    for offset in self.offsets[start : start + _XREF_LINES]
                )
            )
        self._emit(
            b"trailer\n<</Size %d/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n"
            % (len(self.offsets), catalog, table)
        )

    def _write_bookmarks(self) -> None:
        """Each record's top bookmark, linked to its neighbours."""
        marks = self.bookmarks
        for index, (number, entries) in enumerate(marks):
            links = b"/Parent %d 0 R" % self.outlines_id
            if index > 0:
                links += b"/Prev %d 0 R" % marks[index - 1][0]
            if index + 1 < len(marks):
                links += b"/Next %d 0 R" % marks[index + 1][0]
            self._write(number, b"<<%s%s>>" % (entries, links))


class _RecordCopy:
    """One record's objects as they are copied: its object numbers mapped to the output's."""

    def __init__(self, writer: StreamingPdf, reader: PdfReader) -> None:
        self.writer, self.reader = writer, reader
        self.mapped: dict[int, int] = {}
        self.unfinished: set[int] = set()  # being copied: a reference back to one rules out sharing it
        self.own: set[int] = set()  # output numbers no other record can name (the module's Memory)
        self.drawings: set[int] = set()  # the record's numbers of its pages' content streams
        self.names_own = False  # whether the object being copied names a number of `own`

    def own_number(self, number: int) -> int:
        self.own.add(number)
        return number

    def note_drawing(self, contents: Any) -> None:
        """A page's /Contents (one stream or an array of them): the record's own drawing."""
        for item in contents if isinstance(contents, ArrayObject) else [contents]:
            if isinstance(item, IndirectObject):
                self.drawings.add(item.idnum)

    def entries(self, dictionary: DictionaryObject, skip: tuple[str, ...] = ()) -> bytes:
        return b"".join(
            self.value(key) + b" " + self.value(value) for key, value in dictionary.items() if key not in skip
        )

    def value(self, value: Any) -> bytes:
        """A value as PDF bytes, its indirect objects copied (or found already written) first."""
        if isinstance(value, IndirectObject):
            number = self.reference(value)
            self.names_own = self.names_own or number in self.own
            return b"%d 0 R" % number
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
                self.own.add(known)
            return known
        number = self.mapped[reference.idnum] = self.writer._reserve()
        target = reference.get_object()
        self.unfinished.add(number)
        outer, self.names_own = self.names_own, False
        body = self._body(target)
        private = self.names_own or number not in self.unfinished or reference.idnum in self.drawings
        self.names_own = outer
        self.unfinished.discard(number)
        if private:  # no other record can write these bytes: neither looked up nor kept
            self.own.add(number)
        else:
            digest = hashlib.sha256(body).digest()
            same = self.writer.written_as.get(digest)
            if same is not None:
                self.mapped[reference.idnum] = same
                return same  # the reserved number stays free in the cross-reference table
            self.writer.written_as[digest] = number
        self.writer._write(number, body)
        return number

    def _body(self, target: Any) -> bytes:
        if not isinstance(target, StreamObject):
            return self.value(target)
        data = _encoded_data(target)
        head = self.entries(target, skip=("/Length",))
        return b"<<%s/Length %d>>\nstream\n%s\nendstream" % (head, len(data), data)


#: How pypdf's public `StreamObject.write_to_stream` ends a stream's dictionary: with the length it sets
#: for the write (a read stream keeps none of its own), then the stream's bytes and `endstream`.
_STREAM_START = re.compile(rb"/Length (\d+)\n>>\nstream\n")
_END = b"\nendstream"


def _encoded_data(stream: StreamObject) -> bytes:
    """A stream's bytes as the record's PDF holds them (still compressed), copied without decoding,
    through pypdf's public writing of the stream; checked against the length written with them."""
    written = BytesIO()
    stream.write_to_stream(written)
    whole = written.getvalue()
    found = _STREAM_START.search(whole)
    if found is None or whole[found.end() + int(found[1]) :] != _END:
        raise ValueError("pypdf wrote a stream in a layout this copy does not know")
    return whole[found.end() : -len(_END)]


class _Form:
    """The records' PDF form fields (a --fillable batch): each record's fields (already copied
    with its pages' annotations, names unique per record) and the resources their text is drawn with,
    gathered into the one /AcroForm of the file."""

    def __init__(self) -> None:
        self.fields = array("I")
        self.resources: dict[bytes, dict[bytes, bytes]] = {}  # category -> name -> value, first kept

    def add(self, copy: _RecordCopy) -> None:
        root: Any = copy.reader.trailer["/Root"]
        form: Any = root.get("/AcroForm")
        if form is None:
            return
        form = form.get_object()
        self.fields.extend(copy.reference(field) for field in form.get("/Fields", []))
        for category, entries in form.get("/DR", DictionaryObject()).get_object().items():
            entries = entries.get_object()
            if isinstance(entries, DictionaryObject):
                kept = self.resources.setdefault(copy.value(category), {})
                for name, value in entries.items():
                    if copy.value(name) not in kept:
                        kept[copy.value(name)] = copy.value(value)

    def entry(self) -> bytes:
        """The catalog's /AcroForm entry; nothing when no record had fields."""
        if not self.fields:
            return b""
        fields = b" ".join(b"%d 0 R" % number for number in self.fields)
        resources = b"".join(
            category + b"<<" + b"".join(name + b" " + value for name, value in entries.items()) + b">>"
            for category, entries in self.resources.items()
        )
        # No /NeedAppearances: each record's fields carry their own appearances (chargen.render.form)
        return b"/AcroForm<</Fields[%s]/DR<<%s>>>>" % (fields, resources)


def _idnum(item: Any) -> int:
    reference = item.indirect_reference
    assert reference is not None
    return int(reference.idnum)
