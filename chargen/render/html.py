"""Jinja2 side of the record: the sandboxed, autoescaping, strict environment and the page's stylesheets.

A template (ours or a GM's, via `template=`) gets: `sheet` (the view model), `paper` (name, CSS page size,
sheet width), `stylesheet` (our CSS, ready to drop into a <style> element) and `form` (a fillable PDF's
field names, chargen.render.form; None otherwise). For the standalone HTML the
stylesheet carries the fonts as data: URIs; for the PDF the default template gets an empty one, because
WeasyPrint is handed the same CSS already parsed (see chargen.render.pdf).
"""

from __future__ import annotations

import base64
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import FrameType
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from chargen.paths import templates_dir
from chargen.render import fetcher
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
def environment() -> SandboxedEnvironment:
    """One sandboxed environment per process: templates are compiled once and cached by Jinja2."""
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )


def load_template(template: Path | None) -> jinja2.Template:
    """Our record template, or a GM's file. Either may extend or include the package's templates only."""
    env = environment()
    try:
        if template is None:
            return env.get_template(DEFAULT_TEMPLATE)
        try:
            source = Path(template).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise RenderError(f"cannot read template {template}: {reason}") from None
        return env.from_string(source)
    except jinja2.TemplateSyntaxError as error:
        where = template if template is not None else error.filename or DEFAULT_TEMPLATE
        raise RenderError(f"{where}:{error.lineno}: template syntax error: {error.message}") from None
    except jinja2.TemplateNotFound as error:
        raise RenderError(f"template {error.name} not found under {templates_dir()}") from None


#: A record's render budget: a page is a few hundred kB and takes milliseconds; a template that runs
#: past these (a loop of a billion, a macro calling itself) is stopped with one line.
MAX_PAGE_CHARACTERS = 10_000_000
MAX_SECONDS = 1.5


class _OverBudget(Exception):
    pass


def render(
    template: jinja2.Template,
    sheet: Sheet,
    paper: Paper,
    stylesheet: str,
    source: Path | None,
    form: Form | None = None,
) -> str:
    if "</style" in stylesheet.lower():  # it goes inside a <style> element unescaped
        raise RenderError("a stylesheet under templates/ may not contain '</style'")
    context: dict[str, Any] = {"sheet": sheet, "paper": paper, "stylesheet": Markup(stylesheet), "form": form}
    where = source if source is not None else DEFAULT_TEMPLATE
    try:
        with _time_limit(MAX_SECONDS):
            return _within_budget(template.generate(context))
    except jinja2.TemplateNotFound as error:
        raise RenderError(f"template {error.name} not found under {templates_dir()}") from None
    except jinja2.TemplateError as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise RenderError(f"{where}: template error: {message}") from None
    except _OverBudget as error:
        raise RenderError(f"{where}: template stopped: {error}") from None
    except RecursionError:
        raise RenderError(f"{where}: template stopped: it calls itself too deeply") from None
    except Exception as error:  # a GM's template can divide by zero, overflow a range, ...
        text = " ".join(str(error).split())[:80]
        raise RenderError(f"{where}: template error: {type(error).__name__}: {text}") from None


def _within_budget(chunks: Iterator[str]) -> str:
    page: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_PAGE_CHARACTERS:
            raise _OverBudget(f"the page grew past {MAX_PAGE_CHARACTERS:,} characters")
        page.append(chunk)
    return "".join(page)


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """SIGALRM after `seconds`, where a timer can be set (the main thread, no timer of the caller's)."""
    usable = (
        threading.current_thread() is threading.main_thread() and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )

    def expire(signum: int, frame: FrameType | None) -> None:
        raise _OverBudget(f"it ran past {seconds:g} seconds")

    if not usable:
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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


def font_urls() -> list[str]:
    """The absolute URL of each font fonts.css names, in its order, as the PDF's fetcher sees it."""
    base = templates_dir().resolve().as_uri() + "/"
    return [_absolute(match.group(2), base) for match in _URL.finditer(fonts_css())]


def _absolute(url: str, base: str) -> str:
    """A url(...) of fonts.css against the templates folder's `base`; one with a scheme as it is."""
    return url if ":" in url.split("/")[0] else base + url


@lru_cache(maxsize=1)
def inline_fonts_css() -> str:
    """fonts.css with every url(...) replaced by a data: URI, fetched under the same rules as the PDF."""
    root = templates_dir()
    base = root.as_uri() + "/"

    def embed(match: re.Match[str]) -> str:
        resource = fetcher.fetch(_absolute(match.group(2), base), root)
        encoded = base64.b64encode(resource.data).decode("ascii")
        return f'url("data:{resource.mime_type};base64,{encoded}")'

    return _URL.sub(embed, fonts_css())


def standalone_stylesheet() -> str:
    """Everything the standalone HTML needs, inline: fonts as data: URIs, then the layout."""
    return inline_fonts_css() + "\n" + layout_css()
