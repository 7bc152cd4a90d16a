"""The Flask application of `chargen serve`: its safety rules, shared by every page, and its error pages.

Safe by default: a request for another host name (DNS rebinding) or a POST from another origin
is refused; request bodies and form parts are bounded; every response carries a Content-Security-Policy
that allows the page's own origin only; a ChargenError is the page's own message (422), any other failure
a short page without a traceback (the server logs one line and goes on).
"""

from __future__ import annotations

import sys

from flask import Flask, Response, g, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from chargen.errors import ChargenError
from chargen.web import files_pages, gm_pages, saved_pages, walk_pages
from chargen.web.context import COOKIE, Server, browser, page, server, shared
from chargen.web.jobs import RulesChoice
from chargen.web.limits import MAX_FORM_FIELDS, HostCheck, too_many_fields
from chargen.web.pool import Batches, Pool, TryAgain
from chargen.web.saved import Saved
from chargen.web.state import Store

__all__ = ["create_app", "shared"]

#: Largest request body: a character file or ruleset is at most 1,000,000 bytes (chargen.yamlio), plus
#: the form around it.
MAX_BODY = 1_100_000
#: How long the browser keeps its id unused (its walks are kept on disk for IDLE_DAYS unused).
COOKIE_DAYS = 365
#: The page's own policy: its origin only; no inline script or style, no plugins, no framing by others.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'self'"
)


def create_app(
    rules: RulesChoice | None = None, allowed_hosts: HostCheck | None = None, saved: Saved | None = None
) -> Flask:
    """The application; `rules` are the server's (--tables, --rules), a browser's until it picks others;
    `saved`: where walks are kept (the user's data folder unless given)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        MAX_FORM_PARTS=MAX_FORM_FIELDS,
        TEMPLATES_AUTO_RELOAD=False,
    )
    batches = Batches()
    app.extensions["chargen"] = Server(
        Store(rules or RulesChoice(), on_drop=lambda job: gm_pages.drop(batches, job), saved=saved),
        Pool(),
        batches,
        allowed_hosts,
    )
    app.before_request(_checked_request)
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ChargenError, _chargen_error)
    app.register_error_handler(Exception, _unexpected)
    app.add_url_rule("/", "home", lambda: page("home.html", steps=len(browser().answers)))
    for blueprint in (walk_pages.pages, saved_pages.pages, files_pages.pages, gm_pages.pages):
        app.register_blueprint(blueprint)
    return app


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
    if not request.path.startswith("/static/"):  # a response that says it may be kept (a font) is kept
        response.headers.setdefault("Cache-Control", "no-store")
    if g.get("browser_key"):  # set, or renewed on use: a walk outlives the browser (a year unused)
        response.set_cookie(
            COOKIE, g.browser_key, max_age=COOKIE_DAYS * 86400, httponly=True, samesite="Strict", path="/"
        )
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
    status = 503 if isinstance(error, TryAgain) else 422
    return _refused(status, " ".join(str(error).split()))


def _unexpected(error: Exception) -> Response:
    # A bug of chargen's: one line in the server's log, a short page for the browser, and the server goes on.
    print(f"chargen serve: {request.method} {request.path}: {type(error).__name__}", file=sys.stderr)
    return _refused(500, "Something went wrong on chargen's side; the page was not made. Try again.")
