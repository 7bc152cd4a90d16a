"""Shared fixtures: the book's tables, loaded once."""

from __future__ import annotations

import pytest

from chargen.tables import Tables, load_tables


@pytest.fixture(scope="session")
def tables() -> Tables:
    return load_tables()
