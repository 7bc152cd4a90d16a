"""The batch's outputs. Each is written aside (a temporary file or folder beside its target) while the
NPCs arrive, and renamed into place only when every NPC is made and every output finished; on any
failure or interrupt the temporaries are removed, so no half-written file is ever left behind.

Life of an output: add() per NPC in order, finish() (anything that needs the whole run, still aside),
then commit() (rename in, through chargen.output.commit_all: all outputs or none), or discard() at any
point.
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol, TextIO

from chargen.batch.groups import GroupPlan
from chargen.batch.npc import CSV_COLUMNS, NpcOutput
from chargen.errors import ChargenError
from chargen.output import STDOUT, STREAM_BUFFER, Journal, StagedFile, cannot, current_umask, exists

if TYPE_CHECKING:
    from chargen.tables import Tables
    from chargen.views.cards import RosterCard

#: The CSV's columns after CSV_COLUMNS in a run of groups: which group (1, 2, ...) and "yes" for its leader.
GROUP_COLUMNS = ("group", "leader")


class Output(Protocol):
    in_place: bool

    def add(self, npc: NpcOutput) -> None: ...
    def finish(self) -> None: ...
    def commit(self, journal: Journal) -> None: ...
    def discard(self) -> None: ...


class _StreamOutput:
    """An output written row by row into one staged file (or straight to standard output for `-`)."""

    def __init__(self, target: str, stdout: TextIO, *, force: bool = False) -> None:
        self.file = StagedFile(target, buffer_size=STREAM_BUFFER, force=force) if target != STDOUT else None
        self.in_place = self.file.in_place if self.file is not None else False
        self.stream: IO[str] = self.file.text() if self.file is not None else stdout

    def add(self, npc: NpcOutput) -> None:
        with self._reported():
            self.write(npc)

    def write(self, npc: NpcOutput) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        with self._reported():
            self.stream.flush()

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        """A failing file (a disk full) is reported with its own name; standard output's failures go up
        as they are (the command line tells a reader gone from a full disk)."""
        try:
            yield
        except OSError as error:
            if self.file is None:
                raise
            raise cannot(self.file.shown, error) from None

    def commit(self, journal: Journal) -> None:
        if self.file is not None:
            with self._reported():
                self.stream.flush()  # the text view gathers what is written (StagedFile.text)
            self.file.commit(journal)

    def discard(self) -> None:
        if self.file is not None:
            self.file.discard()


class JsonlOutput(_StreamOutput):
    def write(self, npc: NpcOutput) -> None:
        assert npc.jsonl is not None
        self.stream.write(npc.jsonl)


class CsvOutput(_StreamOutput):
    def __init__(
        self, target: str, stdout: TextIO, group: GroupPlan | None = None, *, force: bool = False
    ) -> None:
        super().__init__(target, stdout, force=force)
        self.writer = csv.writer(self.stream)
        self.group = group
        self.writer.writerow(CSV_COLUMNS + (GROUP_COLUMNS if group is not None else ()))

    def write(self, npc: NpcOutput) -> None:
        assert npc.csv_row is not None
        row = [neutral(cell) for cell in npc.csv_row]
        if self.group is None:
            self.writer.writerow(row)
            return
        leader = "yes" if self.group.is_leader(npc.number) else ""
        self.writer.writerow((*row, str(self.group.index_of(npc.number)), leader))


#: A cell a spreadsheet would run as a formula (OWASP, CSV injection): one that begins with = + - @, a tab
#: or a carriage return. A plain number (a negative Defense) is a number to it, and stays as it is.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def neutral(cell: str) -> str:
    """The cell as OWASP advises: a leading ' makes a would-be formula (`=HYPERLINK(...)` from a GM's
    names table) plain text. No ordinary name or value starts so: their rows are unchanged."""
    if cell.startswith(_FORMULA_START) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


class StatBlockOutput(_StreamOutput):
    """A stat block per NPC (chargen.views.statblock): Markdown when the file name ends in .md, else text.
    A group's blocks are held until its last member arrives, then written under the group's heading."""

    def __init__(
        self, target: str, stdout: TextIO, group: GroupPlan | None, tables: Tables, *, force: bool = False
    ) -> None:
        super().__init__(target, stdout, force=force)
        self.markdown = target.lower().endswith(".md")
        self.group = group
        self.members = group.described(tables) if group is not None else ""
        self.held: list[RosterCard] = []
        self.first = True

    def _write(self, text: str) -> None:
        if not self.first:
            self.stream.write("\n")  # a blank line between blocks and headings
        self.stream.write(text)
        self.first = False

    def write(self, npc: NpcOutput) -> None:
        from chargen.views import statblock

        assert npc.card is not None
        block = statblock.markdown_block if self.markdown else statblock.text_block
        if self.group is None:
            self._write(block(npc.card))
            return
        self.held.append(npc.card)
        if len(self.held) < self.group.size:
            return
        heading = statblock.group_heading(
            self.group.title(self.group.index_of(npc.number)), self.members, self.held
        )
        self._write(statblock.markdown_heading(heading) if self.markdown else statblock.text_heading(heading))
        for index, card in enumerate(self.held):
            self._write(block(card, leader=index == 0))
        self.held = []


class DirectoryOutput:
    """One character file per NPC. A new folder is built whole beside its target and renamed in; into an
    existing folder (empty, or with --force) the files are staged in a hidden folder inside it, then each
    is renamed in at the end (and moved back if a later one fails)."""

    in_place = False
    option = "--out"  # the option its messages name

    def __init__(self, target: str, *, force: bool = False) -> None:
        self.target = Path(target)
        self.force = force
        self.existed = self.target.is_dir()
        try:
            if self.existed:
                staging = tempfile.mkdtemp(prefix=".chargen-batch-", suffix=".part", dir=self.target)
            else:
                parent = self.target.parent if str(self.target.parent) else Path(".")
                staging = tempfile.mkdtemp(prefix=f".{self.target.name}.", suffix=".part", dir=parent)
        except OSError as error:
            raise cannot(self.target, error) from None
        self.staging: Path | None = Path(staging)
        self.names: list[str] = []

    def add(self, npc: NpcOutput) -> None:
        assert npc.file_name is not None and npc.file_text is not None
        self._add(npc.file_name, npc.file_text)

    def _add(self, name: str, text: str) -> None:
        assert self.staging is not None
        try:
            (self.staging / name).write_bytes(text.encode("utf-8"))
        except OSError as error:
            raise cannot(self.target / name, error) from None
        self.names.append(name)

    def finish(self) -> None:
        """Refuse, before anything moves, to replace what is not a regular file (a folder, a link)."""
        if not self.existed:
            return
        for name in self.names:
            path = self.target / name
            if path.is_symlink() or (path.exists() and not path.is_file()):
                raise ChargenError(
                    f"{self.option}: {path} is not a regular file; it is left as it is, and so is the run"
                )

    def commit(self, journal: Journal) -> None:
        if self.staging is None:
            return
        try:
            os.chmod(self.staging, 0o777 & ~current_umask())
            if not self.existed:
                journal.rename(self.staging, self.target)
            else:
                for name in self.names:
                    journal.place(self.staging / name, self.target / name, force=self.force)
        except FileExistsError as error:
            raise exists(error.filename or self.target, self.option) from None
        except OSError as error:
            raise cannot(self.target, error) from None
        if self.existed:
            with contextlib.suppress(OSError):
                self.staging.rmdir()
        self.staging = None

    def discard(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None


class ExportOutput(DirectoryOutput):
    """One virtual tabletop JSON per NPC (chargen.export), in a folder as --out writes character files."""

    option = "--export"

    def add(self, npc: NpcOutput) -> None:
        assert npc.export_name is not None and npc.export_text is not None
        self._add(npc.export_name, npc.export_text)


class RecordsPdfOutput:
    """Every NPC's Character Record, in order, in one PDF. Each record is rendered alone (in a worker) and
    its pages are written into the file as it arrives (chargen.batch.pdfstream: memory stays flat, what
    records share is stored once), so the file is the same for any number of jobs."""

    def __init__(self, target: str, *, force: bool = False) -> None:
        from chargen.batch.pdfstream import StreamingPdf

        self.file = StagedFile(target, force=force)
        self.in_place = self.file.in_place
        try:
            self.writer = StreamingPdf(self.file.stream)
        except BaseException as error:
            self.file.discard()
            if isinstance(error, OSError):
                raise cannot(self.file.shown, error) from None
            raise

    def add(self, npc: NpcOutput) -> None:
        assert npc.record_pdf is not None
        try:
            self.writer.add(npc.record_pdf)
        except OSError as error:
            raise cannot(self.file.shown, error) from None

    def finish(self) -> None:
        try:
            self.writer.finish()
        except OSError as error:
            raise cannot(self.file.shown, error) from None

    def commit(self, journal: Journal) -> None:
        self.file.commit(journal)

    def discard(self) -> None:
        self.file.discard()


@dataclass(frozen=True)
class Opening:
    """What an output may need beside its path, to be opened."""

    stdout: TextIO
    force: bool
    group: GroupPlan | None
    tables: Tables
    paper: str
    title: str
    jobs: int


def _roster(path: str, opening: Opening) -> Output:
    from chargen.batch.roster_file import RosterOutput

    o = opening
    return RosterOutput(path, paper=o.paper, title=o.title, jobs=o.jobs, force=o.force)


#: The writer of each of the batch's kinds of output (chargen.output_kinds.BATCH_KINDS).
WRITERS: dict[str, Callable[[str, Opening], Output]] = {
    "jsonl": lambda path, o: JsonlOutput(path, o.stdout, force=o.force),
    "csv": lambda path, o: CsvOutput(path, o.stdout, o.group, force=o.force),
    "out": lambda path, o: DirectoryOutput(path, force=o.force),
    "records": lambda path, o: RecordsPdfOutput(path, force=o.force),
    "roster": _roster,
    "statblock": lambda path, o: StatBlockOutput(path, o.stdout, o.group, o.tables, force=o.force),
    "export": lambda path, o: ExportOutput(path, force=o.force),
}
