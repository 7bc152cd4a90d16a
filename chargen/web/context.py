"""What every page of `chargen serve` uses: the server's shared parts, this request's browser state, and the
responses the pages give (a page, a record in the page's frame, a download). The page modules import this,
and the application (chargen.web.app) imports them, so no two import each other."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, current_app, g, render_template, request

from chargen.web.limits import HostCheck
from chargen.web.pool import Batches, Pool
from chargen.web.state import Browser, Job, Store

COOKIE = "chargen_browser"
#: The Character Record's own policy (templates/record.html.j2): its inline styles and data: fonts (or,
#: in the walk's preview, the fonts of this server), and nothing else; shown in a frame of the page only.
RECORD_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; font-src data: 'self'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
)


@dataclass
class Server:
    """What the pages share: the browsers' states and the worker processes."""

    store: Store
    pool: Pool
    batches: Batches
    allowed_hosts: HostCheck | None  # None: any (the test client's; `serve` always sets one)

    def close(self) -> None:
        self.batches.close()
        self.store.close()
        self.pool.close()


def shared(app: Flask) -> Server:
    """What the application's pages share (the server closes it when it stops)."""
    found: Server = app.extensions["chargen"]
    return found


def server() -> Server:
    return shared(current_app)


def browser() -> Browser:
    """This browser's state (a new one, with a new cookie, when it has none the server knows)."""
    if "browser" not in g:
        keep = request.method == "POST"
        key, state = server().store.get(request.cookies.get(COOKIE), keep=keep)
        g.browser, g.browser_key = state, key if keep or key == request.cookies.get(COOKIE) else None
    found: Browser = g.browser
    return found


def page(template: str, status: int = 200, **context: Any) -> Response:
    body = render_template(template, chosen_rules=browser().rules.names, **context)
    return Response(body, status=status, mimetype="text/html")


def record_response(html: str) -> Response:
    """A Character Record (or roster) in the page's frame, under the record's own policy."""
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = RECORD_POLICY
    return response


def download(data: bytes | str, name: str, mimetype: str) -> Response:
    """A file to save under `name` (chargen.names.file_name's, letters of any script kept: RFC 6266's
    filename* carries them, with a plain ASCII name beside it for an old browser)."""
    body = data.encode("utf-8") if isinstance(data, str) else data
    response = Response(body, mimetype=mimetype)
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").replace('"', "")
    response.headers["Content-Disposition"] = (
        f"attachment; filename=\"{plain or 'character'}\"; filename*=UTF-8''{quote(name, safe='')}"
    )
    return response


def find_job(key: str) -> Job | None:
    return next((job for job in browser().jobs if job.key == key), None)
