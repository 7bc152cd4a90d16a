"""Writing every byte, or an error: the one path all of chargen's output goes through (chargen.output).

The kernel may take part of a write (a pipe whose reader left, a disk nearly full); `write_fully` writes
the rest again until all is out or an error says why. Python's own unbuffered standard output
(PYTHONUNBUFFERED=1) instead drops the rest of a short write silently, and its buffered one lost it too
when the reader left mid-write, so chargen writes standard output through `CheckedText` as well.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Any


class StandardOutputError(OSError):
    """Standard output could not be written (a full disk, `>/dev/full`); an OSError of anything else is
    told by its own path or resource."""


@contextlib.contextmanager
def standard_output_errors() -> Iterator[None]:
    """An OSError writing standard output raised as StandardOutputError; a reader gone (BrokenPipeError)
    is left as it is, for the command line ends quietly then."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        raise StandardOutputError(error.errno, error.strerror) from error


def write_fully(fd: int, data: bytes | memoryview) -> None:
    """Every byte of `data` to the file descriptor `fd`, or an OSError: a short write is written again."""
    view = memoryview(data).cast("B")
    while view:
        written = os.write(fd, view)
        if written <= 0:  # never for a blocking descriptor; guards against looping for ever
            raise OSError(errno.EIO, "the system took none of the bytes")
        view = view[written:]


class CheckedRaw(io.RawIOBase):
    """A raw stream over a file descriptor whose write() writes everything (`write_fully`). Wrapped in
    io.BufferedWriter it is what every output file, and standard output, is written through."""

    def __init__(self, fd: int, *, closefd: bool = True, standard_output: bool = False) -> None:
        super().__init__()
        self.fd = fd
        self.closefd = closefd
        self.standard_output = standard_output

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:  # `chargen new` asks only in a terminal; click colours only there
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        view = memoryview(data)
        if self.standard_output:
            with standard_output_errors():
                write_fully(self.fd, view)
        else:
            write_fully(self.fd, view)
        return view.nbytes

    def close(self) -> None:
        if not self.closed and self.closefd:
            os.close(self.fd)
        super().close()


def checked_stream(
    fd: int, *, closefd: bool = True, buffer_size: int | None = None, standard_output: bool = False
) -> io.BufferedWriter:
    raw = CheckedRaw(fd, closefd=closefd, standard_output=standard_output)
    return io.BufferedWriter(raw, buffer_size or io.DEFAULT_BUFFER_SIZE)


class CheckedText(io.TextIOWrapper):
    """Standard output as the command line uses it: text, through `CheckedRaw`, so a short write is
    written again rather than dropped."""


def checked_stdout() -> None:
    """Put a checked text stream in place of the process's standard output (the command line, at start);
    one already replaced (tests, an embedding program) is left as it is."""
    current = sys.stdout
    if current is not sys.__stdout__ or not isinstance(current, io.TextIOWrapper):
        return
    current.flush()
    sys.stdout = CheckedText(
        checked_stream(current.fileno(), closefd=False, standard_output=True),
        encoding=current.encoding,
        errors=current.errors,
        line_buffering=current.line_buffering,
    )
