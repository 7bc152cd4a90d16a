"""The batch's roster file: the NPCs' cards ten to a page (chargen.views.roster), their pages kept on disk
while the run goes on, and a long roster's PDF rendered a few pages at a time, one group of pages per task
on every core, the groups written in order into one file as they come (chargen.batch.pdfstream). The
groups are fixed by page number, never by the number of jobs, and each page carries its own folio, so the
file is the same for any number of jobs."""

from __future__ import annotations

import contextlib
import itertools
import pickle
import tempfile
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING

from chargen.batch.npc import NpcOutput
from chargen.output import STREAM_BUFFER, Journal, StagedFile, cannot

if TYPE_CHECKING:
    from chargen.views.cards import RosterCard
    from chargen.views.roster import RosterPage
    from chargen.views.statblock import GroupHeading

PAGES_PER_TASK = 2  # about a second of WeasyPrint: small enough to spread over the cores


class RosterOutput:
    """The compact roster, ten NPC cards a page: PDF, or HTML when the file name ends in .html/.htm.
    Written at the end (chargen.views.roster), on every core for a PDF (`write_roster_pdf`). The cards are not kept: each
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
        from chargen.views.roster import with_headings

        self._place(with_headings(self.group))
        self.group = []

    def _place(self, entries: Sequence[RosterCard | GroupHeading]) -> None:
        from chargen.views.roster import CARDS_PER_PAGE

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
        from chargen.views.roster import RosterPage

        self.spool.seek(0)
        for number in range(1, self.spooled + 1):
            yield RosterPage(number, pickle.load(self.spool))

    def finish(self) -> None:
        from chargen.views import roster

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
                write_roster_pdf(
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


def roster_pdf(cards: Sequence[RosterCard], *, paper: str, title: str, jobs: int = 1) -> bytes:
    """The roster as PDF bytes, the same for the same cards whatever `jobs`."""
    from io import BytesIO

    from chargen.views.roster import paginate

    pages = paginate(cards)
    out = BytesIO()
    write_roster_pdf(pages, len(pages), out, paper=paper, title=title, jobs=jobs)
    return out.getvalue()


def write_roster_pdf(
    pages: Iterable[RosterPage], page_count: int, out: IO[bytes], *, paper: str, title: str, jobs: int
) -> None:
    """The roster's PDF written to `out`, from pages taken once in order. More than one group of pages
    is rendered by workers (chargen.processes), retired as the records' are: WeasyPrint keeps a little
    of every layout (docs/weasyprint-leak.md)."""
    from chargen import processes
    from chargen.batch.pdfstream import StreamingPdf
    from chargen.batch.workers import DIED, RECORDS_PER_WORKER
    from chargen.views.roster import pages_pdf

    groups = _groups(iter(pages))
    tasks = ((group, page_count, paper, title) for group in groups)
    group_count = -(-page_count // PAGES_PER_TASK)
    if group_count <= 1:
        parts: Generator[bytes, None, None] = (pages_pdf(task) for task in tasks)
    else:
        parts = processes.in_order(
            pages_pdf, tasks, min(jobs, group_count), tasks_per_worker=RECORDS_PER_WORKER, died=DIED
        )
    writer = StreamingPdf(out)
    with contextlib.closing(parts):  # closed on any failure: the workers end at once
        for part in parts:
            writer.add(part)
    writer.finish()


def _groups(pages: Iterator[RosterPage]) -> Iterator[list[RosterPage]]:
    while group := list(itertools.islice(pages, PAGES_PER_TASK)):
        yield group


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
