"""The Flask application of `chargen serve`: its safety rules, shared by every page, and its error pages.

Safe by default: a request for another host name (DNS rebinding) or a POST from another origin
is refused; request bodies and form parts are bounded; every response carries a Content-Security-Policy
that allows the page's own origin only; a ChargenError is the page's own message (422), any other failure
a short page without a traceback (the server logs one line and goes on).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, g, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from chargen.errors import ChargenError
from chargen.web.jobs import RulesChoice
from chargen.web.limits import MAX_FORM_FIELDS, HostCheck, too_many_fields
from chargen.web.pool import Batches, Busy, Pool
from chargen.web.state import Browser, Job, Store

COOKIE = "chargen_browser"
#: Largest request body: a character file or ruleset is at most 1,000,000 bytes (chargen.yamlio), plus
#: the form around it.
MAX_BODY = 1_100_000
#: The page's own policy: its origin only; no inline script or style, no plugins, no framing by others.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'self'"
)
#: The Character Record's own policy (templates/record.html.j2): its inline styles and data: fonts,
#: and no origin at all; shown in a frame of the page only.
RECORD_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:; "
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


def create_app(rules: RulesChoice | None = None, allowed_hosts: HostCheck | None = None) -> Flask:
    """The application; `rules` are the server's (--tables, --rules), a browser's until it picks others."""
    from chargen.web import files_pages, gm_pages, walk_pages

    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        MAX_FORM_PARTS=MAX_FORM_FIELDS,
        TEMPLATES_AUTO_RELOAD=False,
    )
    batches = Batches()
    server = Server(
        Store(rules or RulesChoice(), on_drop=lambda job: gm_pages.drop(batches, job)),
        Pool(),
        batches,
        allowed_hosts,
    )
    app.extensions["chargen"] = server
    app.before_request(_checked_request)
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ChargenError, _chargen_error)
    app.register_error_handler(Exception, _unexpected)
    app.add_url_rule("/", "home", lambda: page("home.html"))
    walk_pages.register(app)
    files_pages.register(app)
    gm_pages.register(app)
    return app


def server() -> Server:
    from flask import current_app

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
    body = data.encode("utf-8") if isinstance(data, str) else data
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def find_job(key: str) -> Job | None:
    return next((job for job in browser().jobs if job.key == key), None)


def _checked_request() -> Response | None:
    allowed = server().allowed_hosts
    if allowed is not None and not allowed.allows(request.host):
        return _refused(400, "This page answers to its own address only (the one `chargen serve` printed).")
    if too_many_fields(request):
        return _http_error(RequestEntityTooLarge())
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        origin = request.headers.get("Origin")
        site = request.headers.get("Sec-Fetch-Site")
        if (origin is not None and origin != request.host_url.rstrip("/")) or site not in (
            None,
            "same-origin",
            "none",
        ):
            return _refused(
                403, "A form from another site was refused: chargen takes forms from its own page only."
            )
    return None


def _refused(status: int, message: str) -> Response:
    return Response(
        render_template("error.html", status=status, message=message, chosen_rules=[]),
        status=status,
        mimetype="text/html",
    )


def _headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    # same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with the page's own forms
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    if not request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
    if g.get("browser_key") and request.cookies.get(COOKIE) != g.browser_key:
        response.set_cookie(COOKIE, g.browser_key, httponly=True, samesite="Strict", path="/")
    return response


_MESSAGES = {
    400: "The request could not be read.",
    404: "There is no such page.",
    405: "That page does not take this kind of request.",
    413: f"That is too large: a request is at most {MAX_BODY:,} bytes (a character file or ruleset at most "
    f"1,000,000) and {MAX_FORM_FIELDS} form fields.",
}


def _http_error(error: HTTPException) -> Response:
    status = error.code or 400
    message = _MESSAGES.get(status, "The request was refused.")
    return _refused(status, message)


def _chargen_error(error: ChargenError) -> Response:
    status = 503 if isinstance(error, Busy) else 422
    return _refused(status, " ".join(str(error).split()))


def _unexpected(error: Exception) -> Response:
    # A bug of chargen's: one line in the server's log, a short page for the browser, and the server goes on.
    print(f"chargen serve: {request.method} {request.path}: {type(error).__name__}", file=sys.stderr)
    return _refused(500, "Something went wrong on chargen's side; the page was not made. Try again.")


Handler = Callable[..., Response]


def shared(app: Flask) -> Server:
    """What the application's pages share (the server closes it when it stops)."""
    found: Server = app.extensions["chargen"]
    return found
