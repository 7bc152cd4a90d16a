"""Writing outputs, one way for every command: everything is produced first, each file is written aside,
and all of a command's files are moved into place together at the end, or none of them.

What a target may be:
- a new name: written beside it under a hidden `.NAME.*.part` name, then linked into place, which fails if
  the name was taken meanwhile (so a file made while a batch runs, or by a second run, is never replaced);
- a regular file: refused unless the user gave --force (one policy for every command), then renamed over
  it, the new file keeping the old one's permission bits;
- a symbolic link: followed; the file it points to is replaced, the link stays (documented in docs/commands.md);
- a device or a named pipe (/dev/null, a FIFO): written into where it is, never replaced by a file;
- `-`: standard output;
- a folder, or anything else: refused.

A commit that fails half-way (a disk full, a folder in the way) moves back what it had moved: a replaced
file is kept aside as a hard link until every output is in. Interrupts are held off while the files move.

Every byte goes out through one checked path (chargen.checked_io): a short write, which the kernel gives
for a pipe whose reader left or a disk nearly full, is written again until all is out or an error says
why; Python's own unbuffered standard output (PYTHONUNBUFFERED=1) drops the rest of a short write.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Protocol

from chargen.checked_io import (
    CheckedText,
    StandardOutputError,
    checked_stream,
    standard_output_errors,
    write_fully,
)
from chargen.errors import VALUE_WIDTH, ChargenError
from chargen.output_kinds import KINDS
from chargen.stopping import STOPPING

STDOUT = "-"
#: The bytes a row-by-row output gathers before each write to the system. A JSONL line is about 2 kB: with
#: io's 8 kB a batch made a system call every four lines (3,026 for 10,000 NPCs), 1.7 us a line written
#: against 0.5 us with this (measured alone, 10,000 lines to a file).
STREAM_BUFFER = 256 * 1024
#: The longest path a message shows whole.
PATH_WIDTH = 2 * VALUE_WIDTH


def cannot(target: Path | str, error: OSError) -> ChargenError:
    return ChargenError(f"{shown_path(target)}: cannot write ({error.strerror or error})")


def shown_path(target: Path | str) -> str:
    """A path as a message shows it: a name too long for the system (thousands of characters) is cut in
    the middle, so its start and its file name both show."""
    text = str(target)
    if len(text) <= PATH_WIDTH:
        return text
    return text[: PATH_WIDTH // 2 - 2] + "..." + text[-(PATH_WIDTH // 2 - 1) :]


def exists(target: Path | str, option: str | None = None) -> ChargenError:
    where = f"{option}: " if option else ""
    return ChargenError(f"{where}{shown_path(target)} exists; use --force to replace it")


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def is_special(path: Path) -> bool:
    """A device, a named pipe or a socket: written into where it is, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def would_replace(path: str) -> bool:
    """Whether writing `path` would replace a file that is there now (what --force, or the guided walk's
    question, is for); a device, a named pipe and `-` are written into, never replaced."""
    if path == STDOUT:
        return False
    target = Path(os.path.realpath(path))  # a symbolic link: the file it points to is what is replaced
    if is_special(target):
        return False
    # a link is a name taken, even one pointing nowhere: writing through it needs --force as a file does
    return target.exists() or os.path.islink(path)


def check_targets(targets: Sequence[tuple[str, str, str]], *, force: bool) -> None:
    """(option, path, kind) for each output (a key of chargen.output_kinds.KINDS): each name ends as its
    kind expects (a folder's kind has no ending), no two outputs share a
    file (a symbolic link counts as the file it points to), at most one goes to standard output, and
    none replaces a file unless `force` (an early, clear message; the commit checks again)."""
    seen: dict[str, str] = {}
    to_stdout: list[str] = []
    for option, path, kind in targets:
        if path == STDOUT:
            to_stdout.append(option)
            continue
        try:
            _check_target(option, path, KINDS[kind].endings, seen, force=force)
        except OSError as error:  # a name too long for the system, a loop of links: said with its option
            raise ChargenError(f"{option}: {cannot(path, error)}") from None
    if len(to_stdout) > 1:
        raise ChargenError(f"{' and '.join(to_stdout)}: only one output can go to standard output (-)")


def _check_target(
    option: str, path: str, endings: tuple[str, ...], seen: dict[str, str], *, force: bool
) -> None:
    target = Path(path)
    if endings and target.suffix and target.suffix.lower() not in endings and not is_special(target):
        raise ChargenError(f"{option}: {shown_path(path)} does not end in {' or '.join(endings)}")
    resolved = os.path.realpath(target)
    if resolved in seen:
        raise ChargenError(f"{seen[resolved]} and {option}: both would write {shown_path(path)}")
    seen[resolved] = option
    if endings and target.is_dir():
        raise ChargenError(f"{option}: {shown_path(path)} is a folder; give a file name")
    if endings and not force and would_replace(path):
        raise exists(path, option)


class Journal:
    """What a commit has moved, so that a failure part-way can move it back."""

    def __init__(self) -> None:
        self.undo: list[Callable[[], None]] = []
        self.kept: list[Path] = []

    def place(self, staged: Path, target: Path, *, force: bool) -> None:
        """Move `staged` to `target`: with `force`, over any file there (`replace`); without, only if the
        name is free at this very moment (FileExistsError if not), by a hard link, which never replaces."""
        if force:
            self.replace(staged, target)
            return
        try:
            os.link(staged, target)
        except FileExistsError:
            raise
        except OSError as error:
            # A file system without hard links (some network and FAT mounts): check, then rename. Not
            # atomic, so only the fallback.
            if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            if os.path.lexists(target):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
            os.rename(staged, target)
        else:
            staged.unlink()
        self.undo.append(target.unlink)

    def replace(self, staged: Path, target: Path) -> None:
        """Move `staged` onto `target`, keeping any file it replaces until the commit is over."""
        kept: Path | None = None
        if target.is_file() and not target.is_symlink():
            kept = Path(tempfile.mktemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
            try:
                os.link(target, kept)
            except OSError:  # a file system without hard links: keep a copy instead
                shutil.copy2(target, kept)
            self.kept.append(kept)
        os.replace(staged, target)
        self.undo.append(lambda: os.replace(kept, target) if kept else target.unlink())

    def rename(self, staged: Path, target: Path) -> None:
        """Move a new folder into place (fails, rather than merges, if the name was taken meanwhile); to
        undo, the folder, which is all ours, is removed."""
        os.rename(staged, target)
        self.undo.append(lambda: shutil.rmtree(target))

    def rollback(self) -> None:
        for step in reversed(self.undo):
            with contextlib.suppress(OSError):
                step()
        self.finish()

    def finish(self) -> None:
        for kept in self.kept:
            kept.unlink(missing_ok=True)
        self.undo.clear()
        self.kept.clear()


class Committable(Protocol):
    in_place: bool

    def commit(self, journal: Journal) -> None: ...
    def discard(self) -> None: ...


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait while files move, so a commit is never cut in half."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def commit_all(outputs: Sequence[Committable]) -> None:
    """Move every staged output into place, all or none. Renames happen with signals held (they take
    microseconds); writes into devices and pipes come last, unheld (a pipe may wait for its reader, and
    Ctrl-C must still work), and cannot be taken back."""
    journal = Journal()
    try:
        with signals_held():
            for output in outputs:
                if not output.in_place:
                    output.commit(journal)
        for output in outputs:
            if output.in_place:
                output.commit(journal)
    except BaseException:
        with signals_held():
            journal.rollback()
        raise
    journal.finish()


class StagedFile:
    """One output file (not `-`), written aside while it is produced, then committed or discarded.
    `buffer_size`: the bytes gathered before each write to the system (None: io's default, 8 kB);
    `force`: an existing file may be replaced (else the commit fails if one is there by then)."""

    def __init__(self, target: str, buffer_size: int | None = None, *, force: bool = False) -> None:
        self.shown = shown_path(target)
        self.force = force
        self.temporary: Path | None = None
        self.target = Path(os.path.realpath(target))  # a symbolic link: write where it points
        self.stream: IO[bytes]
        try:
            if self.target.is_dir():
                raise ChargenError(f"{self.shown}: is a folder; give a file name")
            self.in_place = is_special(self.target)
            if not force and not self.in_place and os.path.islink(target):
                raise exists(self.shown)  # asked for early; again here for a link made since
            if self.in_place:  # staged in an unnamed file: nothing to leave behind, whatever happens
                self.stream = tempfile.TemporaryFile(buffering=buffer_size or -1)  # noqa: SIM115
                return
            handle, name = tempfile.mkstemp(
                prefix=f".{self.target.name}.", suffix=".part", dir=self.target.parent
            )
        except OSError as error:
            raise cannot(target, error) from None
        self.temporary = Path(name)
        self.stream = checked_stream(handle, buffer_size=buffer_size)

    def text(self) -> IO[str]:
        """A UTF-8 text view of the stream; newline="" keeps the csv module's own line endings. It gathers
        what is written (about a microsecond less a JSONL line than writing each through at once), so
        flush it before `commit`: the batch's outputs do in `finish`."""
        return io.TextIOWrapper(self.stream, encoding="utf-8", newline="")

    def write(self, data: bytes) -> None:
        try:
            self.stream.write(data)
        except OSError as error:
            raise cannot(self.shown, error) from None

    def commit(self, journal: Journal) -> None:
        try:
            self.stream.flush()
            if self.in_place:
                self.stream.seek(0)
                with checked_stream(os.open(self.target, os.O_WRONLY)) as device:
                    shutil.copyfileobj(self.stream, device)
                self.stream.close()
                return
            assert self.temporary is not None
            self.stream.close()
            os.chmod(self.temporary, self._mode())
            journal.place(self.temporary, self.target, force=self.force)
            self.temporary = None
        except FileExistsError:
            raise exists(self.shown) from None
        except OSError as error:
            raise cannot(self.shown, error) from None

    def _mode(self) -> int:
        """The replaced file's permission bits (--force keeps a 0640 file 0640), else a new file's: mkstemp
        makes 0600, and a normal file is wanted."""
        if self.force:
            with contextlib.suppress(OSError):
                return stat.S_IMODE(os.stat(self.target).st_mode)
        return 0o666 & ~current_umask()

    def discard(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()
        if self.temporary is not None:
            self.temporary.unlink(missing_ok=True)
            self.temporary = None


def write_all(files: Sequence[tuple[str, bytes]], *, force: bool = False) -> None:
    """Write every (target, bytes) pair, all or none; `-` is standard output, written last so that a
    file's failure prints nothing. An existing file is replaced only with `force`."""
    staged: list[StagedFile] = []
    try:
        for target, data in files:
            if target != STDOUT:
                staged.append(StagedFile(target, force=force))
                staged[-1].write(data)
        commit_all(staged)
    finally:
        for output in staged:
            output.discard()
    for target, data in files:
        if target == STDOUT:
            write_stdout(data)


def write_stdout(data: bytes) -> None:
    """Bytes to standard output, after whatever text is already waiting there, every byte checked."""
    out = sys.stdout
    if out is None:  # closed when Python started (`>&-`); the command line says so at its start
        raise StandardOutputError(errno.EBADF, "standard output is closed")
    out.flush()
    real = out is sys.__stdout__ or isinstance(out, CheckedText)  # the process's own, not a test's
    if real:
        with standard_output_errors():
            write_fully(out.fileno(), data)
        return
    stream = getattr(out, "buffer", None)
    if stream is None:  # a text stream put in place of standard output (tests, embedding programs)
        out.write(data.decode("utf-8"))
        return
    stream.write(data)
    stream.flush()


def write_atomic(path: Path, content: str | bytes, *, force: bool = False) -> None:
    """One file, written aside and moved into place (or into a device where it is)."""
    write_all([(str(path), content.encode("utf-8") if isinstance(content, str) else content)], force=force)
