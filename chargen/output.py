"""Writing outputs, one way for every command: everything is produced first, each file is written aside,
and all of a command's files are moved into place together at the end, or none of them.

What a target may be:
- a new name or a regular file: written beside it under a hidden `.NAME.*.part` name, renamed over it;
- a symbolic link: followed; the file it points to is replaced, the link stays (documented in docs/commands.md);
- a device or a named pipe (/dev/null, a FIFO): written into where it is, never replaced by a file;
- `-`: standard output;
- a folder, or anything else: refused.

A commit that fails half-way (a disk full, a folder in the way) moves back what it had moved: a replaced
file is kept aside as a hard link until every output is in. Interrupts are held off while the files move.
"""

from __future__ import annotations

import contextlib
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

from chargen.errors import ChargenError
from chargen.stopping import STOPPING

STDOUT = "-"
#: Each output's expected file name endings; a name with another ending is refused (`--roster r.txt`).
EXTENSIONS = {
    "yaml": (".yaml", ".yml"),
    "json": (".json",),
    "jsonl": (".jsonl", ".ndjson"),
    "csv": (".csv",),
    "html": (".html", ".htm"),
    "pdf": (".pdf",),
    "roster": (".pdf", ".html", ".htm"),
    "statblock": (".txt", ".md"),
    "folder": (),
}


def cannot(target: Path | str, error: OSError) -> ChargenError:
    return ChargenError(f"{target}: cannot write ({error.strerror or error})")


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


def check_targets(targets: Sequence[tuple[str, str, str]]) -> None:
    """(option, path, kind) for each output: each name ends as its kind expects, no two outputs share a
    file (a symbolic link counts as the file it points to) and at most one goes to standard output."""
    seen: dict[str, str] = {}
    to_stdout: list[str] = []
    for option, path, kind in targets:
        if path == STDOUT:
            to_stdout.append(option)
            continue
        target = Path(path)
        endings = EXTENSIONS[kind]
        if endings and target.suffix and target.suffix.lower() not in endings and not is_special(target):
            raise ChargenError(f"{option}: {path} does not end in {' or '.join(endings)}")
        resolved = os.path.realpath(target)
        if resolved in seen:
            raise ChargenError(f"{seen[resolved]} and {option}: both would write {path}")
        seen[resolved] = option
        if endings and target.is_dir():
            raise ChargenError(f"{option}: {path} is a folder; give a file name")
    if len(to_stdout) > 1:
        raise ChargenError(f"{' and '.join(to_stdout)}: only one output can go to standard output (-)")


class Journal:
    """What a commit has moved, so that a failure part-way can move it back."""

    def __init__(self) -> None:
        self.undo: list[Callable[[], None]] = []
        self.kept: list[Path] = []

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
    `buffer_size`: the bytes gathered before each write to the system (None: io's default, 8 kB)."""

    def __init__(self, target: str, buffer_size: int | None = None) -> None:
        self.shown = target
        self.temporary: Path | None = None
        self.target = Path(os.path.realpath(target))  # a symbolic link: write where it points
        if self.target.is_dir():
            raise ChargenError(f"{target}: is a folder; give a file name")
        self.in_place = is_special(self.target)
        self.stream: IO[bytes]
        try:
            if self.in_place:  # staged in an unnamed file: nothing to leave behind, whatever happens
                self.stream = tempfile.TemporaryFile(buffering=buffer_size or -1)  # noqa: SIM115
                return
            handle, name = tempfile.mkstemp(
                prefix=f".{self.target.name}.", suffix=".part", dir=self.target.parent
            )
        except OSError as error:
            raise cannot(target, error) from None
        self.temporary = Path(name)
        self.stream = os.fdopen(handle, "wb", buffering=buffer_size or -1)

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
                with self.target.open("wb") as device:
                    shutil.copyfileobj(self.stream, device)
                self.stream.close()
                return
            assert self.temporary is not None
            self.stream.close()
            os.chmod(self.temporary, 0o666 & ~current_umask())  # mkstemp makes 0600; a normal file is wanted
            journal.replace(self.temporary, self.target)
            self.temporary = None
        except OSError as error:
            raise cannot(self.shown, error) from None

    def discard(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()
        if self.temporary is not None:
            self.temporary.unlink(missing_ok=True)
            self.temporary = None


def write_all(files: Sequence[tuple[str, bytes]]) -> None:
    """Write every (target, bytes) pair, all or none; `-` is standard output, written last so that a
    file's failure prints nothing."""
    staged: list[StagedFile] = []
    try:
        for target, data in files:
            if target != STDOUT:
                staged.append(StagedFile(target))
                staged[-1].write(data)
        commit_all(staged)
    finally:
        for output in staged:
            output.discard()
    for target, data in files:
        if target == STDOUT:
            write_stdout(data)


def write_stdout(data: bytes) -> None:
    """Bytes to standard output, after whatever text is already waiting there."""
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # a text stream put in place of standard output (tests, embedding programs)
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    stream.write(data)
    stream.flush()


def write_atomic(path: Path, content: str | bytes) -> None:
    """One file, written aside and renamed into place (or into a device where it is)."""
    write_all([(str(path), content.encode("utf-8") if isinstance(content, str) else content)])
