"""The roster: NPC cards ten to a page, as HTML or PDF, from templates/roster.html.j2 + roster.css.

It goes through chargen.render's sandboxed Jinja2 environment and, for the PDF, its WeasyPrint state:
the same URL fetcher (only the package's templates and fonts), the fonts parsed once per process, and
its deterministic PDF settings. WeasyPrint is imported only on the PDF path, by chargen.render.pdf.

The pages come as an iterable, taken once in order: a batch's roster never holds every card (the pages
wait on disk, chargen.batch.writers.RosterOutput). The HTML is written as it is made (Jinja's generate).
A long roster's PDF is rendered a few pages at a time, one group per task on every core, and the groups
written in order into one file as they come (chargen.batch.pdfstream). The groups are fixed by page
number, never by the number of jobs, and each page carries its own folio, so the file is the same for any
number of jobs.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from chargen.batch.cards import RosterCard
    from chargen.batch.statblock import GroupHeading

TEMPLATE = "roster.html.j2"
STYLESHEET = "roster.css"
CARDS_PER_PAGE = 10
PAGES_PER_TASK = 2  # about a second of WeasyPrint: small enough to spread over the cores


@dataclass(frozen=True)
class RosterPage:
    number: int
    cards: Sequence[RosterCard | GroupHeading]  # a group's heading takes one card's place (issue 30)


def with_headings(cards: Sequence[RosterCard]) -> list[RosterCard | GroupHeading]:
    """The cards, each --group group led by its heading (the stat blocks' own: members, best Initiative,
    leader's Perception), which stands in one card's place so the pages keep their ten places."""
    from chargen.batch.statblock import group_heading

    entries: list[RosterCard | GroupHeading] = []
    start = 0
    while start < len(cards):
        title = cards[start].group
        end = start + 1
        while end < len(cards) and cards[end].group == title and not cards[end].leader:
            end += 1
        if title:
            entries.append(group_heading(title, cards[start].group_members, cards[start:end]))
        entries.extend(cards[start:end])
        start = end
    return entries


def paginate(cards: Sequence[RosterCard]) -> list[RosterPage]:
    entries = with_headings(cards)
    return [
        RosterPage(index // CARDS_PER_PAGE + 1, entries[index : index + CARDS_PER_PAGE])
        for index in range(0, len(entries), CARDS_PER_PAGE)
    ]


def _document(
    pages: Sequence[RosterPage], page_count: int, *, paper: str, title: str, stylesheet: str
) -> str:
    return "".join(_document_parts(pages, page_count, paper=paper, title=title, stylesheet=stylesheet))


def _document_parts(
    pages: Iterable[RosterPage], page_count: int, *, paper: str, title: str, stylesheet: str
) -> Iterator[str]:
    """The document as Jinja makes it, a piece at a time, taking the pages as it reaches them."""
    import jinja2
    from markupsafe import Markup

    import chargen
    from chargen.render import html
    from chargen.render.errors import RenderError

    template = html.environment().get_template(TEMPLATE)
    try:
        yield from template.generate(
            pages=pages,
            page_count=page_count,
            paper=html.paper_size(paper),
            title=title,
            version=chargen.__version__,
            stylesheet=Markup(stylesheet),
        )
    except jinja2.TemplateError as error:
        raise RenderError(f"{TEMPLATE}: template error: {error}") from None


def roster_html(cards: Sequence[RosterCard], *, paper: str, title: str) -> str:
    """One self-contained HTML page: the fonts as data: URIs, the CSS inline, nothing fetched."""
    pages = paginate(cards)
    return "".join(roster_html_parts(pages, len(pages), paper=paper, title=title))


def roster_html_parts(
    pages: Iterable[RosterPage], page_count: int, *, paper: str, title: str
) -> Iterator[str]:
    """roster_html, a piece at a time, from pages taken once in order."""
    from chargen.render import html

    stylesheet = html.inline_fonts_css() + "\n" + html.read_asset(STYLESHEET)
    return _document_parts(pages, page_count, paper=paper, title=title, stylesheet=stylesheet)


def _group_pdf(task: tuple[Sequence[RosterPage], int, str, str]) -> bytes:
    """Some pages of the roster as PDF (pages, the roster's page count, paper, title). The fonts come from
    chargen.render's parsed fonts.css (default_template=False adds only that), the layout from the page's
    own <style>."""
    from chargen.render import html, pdf

    pages, page_count, paper, title = task
    page = _document(pages, page_count, paper=paper, title=title, stylesheet=html.read_asset(STYLESHEET))
    return pdf.write_pdf(page, default_template=False)


def roster_pdf(cards: Sequence[RosterCard], *, paper: str, title: str, jobs: int = 1) -> bytes:
    """The roster as PDF bytes, the same for the same cards whatever `jobs`."""
    from io import BytesIO

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

    groups = _groups(iter(pages))
    tasks = ((group, page_count, paper, title) for group in groups)
    group_count = -(-page_count // PAGES_PER_TASK)
    if group_count <= 1:
        parts: Generator[bytes, None, None] = (_group_pdf(task) for task in tasks)
    else:
        parts = processes.in_order(
            _group_pdf, tasks, min(jobs, group_count), tasks_per_worker=RECORDS_PER_WORKER, died=DIED
        )
    writer = StreamingPdf(out)
    with contextlib.closing(parts):  # closed on any failure: the workers end at once
        for part in parts:
            writer.add(part)
    writer.finish()


def _groups(pages: Iterator[RosterPage]) -> Iterator[list[RosterPage]]:
    while group := list(itertools.islice(pages, PAGES_PER_TASK)):
        yield group
