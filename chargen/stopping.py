"""One signal policy for every command: SIGINT, SIGTERM and SIGHUP stop the run the same way.

The signal becomes an exception in the main process (`Stopped`; KeyboardInterrupt for SIGINT), so the
code that was running removes its temporaries on the way out (every output is staged; see
chargen.output), worker pools are torn down, and the command line prints one line and exits with
128 + the signal's number. Every process chargen starts (chargen.processes) leaves the decision to the
process that owns it: it ignores Ctrl-C (which the terminal sends to the whole process group), and dies
with its owner if the owner dies first, even killed outright.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
from types import FrameType
from typing import Any

STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PR_SET_PDEATHSIG = 1  # prctl(2) option: a signal this process gets when its parent dies


class Stopped(BaseException):
    """The run was stopped by a signal. A BaseException, like KeyboardInterrupt: nothing catches it by
    accident on its way out."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


Handlers = dict[int, Any]


def install(*, interrupt: bool = False) -> Handlers:
    """In the main process: SIGTERM and SIGHUP raise Stopped, and with `interrupt` SIGINT too. Returns
    the handlers it replaced (none outside the main thread, where Python allows no handler)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    # SIGINT keeps Python's own KeyboardInterrupt unless asked, which code below may catch as it always
    # has; the command line turns it into Stopped(SIGINT) on its way out (chargen.cli).
    return {
        signum: signal.signal(signum, _stop) for signum in STOPPING if interrupt or signum != signal.SIGINT
    }


def restore(handlers: Handlers) -> None:
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def in_worker(owner: int) -> None:
    """In every process chargen starts (chargen.processes): the owner (pid `owner`) alone decides to
    stop, and the process dies with it even if it is killed outright (SIGKILL), so none is orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if not sys.platform.startswith("linux"):
        return
    if os.getppid() == owner:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        # An owner killed between the fork and the line above sent no signal: the process has been
        # handed to another parent already, so it leaves now rather than run on as an orphan.
        if os.getppid() != owner:
            os._exit(128 + signal.SIGTERM)
    else:
        _watch(owner)


def _watch(owner: int) -> None:
    """A process a fork server started: its parent is the fork server, which lives as long as any of
    its children do, so the parent's death signal would never come. A thread waits on the owner itself
    (a pidfd: readable once the owner has ended) and ends the process with SIGTERM, as the death signal
    would."""
    try:
        watched = os.pidfd_open(owner)
    except ProcessLookupError:  # gone already
        os._exit(128 + signal.SIGTERM)
    except (AttributeError, OSError):  # a Linux older than 5.3: no pidfd
        return

    def wait() -> None:
        select.select([watched], [], [])
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="chargen-owner-watch", daemon=True).start()
