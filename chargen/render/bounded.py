"""A GM's template, run where it cannot run away.

Two layers. The sandbox (`BoundedEnvironment`) refuses, with a clear message, the operators that build
huge values: `**` past MAX_INT_BITS, `*` and `+` past MAX_SIZE items or characters, `%` formatting with a
huge width. Intercepting `**` also stops Jinja folding `9**(9**9)` while it compiles. The sandbox cannot see
everything (`~` joins, filters such as `center`), so the render itself runs in a forked child process
(`run_bounded`, forked by chargen.processes) under limits it cannot lift: its address space (RLIMIT_AS,
MAX_MEMORY above what it started with) and CPU time (RLIMIT_CPU), and the parent kills it when
MAX_SECONDS of wall time have passed.
The template is compiled in the child too. Whatever happens there, the caller gets the page or one
RenderError line. Our own templates are trusted and rendered in-process.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import resource
import select
import signal
import stat
import time
from collections.abc import Callable, Sized
from pathlib import Path
from typing import Any

from jinja2.sandbox import SandboxedEnvironment

from chargen.render.errors import RenderError

#: A record's render budget: a page is a few hundred kB and takes milliseconds.
MAX_SECONDS = 1.5
MAX_PAGE_CHARACTERS = 10_000_000
#: The largest value the operators may build: characters of a string, items of a list.
MAX_SIZE = MAX_PAGE_CHARACTERS
#: The largest integer `**` may make (about 3,000 digits; Python prints at most 4,300).
MAX_INT_BITS = 10_000
#: The memory the render may take above what the process held when it forked.
MAX_MEMORY = 512 * 1024 * 1024
#: A template file larger than this is refused before it is read whole (ours are a few kB).
MAX_TEMPLATE_BYTES = 1024 * 1024
#: A `%` format's width or precision: a page line is never wider.
MAX_WIDTH = 10_000
_FORMAT_NUMBERS = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")


class TemplateBudgetError(RenderError):
    """A template tried to build a value, or a page, past the budget."""


def _check_power(left: Any, right: Any) -> None:
    whole = isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1
    if whole and left.bit_length() * right > MAX_INT_BITS:
        raise TemplateBudgetError(f"{_short(left)} ** {_short(right)} is too large a number")


def _check_size(operator: str, left: Any, right: Any) -> None:
    if operator == "*":
        for value, times in ((left, right), (right, left)):
            if isinstance(value, Sized) and isinstance(times, int) and len(value) * times > MAX_SIZE:
                raise TemplateBudgetError(f"a value repeated {_short(times)} times is too long")
    elif isinstance(left, Sized) and isinstance(right, Sized) and len(left) + len(right) > MAX_SIZE:
        raise TemplateBudgetError(f"a value longer than {MAX_SIZE:,} is too long")


def check_format(text: str) -> None:
    """`%` formatting's widths and precisions: `'%999999999s' % x` would be a gigabyte."""
    for match in _FORMAT_NUMBERS.finditer(text):
        for number in match.groups():
            if number == "*" or (number is not None and int(number) > MAX_WIDTH):
                raise TemplateBudgetError(f"a format width or precision over {MAX_WIDTH:,}")


def _short(value: Any) -> str:
    text = str(value) if not isinstance(value, int) or value.bit_length() < 200 else "a huge number"
    return text if len(text) <= 40 else text[:37] + "..."


class BoundedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, with the value-building operators checked before they run."""

    intercepted_binops = frozenset({"**", "*", "+", "%"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_format = self.filters["format"]

        def bounded_format(value: Any, *args: Any, **kwargs: Any) -> Any:
            check_format(str(value))
            return plain_format(value, *args, **kwargs)

        self.filters["format"] = bounded_format

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            _check_power(left, right)
        elif operator == "%" and isinstance(left, str):
            check_format(left)
        elif operator in ("*", "+"):
            _check_size(operator, left, right)
        return super().call_binop(context, operator, left, right)


def read_template(path: Path) -> str:
    """A GM's template file: a regular file (not /dev/zero, not a named pipe) of at most
    MAX_TEMPLATE_BYTES, in UTF-8."""
    try:
        # O_NONBLOCK: opening a named pipe does not wait for a writer; a regular file ignores it.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                raise RenderError(f"template {_path(path)}: not a regular file")
            data = os.read(handle, MAX_TEMPLATE_BYTES + 1)
        finally:
            os.close(handle)
        if len(data) > MAX_TEMPLATE_BYTES:
            raise RenderError(f"template {_path(path)}: larger than {MAX_TEMPLATE_BYTES // 1024} kB")
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise RenderError(f"cannot read template {_path(path)}: {reason}") from None


def _path(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:77] + "..."


def run_bounded(work: Callable[[], str], where: object) -> str:
    """`work()`'s page, made in a forked child under the memory, CPU and wall-clock limits; a
    RenderError (one line, about `where`) if it fails or runs past them."""
    from chargen import processes

    reader, writer = os.pipe()
    try:
        pid = processes.fork_call(lambda: _child(work, reader, writer))
    except BaseException:
        os.close(reader)
        raise
    finally:
        os.close(writer)
    done = False
    try:
        payload = _read_until(reader, time.monotonic() + MAX_SECONDS)
        if payload is None:
            raise RenderError(f"{where}: template stopped: it ran past {MAX_SECONDS:g} seconds")
        os.waitpid(pid, 0)
        done = True
        if not payload:  # killed by its limits (a signal) before it could say anything
            raise RenderError(f"{where}: template stopped: it ran past its memory or time budget")
        text = payload[1:].decode("utf-8", "surrogatepass")
        if payload[:1] != b"0":
            raise RenderError(text)
        return text
    finally:
        os.close(reader)
        if not done:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def _read_until(reader: int, deadline: float) -> bytes | None:
    """Everything the child writes until it closes the pipe; None past the deadline."""
    parts: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([reader], [], [], left)[0]:
            return None
        part = os.read(reader, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


def _child(work: Callable[[], str], reader: int, writer: int) -> None:
    """In the child: run `work` under the limits and send back b"0" + page or b"1" + message."""
    from chargen.checked_io import write_fully

    os.close(reader)
    _limit_self()
    try:
        payload = b"0" + work().encode("utf-8", "surrogatepass")
    except RenderError as error:
        payload = b"1" + str(error).encode("utf-8", "replace")
    except MemoryError:
        payload = b"1" + f"template stopped: it used more than {MAX_MEMORY >> 20} MB".encode()
    write_fully(writer, payload)


def _limit_self() -> None:
    """The child's address space may grow MAX_MEMORY past its size now; its CPU time is capped too, so
    a child left running (its parent killed outright) dies soon on its own."""
    import psutil  # here, in the child: nothing else of chargen needs it

    cpu = math.ceil(MAX_SECONDS) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    with contextlib.suppress(OSError, ValueError, psutil.Error):
        size = psutil.Process().memory_info().vms  # the address space the limit is counted against
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        soft = size + MAX_MEMORY if hard == resource.RLIM_INFINITY else min(size + MAX_MEMORY, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
