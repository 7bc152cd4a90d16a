"""Shared fixtures: the book's tables, loaded once; for the page's tests, one `chargen serve` and one
Chromium per test module.

Two tiers: `python -m pytest -m "not slow"` after every edit, `python -m pytest` for everything. A test is
slow by what it uses: a test that takes the `server` or `browser` fixture is marked here; one that starts
`chargen serve` or Chromium itself must carry the mark (tests/serve_support.py fails it otherwise); a
module of PDFs, processes or the docs' examples says so with `pytestmark = pytest.mark.slow`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chargen.tables import Tables, load_tables
from tests import serve_support
from tests.serve_support import Served, chromium, served

#: Fixtures that start a server or a browser: a test using one (directly or through another fixture) is slow.
SLOW_FIXTURES = frozenset({"server", "browser"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    serve_support.running = item  # before any fixture of the test starts a server or a browser


def pytest_runtest_teardown(item: pytest.Item) -> None:
    serve_support.running = None


@pytest.fixture(scope="session")
def tables() -> Tables:
    return load_tables()


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with served() as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched
