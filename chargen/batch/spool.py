"""What the batch PDF writer (chargen.batch.pdfstream) needs only when it closes the file, kept on disk
instead of in memory: each object's offset and each record's top bookmark. In memory they grew with the
count, about 0.6 kB a record (76 objects at 4 bytes, a bookmark's entries at 130 bytes and their tuple):
1.1 MB for 2,000 records, measured. On disk the writer's memory stays the same whatever the count.

The files never have a name (tempfile.TemporaryFile: O_TMPFILE where Linux has it, else unlinked as soon
as made, with the stopping signals held meanwhile), so nothing is left behind however the run ends, a
kill included: the system frees them with the last descriptor. They are made in the output's own folder
(the disk the output goes to, where /tmp may be memory) or, for a device, where the system keeps its
temporaries.
"""

from __future__ import annotations

import os
import struct
import tempfile
from collections.abc import Iterator
from typing import IO

from chargen.output import signals_held

#: An offset in the offsets file: 8 bytes, little-endian, at 8 times the object's number.
_OFFSET = struct.Struct("<Q")
#: A bookmark's head in the bookmarks file: its number and the length of its entries, which follow.
_BOOKMARK = struct.Struct("<QI")


def unnamed_file(folder: str | None) -> IO[bytes]:
    with signals_held():  # where O_TMPFILE is missing the name lives a moment: no Stopped meanwhile
        return tempfile.TemporaryFile(dir=folder)


class Offsets:
    """Each object's offset in the output by its number, 0 for none (a number reserved, then not written:
    a free entry of the cross-reference table). A number never written reads 0: the file's holes are
    zeros."""

    def __init__(self, folder: str | None) -> None:
        self._file = unnamed_file(folder)
        self._descriptor = self._file.fileno()
        self._count = 0

    def reserve(self) -> int:
        """The next object number."""
        self._count += 1
        return self._count - 1

    def __len__(self) -> int:
        return self._count

    def __setitem__(self, number: int, offset: int) -> None:
        os.pwrite(self._descriptor, _OFFSET.pack(offset), number * _OFFSET.size)

    def __getitem__(self, number: int) -> int:
        return self.read(number, number + 1)[0]

    def read(self, start: int, stop: int) -> tuple[int, ...]:
        """The offsets of numbers `start` to `stop` (not included), read at once."""
        size = (stop - start) * _OFFSET.size
        data = os.pread(self._descriptor, size, start * _OFFSET.size)
        data += bytes(size - len(data))  # past the last number written
        return struct.unpack(f"<{stop - start}Q", data)

    def close(self) -> None:
        self._file.close()


class Bookmarks:
    """Each record's top bookmark, its number and its own entries, in the order they came, to be read back
    once in that order. The first and last numbers and the count are kept: the outline's root names them."""

    def __init__(self, folder: str | None) -> None:
        self._file = unnamed_file(folder)
        self.count = self.first = self.last = 0

    def append(self, number: int, entries: bytes) -> None:
        self._file.write(_BOOKMARK.pack(number, len(entries)) + entries)
        self.first = self.first if self.count else number
        self.last = number
        self.count += 1

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        self._file.flush()
        self._file.seek(0)
        for _ in range(self.count):
            number, length = _BOOKMARK.unpack(self._file.read(_BOOKMARK.size))
            yield number, self._file.read(length)

    def close(self) -> None:
        self._file.close()
