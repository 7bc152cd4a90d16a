"""Character files read on several threads at once, as `chargen serve`'s request threads do: under load
the page answered one of 40 PDFs with a 500, a KeyError from a YAML constructor the threads shared."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from chargen import api
from chargen.tables import Tables

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


@pytest.fixture
def eager_switching() -> Iterator[None]:
    """Threads switched as often as the interpreter can, so that what a busy machine does by chance,
    interleaving two readers mid-value, happens in every run."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_twelve_threads_read_one_file_at_once(tables: Tables, eager_switching: None) -> None:
    failures: list[BaseException] = []
    names: list[str] = []

    def read() -> None:
        for _ in range(10):
            try:
                names.append(api.build(ROLF, "rolf.yaml", tables=tables).name)
            except BaseException as error:  # the test reads it
                failures.append(error)

    threads = [threading.Thread(target=read) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert names == ["Rolf the Barbarian"] * 120
