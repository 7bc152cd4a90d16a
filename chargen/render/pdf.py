"""The PDF, made by WeasyPrint. WeasyPrint is imported here, inside functions, and nowhere else.

Per process, the fonts and our stylesheets are parsed once (one FontConfiguration and two CSS objects
kept in `_STATE`); each record then costs only its own layout. Output is byte-for-byte repeatable: the
page carries no date, and the PDF identifier is the hash of the PDF's own content.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from chargen.paths import templates_dir
from chargen.render import fetcher
from chargen.render.errors import RenderError
from chargen.render.html import FONTS_CSS, LAYOUT_CSS, fonts_css, layout_css

_LOG = logging.getLogger("weasyprint")


@dataclass
class _State:
    """WeasyPrint's objects kept for the life of the process."""

    weasyprint: Any
    font_config: Any
    fonts: Any
    layout: Any
    fetcher: Any
    refused: list[str] = field(default_factory=list)


_STATE: list[_State] = []


def _base_url() -> str:
    return templates_dir().resolve().as_uri() + "/"


def _make_fetcher(weasyprint: Any, refused: list[str]) -> Any:
    """A URL fetcher that serves only files under the templates folder and data: URIs."""
    root = templates_dir()

    def resolve(url: str) -> fetcher.Resource:
        try:
            resource = fetcher.fetch(url, root)
        except RenderError as error:
            refused.append(str(error))
            raise
        if resource.data[:4] == b"wOFF":
            return fetcher.Resource(resource.url, _unwoff(resource.data), "font/ttf")
        return resource

    base = getattr(weasyprint, "URLFetcher", None)
    if base is None:  # older WeasyPrint: a fetcher is a function returning a dict

        def fetch_dict(url: str) -> dict[str, Any]:
            resource = resolve(url)
            return {"string": resource.data, "mime_type": resource.mime_type, "redirected_url": url}

        return fetch_dict

    response_class = weasyprint.urls.URLFetcherResponse

    class SafeFetcher(base):  # type: ignore[misc,valid-type]
        def fetch(self, url: str, headers: Any = None) -> Any:
            resource = resolve(url)
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


def _state() -> _State:
    if _STATE:
        return _STATE[0]
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    refused: list[str] = []
    url_fetcher = _make_fetcher(weasyprint, refused)
    font_config = FontConfiguration()
    base = _base_url()
    fonts = weasyprint.CSS(
        string=fonts_css(), base_url=base + FONTS_CSS, url_fetcher=url_fetcher, font_config=font_config
    )
    layout = weasyprint.CSS(
        string=layout_css(), base_url=base + LAYOUT_CSS, url_fetcher=url_fetcher, font_config=font_config
    )
    if refused:
        raise RenderError(refused[0])
    state = _State(weasyprint, font_config, fonts, layout, url_fetcher, refused)
    _STATE.append(state)
    return state


def write_pdf(html: str, *, default_template: bool) -> bytes:
    """The PDF of a page rendered by chargen.render.html; our layout CSS is added for our own template."""
    state = _state()
    state.refused.clear()
    stylesheets = [state.fonts, state.layout] if default_template else [state.fonts]
    fatal = getattr(getattr(state.weasyprint, "urls", None), "FatalURLFetchingError", None)
    level = _LOG.level
    _LOG.setLevel(logging.ERROR)  # WeasyPrint warns on unsupported CSS; the record is checked in tests
    try:
        document = state.weasyprint.HTML(string=html, base_url=_base_url(), url_fetcher=state.fetcher).render(
            stylesheets=stylesheets, font_config=state.font_config
        )
        pdf = document.write_pdf(pdf_identifier=True)
    except BaseException as error:
        if fatal is not None and isinstance(error, fatal) and state.refused:
            raise RenderError(state.refused[0]) from None
        if isinstance(error, Exception) and not isinstance(error, RenderError):
            raise RenderError(
                f"WeasyPrint could not make the PDF: {type(error).__name__}: {error}"
            ) from error
        raise
    finally:
        _LOG.setLevel(level)
    if state.refused:
        raise RenderError(state.refused[0])
    if not isinstance(pdf, bytes):
        raise RenderError("WeasyPrint returned no PDF")
    return pdf
