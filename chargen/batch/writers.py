"""The batch's outputs. Each is written aside (a temporary file or folder beside its target) while the
NPCs arrive, and renamed into place only when every NPC is made and every output finished; on any
failure or interrupt the temporaries are removed, so no half-written file is ever left behind.

Life of an output: add() per NPC in order, finish() (anything that needs the whole run, still aside),
then commit() (rename in), or discard() at any point.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import tempfile
from pathlib import Path
from typing import IO, Any, Protocol, TextIO

from chargen.batch.npc import CSV_COLUMNS, NpcOutput, RosterCard
from chargen.errors import ChargenError


class Output(Protocol):
    def add(self, npc: NpcOutput) -> None: ...
    def finish(self) -> None: ...
    def commit(self) -> None: ...
    def discard(self) -> None: ...


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _cannot(target: Path, error: OSError) -> ChargenError:
    return ChargenError(f"{target}: cannot write ({error.strerror or error})")


class StagedFile:
    """A file written beside `target` under a hidden temporary name; `-` streams to `stdout` instead."""

    def __init__(self, target: str, stdout: TextIO, *, binary: bool = False) -> None:
        self.target = Path(target)
        self.temporary: Path | None = None
        self.stream: IO[Any]
        if target == "-":
            self.stream = stdout
            return
        folder = self.target.parent if str(self.target.parent) else Path(".")
        try:
            handle, name = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".part", dir=folder)
        except OSError as error:
            raise _cannot(self.target, error) from None
        self.temporary = Path(name)
        # newline="" so the csv module's own line endings are kept as they are (RFC 4180: CRLF).
        self.stream = os.fdopen(handle, "wb") if binary else open(handle, "w", encoding="utf-8", newline="")  # noqa: SIM115

    def commit(self) -> None:
        if self.temporary is None:
            self.stream.flush()
            return
        try:
            self.stream.close()
            os.chmod(self.temporary, 0o666 & ~_umask())  # mkstemp makes 0600; a normal file is wanted
            os.replace(self.temporary, self.target)
        except OSError as error:
            raise _cannot(self.target, error) from None
        self.temporary = None

    def discard(self) -> None:
        if self.temporary is None:
            return
        with contextlib.suppress(OSError):
            self.stream.close()
        self.temporary.unlink(missing_ok=True)
        self.temporary = None


class _StreamOutput:
    """An output written row by row into one staged file, renamed into place by commit."""

    def __init__(self, target: str, stdout: TextIO) -> None:
        self.file = StagedFile(target, stdout)

    def finish(self) -> None:
        pass

    def commit(self) -> None:
        self.file.commit()

    def discard(self) -> None:
        self.file.discard()


class JsonlOutput(_StreamOutput):
    def add(self, npc: NpcOutput) -> None:
        assert npc.jsonl is not None
        self.file.stream.write(npc.jsonl)


class CsvOutput(_StreamOutput):
    def __init__(self, target: str, stdout: TextIO) -> None:
        super().__init__(target, stdout)
        self.writer = csv.writer(self.file.stream)
        self.writer.writerow(CSV_COLUMNS)

    def add(self, npc: NpcOutput) -> None:
        assert npc.csv_row is not None
        self.writer.writerow(npc.csv_row)


class DirectoryOutput:
    """One character file per NPC. A new folder is built whole beside its target and renamed in; into an
    existing folder (empty, or with --force) the files are staged in a hidden folder inside it, then each
    is renamed in at the end."""

    def __init__(self, target: str) -> None:
        self.target = Path(target)
        self.existed = self.target.is_dir()
        try:
            if self.existed:
                staging = tempfile.mkdtemp(prefix=".chargen-batch-", suffix=".part", dir=self.target)
            else:
                parent = self.target.parent if str(self.target.parent) else Path(".")
                staging = tempfile.mkdtemp(prefix=f".{self.target.name}.", suffix=".part", dir=parent)
        except OSError as error:
            raise _cannot(self.target, error) from None
        self.staging: Path | None = Path(staging)
        self.names: list[str] = []

    def add(self, npc: NpcOutput) -> None:
        assert npc.file_name is not None and npc.file_text is not None and self.staging is not None
        try:
            (self.staging / npc.file_name).write_bytes(npc.file_text.encode("utf-8"))
        except OSError as error:
            raise _cannot(self.target / npc.file_name, error) from None
        self.names.append(npc.file_name)

    def finish(self) -> None:
        pass

    def commit(self) -> None:
        if self.staging is None:
            return
        try:
            os.chmod(self.staging, 0o777 & ~_umask())
            if not self.existed:
                os.rename(self.staging, self.target)  # fails, rather than merges, if it appeared meanwhile
            else:
                for name in self.names:
                    os.replace(self.staging / name, self.target / name)
                self.staging.rmdir()
        except OSError as error:
            raise _cannot(self.target, error) from None
        self.staging = None

    def discard(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None


class RecordsPdfOutput:
    """Every NPC's Character Record, in order, in one PDF. Each record is rendered alone (in a worker) and
    the pages are joined here, so the file is the same for any number of jobs."""

    def __init__(self, target: str, stdout: TextIO) -> None:
        from pypdf import PdfWriter

        self.file = StagedFile(target, stdout, binary=True)
        self.writer = PdfWriter()

    def add(self, npc: NpcOutput) -> None:
        from io import BytesIO

        from pypdf import PdfReader

        assert npc.record_pdf is not None
        self.writer.append(PdfReader(BytesIO(npc.record_pdf)))

    def finish(self) -> None:
        self.writer.write(self.file.stream)

    def commit(self) -> None:
        self.file.commit()

    def discard(self) -> None:
        self.file.discard()


class RosterOutput:
    """The compact roster, ten NPC cards a page: PDF, or HTML when the file name ends in .html/.htm. Made
    at the end, from the cards, on every core (see chargen.batch.roster)."""

    def __init__(self, target: str, stdout: TextIO, *, paper: str, title: str, jobs: int) -> None:
        self.as_html = target.lower().endswith((".html", ".htm"))
        self.file = StagedFile(target, stdout, binary=True)
        self.cards: list[RosterCard] = []  # small cards: a roster of 10,000 is a few megabytes
        self.paper = paper
        self.title = title
        self.jobs = jobs

    def add(self, npc: NpcOutput) -> None:
        assert npc.card is not None
        self.cards.append(npc.card)

    def finish(self) -> None:
        from chargen.batch import roster

        if self.as_html:
            data = roster.roster_html(self.cards, paper=self.paper, title=self.title).encode("utf-8")
        else:
            data = roster.roster_pdf(self.cards, paper=self.paper, title=self.title, jobs=self.jobs)
        self.file.stream.write(data)

    def commit(self) -> None:
        self.file.commit()

    def discard(self) -> None:
        self.file.discard()
