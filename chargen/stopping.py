"""One signal policy for every command: SIGINT, SIGTERM and SIGHUP stop the run the same way.

The signal becomes an exception in the main process (`Stopped`; KeyboardInterrupt for SIGINT), so the
code that was running removes its temporaries on the way out (every output is staged; see
chargen.output), worker pools are torn down, and the command line prints one line and exits with
128 + the signal's number. Worker processes leave the
decision to their parent: they ignore Ctrl-C (which the terminal sends to the whole process group), and
die with their parent if it dies first.
"""

from __future__ import annotations

import os
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


def install() -> Handlers:
    """In the main process: SIGTERM and SIGHUP raise Stopped. Returns the handlers it replaced (none
    outside the main thread, where Python allows no handler)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    # SIGINT keeps Python's own KeyboardInterrupt, which code below may catch as it always has; the
    # command line turns it into Stopped(SIGINT) on its way out (chargen.cli).
    return {signum: signal.signal(signum, _stop) for signum in STOPPING if signum != signal.SIGINT}


def restore(handlers: Handlers) -> None:
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def in_worker(parent: int) -> None:
    """In a worker process (a pool's initializer): the parent (pid `parent`) alone decides to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        # Die with the parent even if it is killed outright (SIGKILL), so no worker is ever orphaned.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    # A parent killed between the fork and the line above sent no signal: the worker has been handed to
    # another process already, so it leaves now rather than run on as an orphan.
    if os.getppid() != parent:
        os._exit(128 + signal.SIGTERM)
