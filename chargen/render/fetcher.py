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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
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


#: What an HTML record may load: nothing outside itself. Inline styles, and fonts and images as data: URIs;
#: no scripts, frames, connections or anything else (default-src). Every record and roster page carries it
#: (our templates write it; a GM's template gets it put first, `with_policy`), so no template can make a
#: reader's browser fetch, whatever it hides from `check_standalone`.
POLICY = "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:"
#: POLICY for a record whose fonts its own server gives (chargen serve's preview), and nothing else.
SERVED_FONTS_POLICY = POLICY.replace("font-src data:", "font-src 'self'")
POLICY_META = f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
_DOCTYPE = re.compile(r"\s*<!doctype[^>]*>", re.IGNORECASE)  # a doctype token ends at its first '>'

#: Attributes whose value a browser loads or follows.
_URL_ATTRIBUTES = {
    "src", "href", "srcset", "poster", "data", "action", "formaction", "background", "cite", "longdesc",
    "manifest", "ping", "codebase", "archive", "lowsrc", "dynsrc", "icon", "imagesrcset",
}  # fmt: skip
#: SVG animation elements, whose `to`/`from`/`values` may set an href.
_ANIMATIONS = {"set", "animate"}
#: CSS functions whose strings are URLs a browser may load (`url("…")`, `image-set("…" 1x)`, CSS Images 4's
#: `image("…")`); a bare `url(…)` is a token of its own.
_URL_FUNCTIONS = {"url", "src", "image", "image-set", "-webkit-image-set", "cross-fade", "-webkit-cross-fade"}


def with_policy(page: str) -> str:
    """The page with POLICY as its first element (after a doctype, which must stay first): whatever
    follows, the browser applies the policy to it."""
    doctype = _DOCTYPE.match(page)
    at = doctype.end() if doctype else 0
    return page[:at] + POLICY_META + page[at:]


def _self_contained(url: str) -> bool:
    url = url.strip()
    return url.startswith("#") or url[:5].lower() == "data:"


def _local(name: str) -> str:
    """An element's or attribute's name without its namespace (`{...xlink}href` is `href`)."""
    return name.rpartition("}")[2].lower()


def _references(page: str) -> list[str]:
    """Every URL the page refers to, as a browser's HTML parser reads it (tinyhtml5 follows the HTML
    standard's parsing, comments such as `<!-- --!>` included). A refresh is refused outright: no policy
    stops a page from replacing itself."""
    import tinyhtml5

    found: list[str] = []
    for element in tinyhtml5.parse(page).iter():
        if not isinstance(element.tag, str):  # a comment
            continue
        tag = _local(element.tag)
        attributes = {_local(name): value for name, value in element.attrib.items()}
        if tag == "meta" and attributes.get("http-equiv", "").strip().lower() == "refresh":
            raise RenderError(
                "the HTML record may not reload itself or go elsewhere (<meta http-equiv=refresh>)"
            )
        if tag == "style":
            found.extend(_css(element.text or ""))
        if tag in _ANIMATIONS and attributes.get("attributename", "").lower().endswith("href"):
            found.extend(attributes.get(name, "") for name in ("to", "from", "values"))
        for name, value in attributes.items():
            if name in _URL_ATTRIBUTES:
                srcset = name.endswith("srcset")
                found.extend(
                    [part.split()[0] for part in value.split(",") if part.split()] if srcset else [value]
                )
            elif name == "style":
                found.extend(_css(value))
            elif name == "srcdoc":
                found.extend(_references(value))
    return [url for url in found if url]


def _css(text: str) -> list[str]:
    """Every URL in CSS text (a stylesheet or a style attribute), read by tinycss2, the tokenizer WeasyPrint
    reads CSS with: escapes (`u\\72l(…)`) are read as a browser reads them, not as they are spelt."""
    import tinycss2

    found: list[str] = []
    _css_urls(tinycss2.parse_component_value_list(text), found, in_function=False)
    return found


def _css_urls(nodes: Iterable[Any], found: list[str], *, in_function: bool) -> None:
    importing = False
    for node in nodes:
        kind = node.type
        if kind == "url" or (kind == "string" and (in_function or importing)):
            found.append(node.value)
        elif kind == "function":
            _css_urls(node.arguments, found, in_function=node.lower_name in _URL_FUNCTIONS)
        elif kind in ("() block", "[] block", "{} block"):
            _css_urls(node.content, found, in_function=False)
        if kind not in ("whitespace", "comment"):
            importing = kind == "at-keyword" and node.lower_value == "import"


def check_standalone(page: str, where: str) -> None:
    """Refuse a standalone HTML page that refers to anything outside itself (a URL, a file): a clear early
    message for the usual mistakes. The defence is POLICY, which the browser enforces."""
    try:
        references = _references(page)
    except RenderError as error:
        raise RenderError(f"{where}: {error}") from None
    for url in references:
        if not _self_contained(url):
            raise RenderError(
                f"{where}: the HTML record may not refer to {_short(url)}: only data: URIs and #fragments"
            )


def check_fetches(page: str, where: str) -> None:
    """A GM template's PDF page, before WeasyPrint lays it out: a URL that leaves this computer is refused
    whether or not WeasyPrint would load it (it skips `image-set()`, which a browser opening the same
    template as HTML loads), in the words `fetch` refuses it with; files are left to `fetch`."""
    try:
        references = _references(page)
    except RenderError as error:
        raise RenderError(f"{where}: {error}") from None
    for url in references:
        parts = urlsplit(url.strip())
        if parts.scheme.lower() not in ("", "data", "file") or parts.netloc.lower() not in ("", "localhost"):
            raise RenderError(
                f"{where}: the record may not load {_short(url)}: only the package's templates and fonts"
            )
