"""Shared fixtures: the book's tables, loaded once; for the page's tests, one `chargen serve` and one
Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chargen.tables import Tables, load_tables
from tests.serve_support import Served, chromium, served


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
