"""Jinja2 side of the record: the sandboxed, autoescaping, strict environment and the page's stylesheets.

A template (ours or a GM's, via `template=`) gets: `sheet` (the view model), `paper` (name, CSS page size,
sheet width), `stylesheet` (our CSS, ready to drop into a <style> element) and `form` (a fillable PDF's
field names, chargen.render.form; None otherwise) and `marks` (for the PDF only: the ids of three empty
elements that let chargen.render.pdf measure the laid-out last page; None otherwise) and `policy` (the
page's own Content-Security-Policy). For the standalone HTML the
stylesheet carries the fonts as data: URIs; for the PDF the default template gets an empty one, because
WeasyPrint is handed the same CSS already parsed (see chargen.render.pdf).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from chargen.paths import templates_dir
from chargen.render import fetcher
from chargen.render.bounded import (
    MAX_MEMORY,
    MAX_PAGE_CHARACTERS,
    BoundedEnvironment,
    TemplateBudgetError,
    read_template,
    run_bounded,
)
from chargen.render.errors import RenderError
from chargen.render.form import Form
from chargen.render.sheet import Sheet

DEFAULT_TEMPLATE = "record.html.j2"
LAYOUT_CSS = "record.css"
FONTS_CSS = "fonts.css"
_URL = re.compile(r"url\(\s*(['\"]?)([^'\")\s]+)\1\s*\)")


@dataclass(frozen=True)
class Paper:
    name: str
    css_size: str
    width: str


@dataclass(frozen=True)
class LayoutMarks:
    """Ids of the empty elements the PDF's page carries, never the HTML record: WeasyPrint's public
    `Page.anchors` gives where each lies on a laid-out page. The page area's top and bottom are fixed
    elements, repeated on every page; the content's end follows the record."""

    page_top: str = "chargen-page-top"
    page_bottom: str = "chargen-page-bottom"
    content_end: str = "chargen-content-end"


LAYOUT_MARKS = LayoutMarks()

PAPERS = {
    "letter": Paper("letter", "letter", "8.5in"),
    "a4": Paper("a4", "A4", "210mm"),
}


def paper_size(paper: str) -> Paper:
    try:
        return PAPERS[paper]
    except KeyError:
        choices = " or ".join(PAPERS)
        raise RenderError(f"paper must be {choices}, not {paper!r}") from None


@lru_cache(maxsize=1)
def environment() -> BoundedEnvironment:
    """One sandboxed environment per process: templates are compiled once and cached by Jinja2."""
    return BoundedEnvironment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )


def render_page(
    template: Path | None,
    sheet: Sheet,
    paper: Paper,
    stylesheet: str,
    form: Form | None = None,
    marks: LayoutMarks | None = None,
    policy: str = fetcher.POLICY,
) -> str:
    """The page from our record template, or from a GM's file, which may extend or include the package's
    templates only. A GM's is read with a size limit, then compiled and run in a child process under
    limits of memory and time it cannot escape (chargen.render.bounded)."""
    if template is None:
        return render(_compiled(None, None), sheet, paper, stylesheet, None, form, marks, policy)
    source = read_template(template)
    return run_bounded(
        lambda: render(_compiled(source, template), sheet, paper, stylesheet, template, form, marks),
        template,
    )


def _compiled(source: str | None, template: Path | None) -> jinja2.Template:
    env = environment()
    try:
        return env.get_template(DEFAULT_TEMPLATE) if source is None else env.from_string(source)
    except jinja2.TemplateSyntaxError as error:
        where = template if template is not None else error.filename or DEFAULT_TEMPLATE
        raise RenderError(f"{where}:{error.lineno}: template syntax error: {error.message}") from None
    except jinja2.TemplateNotFound as error:
        raise RenderError(f"template {error.name} not found under {templates_dir()}") from None
    except TemplateBudgetError as error:
        raise RenderError(f"{template}: template stopped: {error}") from None


def render(
    template: jinja2.Template,
    sheet: Sheet,
    paper: Paper,
    stylesheet: str,
    source: Path | None,
    form: Form | None = None,
    marks: LayoutMarks | None = None,
    policy: str = fetcher.POLICY,
) -> str:
    if "</style" in stylesheet.lower():  # it goes inside a <style> element unescaped
        raise RenderError("a stylesheet under templates/ may not contain '</style'")
    context: dict[str, Any] = {
        "sheet": sheet,
        "paper": paper,
        "stylesheet": Markup(stylesheet),
        "form": form,
        "marks": marks,
        "policy": Markup(policy),  # a fixed string of ours, its quotes as they are
    }
    where = source if source is not None else DEFAULT_TEMPLATE
    try:
        return _within_budget(template.generate(context))
    except jinja2.TemplateNotFound as error:
        raise RenderError(f"template {error.name} not found under {templates_dir()}") from None
    except jinja2.TemplateError as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise RenderError(f"{where}: template error: {message}") from None
    except TemplateBudgetError as error:
        raise RenderError(f"{where}: template stopped: {error}") from None
    except RecursionError:
        raise RenderError(f"{where}: template stopped: it calls itself too deeply") from None
    except MemoryError:
        raise RenderError(f"{where}: template stopped: it used more than {MAX_MEMORY >> 20} MB") from None
    except Exception as error:  # a GM's template can divide by zero, overflow a range, ...
        text = " ".join(str(error).split())[:80]
        raise RenderError(f"{where}: template error: {type(error).__name__}: {text}") from None


def _within_budget(chunks: Iterator[str]) -> str:
    page: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_PAGE_CHARACTERS:
            raise TemplateBudgetError(f"the page grew past {MAX_PAGE_CHARACTERS:,} characters")
        page.append(chunk)
    return "".join(page)


def read_asset(name: str) -> str:
    path = templates_dir() / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise RenderError(f"cannot read {path}: {error.strerror}") from None


@lru_cache(maxsize=1)
def layout_css() -> str:
    return read_asset(LAYOUT_CSS)


@lru_cache(maxsize=1)
def fonts_css() -> str:
    return read_asset(FONTS_CSS)


def _absolute(url: str, base: str) -> str:
    """A url(...) of fonts.css against the templates folder's `base`; one with a scheme as it is."""
    return url if ":" in url.split("/")[0] else base + url


@lru_cache(maxsize=1)
def font_files() -> dict[str, fetcher.Resource]:
    """The fonts fonts.css names, by the url(...) it gives them, fetched under the same rules as the PDF."""
    root = templates_dir()
    base = root.as_uri() + "/"
    return {
        match.group(2): fetcher.fetch(_absolute(match.group(2), base), root)
        for match in _URL.finditer(fonts_css())
    }


@lru_cache(maxsize=1)
def inline_fonts_css() -> str:
    """fonts.css with every url(...) replaced by a data: URI."""

    def embed(match: re.Match[str]) -> str:
        resource = font_files()[match.group(2)]
        encoded = base64.b64encode(resource.data).decode("ascii")
        return f'url("data:{resource.mime_type};base64,{encoded}")'

    return _URL.sub(embed, fonts_css())


def standalone_stylesheet() -> str:
    """Everything the standalone HTML needs, inline: fonts as data: URIs, then the layout."""
    return inline_fonts_css() + "\n" + layout_css()


def linked_stylesheet(fonts_at: str) -> str:
    """The stylesheet with each font at `fonts_at` followed by its url in fonts.css, for a page whose
    server gives them (chargen serve's preview: a browser keeps them between pages), then the layout."""
    return _URL.sub(lambda match: f'url("{fonts_at}{match.group(2)}")', fonts_css()) + "\n" + layout_css()
