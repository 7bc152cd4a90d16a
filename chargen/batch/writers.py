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
import pickle
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol, TextIO

from chargen.batch.groups import GroupPlan
from chargen.batch.npc import CSV_COLUMNS, NpcOutput
from chargen.errors import ChargenError
from chargen.output import STDOUT, Journal, StagedFile, cannot, current_umask, exists

if TYPE_CHECKING:
    from chargen.batch.cards import RosterCard
    from chargen.batch.roster import RosterPage
    from chargen.batch.statblock import GroupHeading
    from chargen.tables import Tables

#: The bytes a row-by-row output gathers before each write to the system: with io's default buffer a
#: batch made a system call every few JSONL lines (docs/performance.md).
STREAM_BUFFER = 256 * 1024
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
    """A stat block per NPC (chargen.batch.statblock): Markdown when the file name ends in .md, else text.
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
        from chargen.batch import statblock

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
                    f"--out: {path} is not a regular file; it is left as it is, and so is the run"
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
            raise exists(error.filename or self.target, "--out") from None
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


class RosterOutput:
    """The compact roster, ten NPC cards a page: PDF, or HTML when the file name ends in .html/.htm.
    Written at the end (chargen.batch.roster), on every core for a PDF. The cards are not kept: each
    page's, once full, is pickled to an unnamed file (nothing to leave behind however the run ends) and
    read back, a page at a time, as the roster is written."""

    def __init__(self, target: str, *, paper: str, title: str, jobs: int, force: bool = False) -> None:
        self.as_html = target.lower().endswith((".html", ".htm"))
        self.file = StagedFile(target, force=force)
        self.in_place = self.file.in_place
        self.paper = paper
        self.title = title
        self.jobs = jobs
        self.group: list[RosterCard] = []  # a --group group's cards: its heading is made of them all
        self.page: list[RosterCard | GroupHeading] = []  # the page being filled
        self.spooled = 0
        try:  # beside the output (on its disk), or the system's temporary folder for a device
            folder = None if self.in_place else self.file.target.parent
            self.spool = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 - closed by finish or discard
        except OSError as error:
            self.file.discard()
            raise cannot(self.file.shown, error) from None

    def add(self, npc: NpcOutput) -> None:
        card = npc.card
        assert card is not None
        if self.group and (card.group != self.group[0].group or card.leader):
            self._close_group()
        if card.group:  # held until its group is whole (a group starts at its leader or a new title)
            self.group.append(card)
        else:
            self._place([card])

    def _close_group(self) -> None:
        from chargen.batch.roster import with_headings

        self._place(with_headings(self.group))
        self.group = []

    def _place(self, entries: Sequence[RosterCard | GroupHeading]) -> None:
        from chargen.batch.roster import CARDS_PER_PAGE

        for entry in entries:
            self.page.append(entry)
            if len(self.page) == CARDS_PER_PAGE:
                self._spool_page()

    def _spool_page(self) -> None:
        try:
            pickle.dump(self.page, self.spool, pickle.HIGHEST_PROTOCOL)
        except OSError as error:
            raise cannot(self.file.shown, error) from None
        self.spooled += 1
        self.page = []

    def _pages(self) -> Iterator[RosterPage]:
        from chargen.batch.roster import RosterPage

        self.spool.seek(0)
        for number in range(1, self.spooled + 1):
            yield RosterPage(number, pickle.load(self.spool))

    def finish(self) -> None:
        from chargen.batch import roster

        self._close_group()
        if self.page:
            self._spool_page()
        try:
            if self.as_html:
                parts = roster.roster_html_parts(
                    self._pages(), self.spooled, paper=self.paper, title=self.title
                )
                for piece in _joined(parts, STREAM_BUFFER):
                    self.file.write(piece.encode("utf-8"))
            else:
                roster.write_roster_pdf(
                    self._pages(),
                    self.spooled,
                    self.file.stream,
                    paper=self.paper,
                    title=self.title,
                    jobs=self.jobs,
                )
        except OSError as error:
            raise cannot(self.file.shown, error) from None
        finally:
            self.spool.close()

    def commit(self, journal: Journal) -> None:
        self.file.commit(journal)

    def discard(self) -> None:
        self.spool.close()
        self.file.discard()


def _joined(parts: Iterator[str], size: int) -> Iterator[str]:
    """Jinja's many small pieces, gathered into pieces of about `size` characters."""
    gathered: list[str] = []
    length = 0
    for part in parts:
        gathered.append(part)
        length += len(part)
        if length >= size:
            yield "".join(gathered)
            gathered, length = [], 0
    yield "".join(gathered)
