"""Running `chargen serve` for the tests: a real server process on a free loopback port, and Debian's
Chromium driven by Playwright (no browser is downloaded). Without Chromium or Playwright the browser tests
skip, except on CI (CI=true), where that is a failure."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.processes import wait_until

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
_URL = re.compile(r"chargen serve: (http://\S+/) ")


@dataclass
class Served:
    """A running `chargen serve`: its address, its process, and what it printed on stderr."""

    url: str
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)

    def said(self, text: str, seconds: float = 60) -> str:
        """The next line the server prints that holds `text`, waited for (it prints its start-up news
        after its address, which is all `served` waits for); each line read kept in `log`."""
        found: list[str] = []

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.log.append(line.rstrip())
                if text in line:
                    found.append(line.rstrip())
                    return

        reader = threading.Thread(target=read, name="chargen-test-said", daemon=True)
        reader.start()
        reader.join(seconds)
        if not found:
            raise AssertionError(f"chargen serve did not say {text!r} within {seconds:g} s")
        return found[0]

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            # its stderr is not read: a worker left behind would keep it open
            raise AssertionError("chargen serve did not stop within 30 s of Ctrl-C") from None
        assert self.process.stderr is not None
        self.log.extend(self.process.stderr.read().splitlines())
        return self.process.returncode


#: The test running now (set by tests/conftest.py): one that starts a server or a browser must be in the
#: slow tier, so that the fast one stays fast whoever adds the test.
running: pytest.Item | None = None


def slow_only(what: str) -> None:
    if running is not None and running.get_closest_marker("slow") is None:
        pytest.fail(f"{running.nodeid} {what}: mark it @pytest.mark.slow (the fast tier starts none)")


@contextmanager
def served(*args: str, cwd: Path | None = None, data: Path | None = None) -> Iterator[Served]:
    """`chargen [args] serve --port 0 --no-browser`, until the block ends (then stopped by Ctrl-C). Its
    walks are kept under `data` (XDG_DATA_HOME), a folder of its own unless given (a restart reuses one)."""
    slow_only("starts `chargen serve`")
    with (
        tempfile.TemporaryDirectory(prefix="chargen-data-") as own,
        _served(args, cwd, data or Path(own)) as server,
    ):
        yield server


@contextmanager
def _served(args: tuple[str, ...], cwd: Path | None, data: Path) -> Iterator[Served]:
    command = [sys.executable, "-m", "chargen", *args, "serve", "--port", "0", "--no-browser"]
    environment = {**os.environ, "XDG_DATA_HOME": str(data)}
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, cwd=cwd, stdin=subprocess.DEVNULL, env=environment
    )
    assert process.stderr is not None
    first = process.stderr.readline()
    found = _URL.match(first)
    if found is None:
        process.kill()
        raise AssertionError(f"chargen serve did not start: {first!r} {process.stderr.read()!r}")
    server = Served(found.group(1), process, [first.rstrip()])
    try:
        yield server
    finally:
        server.stop()


def need_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright is not installed")
    if CHROMIUM is None:
        missing("Debian's chromium is not installed")


def missing(why: str) -> None:
    """Skip for want of a tool, except on CI (CI=true), which installs every one: there it fails."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}; CI installs it (.ci/run)")
    pytest.skip(why)


@contextmanager
def chromium() -> Iterator[Any]:
    """Playwright's Chromium: Debian's, headless, with nothing of its own on the network."""
    slow_only("starts Chromium")
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class Requests:
    """Every request a page makes, to show none leaves the server's address."""

    def __init__(self, page: Any) -> None:
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def outside(self, base: str) -> list[str]:
        return [
            url for url in self.urls if not url.startswith(base) and not url.startswith(("data:", "about:"))
        ]


def press(page: Any, name: str) -> None:
    """Press the button of that name and wait for the page it brings (every form of the page answers
    with a new page)."""
    with page.expect_navigation():
        page.get_by_role("button", name=name).click()


def wait_for(check: Any, seconds: float = 60) -> None:
    wait_until(check, "the condition", seconds)


def step(page: Any) -> str | None:
    """The step the new-character page shows (None: the walk is done)."""
    field = page.locator("form.answer input[name=step]")
    return field.get_attribute("value") if field.count() else None


def press_empty(page: Any) -> None:
    """The step's own button for an empty entry ("Roll the dice for me", "None", "Let chargen choose", ...)."""
    with page.expect_navigation():
        page.locator("form.answer button[value=empty]").click()


def type_entry(page: Any, text: str) -> None:
    """Type an entry in the step's text box (opening "Type it instead" where the step has controls)."""
    typed = page.locator("details.typed")
    if typed.count() and not typed.get_attribute("open"):
        typed.locator("summary").click()
    page.fill("#entry", text)
