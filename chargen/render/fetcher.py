"""What a record may load: the package's own templates and fonts, and data: URIs. Nothing else.

No network, and no local file outside the templates folder, whoever wrote the template. The rule lives
here as plain Python so it can be tested without WeasyPrint; `chargen.render.pdf` wraps it for WeasyPrint.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass
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
