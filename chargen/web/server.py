"""Serving the page: waitress (a production WSGI server, pure Python) on one address, the browser opened,
and a clean stop on Ctrl-C or SIGTERM within a few seconds whatever runs (worker processes ended, batch
files deleted, one line)."""

from __future__ import annotations

import errno
import logging
import multiprocessing.util
import os
import shutil
import tempfile
import threading
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chargen import processes, stopping
from chargen.errors import ChargenError, shown
from chargen.web.jobs import RulesChoice
from chargen.web.limits import HostCheck, host_check

if TYPE_CHECKING:
    from flask import Flask

    from chargen.web.context import Server

LOCAL = ("127.0.0.1", "localhost", "::1")
#: Seconds a stopped server has to close its workers and batches (a GM's batch has
#: chargen.processes.JOB_GRACE of them to clean up) before it ends regardless.
STOP_SECONDS = 8.0
#: Request threads. A PDF's request waits on a worker for all of its time, and at most
#: chargen.web.pool.WAITING of them do: the other threads answer the page itself meanwhile.
THREADS = 16
#: Open connections at once; more wait in the listen backlog until one closes. Waitress reads a request
#: whole before a thread takes it, so a slow or idle connection costs a socket, not a thread.
CONNECTIONS = 1000
#: Seconds a connection may stay silent before it is closed (waitress's default is 120).
IDLE_SECONDS = 30


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
    _own_temporary_folder()
    # Requests waiting for a free thread is the bound at work (THREADS), not news for the terminal.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = create_app(rules)
    server = _listening(app, host, port)
    actual = int(server.effective_port)
    state = shared(app)
    state.allowed_hosts = allowed_hosts(host, actual)  # before the first request is read
    state.pool.start()
    named = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else named}:{actual}/"
    echo(f"chargen serve: {url} ({reach(host, actual)}; Ctrl-C stops it)")
    unkept = state.store.saved.prepare()
    if unkept is not None:
        echo(f"chargen serve: walks are kept in memory only: cannot write {unkept}")
    if browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    _run_until_stopped(server, state)
    echo("chargen serve: stopped")


def _own_temporary_folder() -> None:
    """Everything the server and its processes make in the temporary folder (batch files, the workers'
    scratch folders, multiprocessing's own) goes into one folder of its own, removed as the process
    ends (after multiprocessing removes its own folder in it), or at the next start if it is killed."""
    for kind in ("serve", "workers"):  # left by a server or batch killed outright
        processes.remove_left_folders(kind)
    tempfile.tempdir = processes.scratch_folder("serve")
    multiprocessing.util.Finalize(
        None, shutil.rmtree, args=(tempfile.tempdir,), kwargs={"ignore_errors": True}, exitpriority=-200
    )


def _run_until_stopped(server: Any, state: Server) -> None:
    """Serve until Ctrl-C, SIGTERM or SIGHUP, then end every worker and batch at once."""
    # Ctrl-C too becomes Stopped, which waitress does not catch (it waits 5 s for its request threads on
    # a KeyboardInterrupt, while they wait for the workers this function is about to end). Waitress's loop
    # runs in a thread of its own: in the main thread a signal that lands while the loop serves a
    # connection is swallowed by the loop's catch-all for that connection, and the server never stops.
    # The main thread only waits, so the signal's Stopped always reaches the code below.
    loop = threading.Thread(target=server.run, name="chargen-serve-loop", daemon=True)
    previous = stopping.install(interrupt=True)
    status = 1  # the status a normal stop ends with, for the last resort below
    try:
        loop.start()
        while loop.is_alive():
            loop.join(0.5)
    except stopping.Stopped:
        status = 0
    finally:
        _exit_unless_closed_within(STOP_SECONDS, status)
        # The workers ended, so a request waiting on one is answered at once. Waitress's server is not
        # closed: a request thread answering after it would write to its closed wake-up pipe ("Bad file
        # descriptor"); its sockets close with the process, which ends now.
        state.close()
        stopping.restore(previous)


def _exit_unless_closed_within(seconds: float, status: int) -> None:
    """A last resort: should closing the workers and batches, or the interpreter's own exit after it,
    hang (a worker the standard pool's shutdown waits for), the process ends after `seconds` anyway.
    Its processes die with it (chargen.processes), and a temporary folder left is removed at the next
    start."""
    timer = threading.Timer(seconds, os._exit, args=(status,))
    timer.daemon = True
    timer.start()


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
            channel_timeout=IDLE_SECONDS,
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
