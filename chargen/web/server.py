"""Serving the page: waitress (a production WSGI server, pure Python) on one address, the browser opened,
and a clean stop on Ctrl-C or SIGTERM (worker processes stopped, batch files deleted)."""

from __future__ import annotations

import errno
import logging
import threading
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chargen.errors import ChargenError, shown
from chargen.web.jobs import RulesChoice
from chargen.web.limits import HostCheck, host_check

if TYPE_CHECKING:
    from flask import Flask

LOCAL = ("127.0.0.1", "localhost", "::1")
#: Request threads: each waits on its own request (a PDF waits on a worker), so a few more than workers.
THREADS = 8
#: Open connections at once; more wait in the listen backlog until one closes.
CONNECTIONS = 100


def allowed_hosts(host: str, port: int) -> HostCheck:
    """The Host headers the page answers, for any address it listens on (chargen.web.limits)."""
    return host_check(host, port)


def reach(host: str, port: int) -> str:
    """Who can open the page, in one line."""
    if host in LOCAL:
        return "only this computer can open it"
    where = "every address of this machine" if host in ("0.0.0.0", "::", "") else host
    return f"anyone who can reach {where} on port {port} can open it and make characters, PDFs and batches"


def serve(
    rules: RulesChoice,
    host: str,
    port: int,
    *,
    browser: bool,
    echo: Callable[[str], None],
) -> None:
    """Serve until Ctrl-C; a busy port or bad address is a ChargenError (one line, exit 2)."""
    from chargen.web.app import create_app, shared

    rules.tables()  # the server's own rules checked before it listens
    # Requests waiting for a free thread is the bound at work (THREADS), not news for the terminal.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = create_app(rules)
    server = _listening(app, host, port)
    actual = int(server.effective_port)
    state = shared(app)
    state.allowed_hosts = allowed_hosts(host, actual)  # before the first request is read
    named = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else named}:{actual}/"
    echo(f"chargen serve: {url} ({reach(host, actual)}; Ctrl-C stops it)")
    if browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        state.close()
    echo("chargen serve: stopped")


def _listening(app: Flask, host: str, port: int) -> Any:  # waitress has no type hints
    """waitress's server for `app`, bound to host:port; a busy port or bad address is a ChargenError."""
    import waitress

    from chargen.web.app import MAX_BODY

    try:
        return waitress.create_server(
            app,
            host=host,
            port=port,
            threads=THREADS,
            connection_limit=CONNECTIONS,
            # a body past Flask's MAX_BODY gets the page's own 413; past this, waitress closes the connection
            max_request_body_size=4 * MAX_BODY,
            ident="chargen",
            clear_untrusted_proxy_headers=True,
        )
    except OSError as error:
        reason = "is in use; give another with --port" if error.errno == errno.EADDRINUSE else error.strerror
        raise ChargenError(f"serve: {host[:60]}:{port} {reason}") from None
    except ValueError:  # waitress: not a host name or address at all
        raise ChargenError(f"serve: --host {shown(host)} is not an address to listen on") from None
