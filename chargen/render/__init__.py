"""The Character Record: a character file rendered as one standalone HTML page and as a PDF.

    render_html(character, tables, paper="letter", template=None) -> str
    render_pdf(character, tables, paper="letter", template=None) -> bytes

Every failure a user can cause is a RenderError (a ChargenError) with a one-line message. WeasyPrint is
imported only when a PDF is asked for.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from chargen.render.errors import RenderError

if TYPE_CHECKING:
    from chargen.render.build import Renderable
    from chargen.render.form import Form
    from chargen.render.sheet import Sheet
    from chargen.tables import Tables

__all__ = ["RenderError", "render_html", "render_pdf"]

#: The ruled boxes that stand last on the record, side by side (Languages and Notes): when the last page
#: of a PDF is left mostly empty (a record whose weapons run on), they are ruled down to its foot, so the
#: page is room to write in rather than a blank.
LAST_BOXES = ("languages", "notes")


def _page(
    character: Renderable,
    tables: Tables,
    paper: str,
    template: Path | None,
    *,
    standalone: bool,
    explain: bool = False,
    undecided: Collection[str] = (),
    fonts_at: str | None = None,
) -> str:
    import chargen
    from chargen.render.build import build_sheet
    from chargen.render.undecided import blanked
    from chargen.render.working_rows import explained_so_far

    sheet = blanked(build_sheet(character, tables, chargen.__version__, explain=explain), undecided)
    sheet = explained_so_far(sheet, undecided)
    if fonts_at is not None:
        return _linked_page(sheet, paper, fonts_at)
    return _sheet_page(sheet, paper, template, standalone=standalone)


def _linked_page(sheet: Sheet, paper: str, fonts_at: str) -> str:
    """Our record with its fonts at `fonts_at` on the page's own server (chargen serve's preview)."""
    from chargen.render import fetcher, html

    stylesheet = html.linked_stylesheet(fonts_at)
    return html.render_page(
        None, sheet, html.paper_size(paper), stylesheet, policy=fetcher.SERVED_FONTS_POLICY
    )


def _sheet_page(
    sheet: Sheet, paper: str, template: Path | None, *, standalone: bool, form: Form | None = None
) -> str:
    from chargen.render import html

    size = html.paper_size(paper)
    # The PDF: our template gets the CSS already parsed (chargen.render.pdf); a GM's gets our layout inline.
    pdf_css = "" if template is None else html.layout_css()
    if standalone:
        return html.render_page(template, sheet, size, html.standalone_stylesheet(), form)
    return html.render_page(template, sheet, size, pdf_css, form, html.LAYOUT_MARKS)


def render_html(
    character: Renderable,
    tables: Tables,
    *,
    paper: str = "letter",
    template: Path | None = None,
    explain: bool = False,
    undecided: Collection[str] = (),
    fonts_at: str | None = None,
) -> str:
    """The record as one self-contained HTML page: inline CSS, fonts as data: URIs, no outside requests
    (a GM's template that refers to anything outside the page is refused). `explain`: each value links
    to its working, in a closed <details> at the end. `undecided`: for a walk's preview, the record's
    lines (`Name`, `Race`, `Gender`, ...) to show as a dash. `fonts_at`: for a page of chargen serve
    only, our record with its fonts at that path of the server (fonts.css's urls after it), which a
    browser keeps between pages instead of parsing 600 KB of data: URIs at each."""
    from chargen.render.fetcher import check_standalone, with_policy

    page = _page(
        character,
        tables,
        paper,
        template,
        standalone=True,
        explain=explain,
        undecided=undecided,
        fonts_at=fonts_at if template is None else None,
    )
    if template is not None:  # ours carries the policy already; a GM's gets it first thing
        check_standalone(page, str(template))
        page = with_policy(page)
    return page


def render_pdf(
    character: Renderable,
    tables: Tables,
    *,
    paper: str = "letter",
    template: Path | None = None,
    fillable: bool = False,
    field_prefix: str = "",
    explain: bool = False,
) -> bytes:
    """The record as PDF bytes, the same for the same character file. `fillable`: the values that
    change in play are PDF form fields (chargen.render.form), each name after `field_prefix`.
    `explain`: a last page, "How each value was worked out"."""
    import chargen
    from chargen.render import form, pdf
    from chargen.render.build import build_sheet

    sheet = build_sheet(character, tables, chargen.__version__, explain=explain)

    def page_of(sheet: Sheet) -> str:
        fields = form.form_fields(sheet, field_prefix) if fillable else None
        page = _sheet_page(sheet, paper, template, standalone=False, form=fields)
        if template is not None:  # refused as its HTML is, though WeasyPrint would skip some of it
            from chargen.render.fetcher import check_fetches

            check_fetches(page, str(template))
        return page

    def with_more_lines(lines: int) -> str:
        # The record's last boxes, side by side, take the room a mostly empty last page leaves.
        more = {box: sheet.blank_lines[box] + lines for box in LAST_BOXES if box in sheet.blank_lines}
        return page_of(replace(sheet, blank_lines={**sheet.blank_lines, **more}))

    made = pdf.write_pdf(
        page_of(sheet),
        default_template=template is None,
        fill_last_page=with_more_lines,
        forms=fillable,
    )
    return form.finished(made) if fillable else made
