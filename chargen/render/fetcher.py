"""What a record may load: the package's own templates and fonts, and data: URIs. Nothing else.

No network, and no local file outside the templates folder, whoever wrote the template. The rule lives
here as plain Python so it can be tested without WeasyPrint; `chargen.render.pdf` wraps it for WeasyPrint,
and `check_standalone` applies it to the standalone HTML page, which may refer to nothing at all outside
itself (data: URIs and #fragments only): a GM's template cannot make a reader's browser fetch anything.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from chargen.render.errors import RenderError

_TYPES = {
    ".css": "text/css",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


@dataclass(frozen=True)
class Resource:
    url: str
    data: bytes
    mime_type: str


def _short(url: str) -> str:
    return url if len(url) <= 80 else url[:77] + "..."


def fetch(url: str, root: Path) -> Resource:
    """The bytes behind `url`, or a RenderError when the URL leaves `root` or is not a file: or data: URL."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "data":
        return _data(url)
    if scheme != "file":
        raise RenderError(f"the record may not load {_short(url)}: only the package's templates and fonts")
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise RenderError(f"the record may not load {_short(url)}: only the package's templates and fonts")
    base = root.resolve()
    try:
        path = Path(url2pathname(parts.path)).resolve()
        allowed = path.is_relative_to(base) and path.is_file()
        data = path.read_bytes() if allowed else b""
    except (OSError, ValueError):  # a NUL byte, a name too long, a file that vanished
        allowed = False
    if not allowed:
        raise RenderError(f"the record may not load {_short(url)}: only files under {base}")
    mime = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Resource(url, data, mime)


def _data(url: str) -> Resource:
    header, comma, payload = url[5:].partition(",")
    if not comma:
        raise RenderError(f"broken data: URL {_short(url)}")
    params = header.split(";")
    mime = params[0] or "text/plain"
    try:
        data = (
            base64.b64decode(payload, validate=False) if "base64" in params[1:] else unquote(payload).encode()
        )
    except ValueError as error:
        raise RenderError(f"broken data: URL {_short(url)}: {error}") from None
    return Resource(url[:40], data, mime)


#: Attributes whose value a browser loads or follows.
_URL_ATTRIBUTES = {
    "src", "href", "srcset", "poster", "data", "action", "formaction", "background", "cite", "longdesc",
    "manifest", "ping", "xlink:href", "codebase", "archive", "lowsrc", "dynsrc", "icon",
}  # fmt: skip
_CSS_URL = re.compile(r"url\(\s*(['\"]?)([^'\")]*)\1\s*\)|@import\s*(['\"])([^'\"]*)\3", re.IGNORECASE)
_REFRESH_URL = re.compile(r"url\s*=\s*(\S+)", re.IGNORECASE)


def _self_contained(url: str) -> bool:
    url = url.strip()
    return url.startswith("#") or url[:5].lower() == "data:"


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_style = tag == "style"
        for name, value in attrs:
            if value is None:
                continue
            if name in _URL_ATTRIBUTES:
                urls = (
                    [part.split()[0] for part in value.split(",") if part.split()]
                    if name == "srcset"
                    else [value]
                )
                self.found.extend(urls)
            elif name == "style":
                self.css(value)
            elif name == "content" and ("http-equiv", "refresh") in [
                (k, (v or "").lower()) for k, v in attrs
            ]:
                self.found.extend(match.group(1) for match in _REFRESH_URL.finditer(value))

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if self.in_style:
            self.css(data)

    def css(self, text: str) -> None:
        for match in _CSS_URL.finditer(text):
            self.found.append(match.group(2) if match.group(2) is not None else match.group(4))


def check_standalone(page: str, where: str) -> None:
    """Refuse a standalone HTML page that refers to anything outside itself (a URL, a file)."""
    parser = _References()
    parser.feed(page)
    parser.close()
    for url in parser.found:
        if not _self_contained(url):
            raise RenderError(
                f"{where}: the HTML record may not refer to {_short(url)}: only data: URIs and #fragments"
            )
