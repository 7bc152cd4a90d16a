"""The roster: NPC cards ten to a page, as HTML or PDF, from templates/roster.html.j2 + roster.css.

It goes through chargen.render's sandboxed Jinja2 environment and, for the PDF, its WeasyPrint state:
the same URL fetcher (only the package's templates and fonts), the fonts parsed once per process, and
its deterministic PDF settings. WeasyPrint is imported only on the PDF path, by chargen.render.pdf.

A long roster's PDF is rendered a few pages at a time, one group per task on every core, and the groups
joined in order. The groups are fixed by page number, never by the number of jobs, and each page carries
its own folio, so the file is the same for any number of jobs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    import jinja2
    from markupsafe import Markup

    import chargen
    from chargen.render import html
    from chargen.render.errors import RenderError

    template = html.environment().get_template(TEMPLATE)
    try:
        return template.render(
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
    from chargen.render import html

    pages = paginate(cards)
    stylesheet = html.inline_fonts_css() + "\n" + html.read_asset(STYLESHEET)
    return _document(pages, len(pages), paper=paper, title=title, stylesheet=stylesheet)


def _group_pdf(pages: Sequence[RosterPage], page_count: int, paper: str, title: str) -> bytes:
    """Some pages of the roster as PDF. The fonts come from chargen.render's parsed fonts.css
    (default_template=False adds only that), the layout from the page's own <style>."""
    from chargen.render import html, pdf

    page = _document(pages, page_count, paper=paper, title=title, stylesheet=html.read_asset(STYLESHEET))
    return pdf.write_pdf(page, default_template=False)


def roster_pdf(cards: Sequence[RosterCard], *, paper: str, title: str, jobs: int = 1) -> bytes:
    """The roster as PDF bytes, the same for the same cards whatever `jobs`."""
    pages = paginate(cards)
    groups = [pages[start : start + PAGES_PER_TASK] for start in range(0, len(pages), PAGES_PER_TASK)]
    arguments = (groups, [len(pages)] * len(groups), [paper] * len(groups), [title] * len(groups))
    if jobs <= 1 or len(groups) <= 1:
        return join_pdfs(list(map(_group_pdf, *arguments)))
    from chargen.batch.workers import worker_pool

    with worker_pool(min(jobs, len(groups))) as pool:
        parts = list(pool.map(_group_pdf, *arguments))
    return join_pdfs(parts)


def join_pdfs(parts: Sequence[bytes]) -> bytes:
    """The pages of every PDF, in order, in one. pypdf writes no date or random identifier."""
    from io import BytesIO

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(BytesIO(part)))
    out = BytesIO()
    writer.write(out)
    return out.getvalue()
