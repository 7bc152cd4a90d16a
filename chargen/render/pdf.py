"""The PDF, made by WeasyPrint. WeasyPrint is imported here, inside functions, and nowhere else.

Per process, the fonts and our stylesheets are parsed once (`_engine`, an immutable bundle made on first
use); each record then costs only its own layout. Output is byte-for-byte repeatable: the page carries no
date, the PDF identifier is the hash of the PDF's own content, and the only fonts are ours: EB Garamond
from fonts.css, and for what it lacks (Hebrew, Arabic, ...) the Noto fallbacks under templates/fonts/fallback,
through a private fontconfig configuration that hides the machine's fonts.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

from chargen.errors import ChargenError
from chargen.paths import templates_dir
from chargen.render import fetcher
from chargen.render.errors import RenderError
from chargen.render.html import FONTS_CSS, LAYOUT_CSS, LAYOUT_MARKS, fonts_css, layout_css, read_asset

#: chargen's fontconfig configuration: the shipped fallback fonts only.
FONTCONFIG_FILE = "fonts/fonts.conf"
FIELD_FONT_CSS = "field-font.css"


@dataclass(frozen=True)
class _Engine:
    """WeasyPrint's objects kept for the life of the process."""

    weasyprint: Any
    font_config: Any
    fonts: Any
    layout: Any
    field_font: Any  # a fillable record's text fields' own font (templates/field-font.css)


class FetchedDict(TypedDict):
    """What an older WeasyPrint's URL fetcher function returns (its documented keys)."""

    string: bytes
    mime_type: str
    redirected_url: str


def _base_url() -> str:
    return templates_dir().resolve().as_uri() + "/"


def _resolve(url: str, refused: list[str]) -> fetcher.Resource:
    try:
        resource = fetcher.fetch(url, templates_dir())
    except RenderError as error:
        refused.append(str(error))  # for WeasyPrint versions that log a failed fetch and carry on
        raise
    if resource.data[:4] == b"wOFF":
        return fetcher.Resource(resource.url, _unwoff(resource.data), "font/ttf")
    return resource


def _make_fetcher(weasyprint: Any, refused: list[str]) -> Any:
    """A URL fetcher that serves only files under the templates folder and data: URIs; what it refuses
    is noted in `refused` (a list owned by the caller, one per document)."""
    base = getattr(weasyprint, "URLFetcher", None)
    if base is None:  # older WeasyPrint: a fetcher is a function returning a dict

        def fetch_dict(url: str) -> FetchedDict:
            resource = _resolve(url, refused)
            return FetchedDict(string=resource.data, mime_type=resource.mime_type, redirected_url=url)

        return fetch_dict

    response_class = weasyprint.urls.URLFetcherResponse

    class SafeFetcher(base):  # type: ignore[misc,valid-type]
        def fetch(self, url: str, headers: Any = None) -> Any:
            resource = _resolve(url, refused)
            return response_class(url, body=resource.data, headers={"Content-Type": resource.mime_type})

    return SafeFetcher(fail_on_errors=True)


def _unwoff(data: bytes) -> bytes:
    """A WOFF font as plain TrueType/OpenType, keeping its own timestamp.

    WeasyPrint would decode WOFF itself, but fontTools then stamps the font's `head.modified` with the
    current time, and that date lands in the PDF: the same record would differ from one second to the next.
    """
    from io import BytesIO

    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    font = TTFont(BytesIO(data), recalcTimestamp=False)
    font.flavor = None
    out = BytesIO()
    font.save(out)
    return out.getvalue()


def _private_font_configuration(make: Callable[[], Any]) -> Any:
    """WeasyPrint's FontConfiguration, made while FONTCONFIG_FILE names chargen's own configuration:
    fontconfig reads it then, and the machine's fonts are never seen. WeasyPrint takes no configuration
    file, so the variable is set for this call only and put back: left set, every program the process
    starts afterwards (a browser, a user's own tools) would see chargen's fonts only."""
    saved = {name: os.environ.get(name) for name in ("FONTCONFIG_FILE", "FONTCONFIG_PATH")}
    os.environ["FONTCONFIG_FILE"] = str((templates_dir() / FONTCONFIG_FILE).resolve())
    os.environ.pop("FONTCONFIG_PATH", None)
    try:
        return make()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@functools.lru_cache(maxsize=1)
def _engine() -> _Engine:
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    refused: list[str] = []
    url_fetcher = _make_fetcher(weasyprint, refused)
    font_config = _private_font_configuration(FontConfiguration)
    base = _base_url()
    fonts = weasyprint.CSS(
        string=fonts_css(), base_url=base + FONTS_CSS, url_fetcher=url_fetcher, font_config=font_config
    )
    layout = weasyprint.CSS(
        string=layout_css(), base_url=base + LAYOUT_CSS, url_fetcher=url_fetcher, font_config=font_config
    )
    field_font = weasyprint.CSS(
        string=read_asset(FIELD_FONT_CSS),
        base_url=base + FIELD_FONT_CSS,
        url_fetcher=url_fetcher,
        font_config=font_config,
    )
    if refused:
        raise RenderError(refused[0])
    return _Engine(weasyprint, font_config, fonts, layout, field_font)


def _causes(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _failures(weasyprint: Any) -> tuple[type[BaseException], ...]:
    """What a layout may raise that is told as one RenderError: any Exception, and WeasyPrint's
    FatalURLFetchingError, a BaseException (so a fetcher's failure stops the layout) where this version of
    WeasyPrint has it. chargen's own BaseException (Stopped) and Ctrl-C are not among them."""
    fatal = getattr(getattr(weasyprint, "urls", None), "FatalURLFetchingError", None)
    if isinstance(fatal, type) and issubclass(fatal, BaseException):
        return (Exception, fatal)
    return (Exception,)


def _one_line(error: BaseException) -> RenderError:
    """Whatever WeasyPrint raised (its FatalURLFetchingError is a BaseException), as one RenderError."""
    for cause in _causes(error):
        if isinstance(cause, RenderError):
            return cause
    text = " ".join(str(error).split())
    text = text if len(text) <= 80 else text[:77] + "..."
    return RenderError(f"WeasyPrint could not make the PDF: {type(error).__name__}: {text}")


def write_pdf(
    html: str,
    *,
    default_template: bool,
    fill_last_page: Callable[[int], str] | None = None,
    forms: bool = False,
) -> bytes:
    """The PDF of a page rendered by chargen.render.html; our layout CSS is added for our own template.

    Fonts are subset to the glyphs the page uses.
    `fill_last_page(lines)`: the page again with that many more ruled lines in its last boxes, laid out
    instead when the last page is left mostly empty and the longer page keeps the same page count.
    `forms`: the page's form elements styled `appearance: auto` become PDF form fields."""
    try:
        engine = _engine()
    except OSError as error:  # WeasyPrint writes the fonts it is given to the temporary folder
        where = tempfile.gettempdir()
        raise RenderError(f"cannot write the record's fonts to {where} ({error.strerror or error})") from None
    refused: list[str] = []
    stylesheets = [engine.fonts, engine.layout] if default_template else [engine.fonts]
    if forms:
        stylesheets.append(engine.field_font)
    try:

        def layout(page: str) -> Any:
            return engine.weasyprint.HTML(
                string=page, base_url=_base_url(), url_fetcher=_make_fetcher(engine.weasyprint, refused)
            ).render(stylesheets=stylesheets, font_config=engine.font_config)

        document = layout(html)
        lines = _spare_lines(document) if fill_last_page is not None else 0
        if lines > 0:
            assert fill_last_page is not None  # lines are only counted for a page that can be filled
            fuller = layout(fill_last_page(lines))
            if len(fuller.pages) == len(document.pages):
                document = fuller
        pdf = document.write_pdf(pdf_identifier=True, pdf_forms=forms or None)
    except ChargenError:
        raise
    except _failures(engine.weasyprint) as error:
        raise _one_line(error) from None
    if refused:
        raise RenderError(refused[0])
    if not isinstance(pdf, bytes):
        raise RenderError("WeasyPrint returned no PDF")
    return pdf


#: One ruled line of the record's pencil boxes (record.css: 15.5pt), in CSS pixels (96 to the inch).
RULED_LINE_PX = 15.5 * 96 / 72


def _spare_lines(document: Any) -> int:
    """Ruled lines that would fill the last page of a record that runs past one page, when its content
    ends above the middle of the page (0 otherwise); one line is left spare, against rounding. Measured
    by the page's marks (chargen.render.html.LayoutMarks) through WeasyPrint's public `Page.anchors`: a
    GM's template without them gets no more lines."""
    if len(document.pages) < 2:
        return 0
    anchors = document.pages[-1].anchors  # each id's (x, y) on the page, in CSS pixels
    marks = (LAYOUT_MARKS.page_top, LAYOUT_MARKS.page_bottom, LAYOUT_MARKS.content_end)
    if not all(mark in anchors for mark in marks):
        return 0
    top, bottom, end = (anchors[mark][1] for mark in marks)
    spare = bottom - end
    if spare < (bottom - top) / 2:
        return 0
    return max(0, int(spare // RULED_LINE_PX) - 1)
