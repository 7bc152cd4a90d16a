"""The tables are loaded once per process and kept, so `api.roll()` in a loop is as fast as with the
tables passed in; a changed table file, another --tables folder or another --rules loads them again."""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import weakref
from pathlib import Path

import pytest

from chargen import api
from chargen.paths import tables_dir
from chargen.tables import Tables, loader
from chargen.tables.loader import load_tables
from chargen.tables.memo import forget, per_tables


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copied = tmp_path / "house"
    shutil.copytree(tables_dir(), copied)
    return copied


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The loader's clock, moved on by hand: `clock[0] += 2` is two seconds later."""
    now = [1000.0]
    monkeypatch.setattr(loader, "monotonic", lambda: now[0])
    return now


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_default_tables_are_loaded_once() -> None:
    tables = load_tables()
    assert load_tables() is tables and load_tables(tables_dir()) is tables
    assert api.roll(seed=5) == api.roll(seed=5, tables=tables)


def test_a_changed_table_file_is_read_again(folder: Path, clock: list[float]) -> None:
    first = load_tables(folder)
    assert load_tables(folder) is first
    edit(folder / "races.yaml", "experience_multiplier: 1.5", "experience_multiplier: 1.25")
    clock[0] += loader.RECHECK_SECONDS / 2
    assert load_tables(folder) is first  # looked at again only after RECHECK_SECONDS
    clock[0] += loader.RECHECK_SECONDS
    changed = load_tables(folder)
    assert changed is not first
    assert sorted(race.experience_multiplier for race in changed.races.values()) != sorted(
        race.experience_multiplier for race in first.races.values()
    )
    clock[0] += 2 * loader.RECHECK_SECONDS
    assert load_tables(folder) is changed  # unchanged since: kept


def test_a_file_rewritten_at_the_same_size_is_read_again_by_its_time(
    folder: Path, clock: list[float]
) -> None:
    first = load_tables(folder)
    path = folder / "weapons.yaml"
    stat = path.stat()
    path.write_bytes(path.read_bytes())
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    clock[0] += 2 * loader.RECHECK_SECONDS
    again = load_tables(folder)
    assert again is not first and again == first  # read again, the same tables


def test_a_broken_change_is_reported_and_the_fixed_file_read(folder: Path, clock: list[float]) -> None:
    from chargen.errors import TableError

    first = load_tables(folder)
    edit(folder / "races.yaml", "experience_multiplier: 1.5", "experience_multiplier: lots")
    clock[0] += 2 * loader.RECHECK_SECONDS
    with pytest.raises(TableError, match="experience_multiplier"):
        load_tables(folder)
    edit(folder / "races.yaml", "experience_multiplier: lots", "experience_multiplier: 1.5")
    clock[0] += 2 * loader.RECHECK_SECONDS
    assert load_tables(folder) == first


def test_another_folder_or_ruleset_is_other_tables(folder: Path, tmp_path: Path, clock: list[float]) -> None:
    book = load_tables()
    assert load_tables(folder) is not book
    house = load_tables(rules=["house-combat"])
    assert house is not book and house.rulesets and load_tables(rules=["house-combat"]) is house
    ruleset = tmp_path / "mine.yaml"
    ruleset.write_text(
        "change:\n  combat:\n    stun:\n      threshold: 'floor(endurance / endurance_divisor) + 2'\n",
        encoding="utf-8",
    )
    mine = load_tables(rules=[str(ruleset)])
    assert load_tables(rules=[str(ruleset)]) is mine
    ruleset.write_text(
        "change:\n  combat:\n    stun:\n      threshold: 'floor(endurance / endurance_divisor) + 3'\n",
        encoding="utf-8",
    )
    changed = load_tables(rules=[str(ruleset)])  # a ruleset is read at each load: its bytes are the key
    assert changed is not mine and changed.rulesets[0].digest != mine.rulesets[0].digest


def test_what_is_worked_out_from_tables_is_kept_with_them_and_goes_with_them() -> None:
    """chargen.tables.memo: a roll's memos live in the Tables it was made with (none in another Tables),
    and go when that Tables goes, at once: nothing else holds it."""
    book = load_tables()
    tables = dataclasses.replace(book)  # the same tables, a Tables of its own
    before = {function: dict(answers) for function, answers in book.memos.items()}
    character = api.roll(seed=5, tables=tables)
    assert tables.memos and {function: dict(answers) for function, answers in book.memos.items()} == before
    assert character == api.roll(seed=5, tables=book)
    kept = weakref.ref(tables)
    del tables
    assert kept() is None


def test_a_memo_keeps_at_most_its_size_for_each_tables() -> None:
    calls: list[int] = []

    @per_tables(2)
    def doubled(value: int, tables: Tables) -> int:
        calls.append(value)
        return 2 * value

    tables = dataclasses.replace(load_tables())
    assert [doubled(value, tables) for value in (1, 2, 1, 3, 1)] == [2, 4, 2, 6, 2]
    assert calls == [1, 2, 3, 1]  # the third value found the memo full: it started again
    assert len(tables.memos[doubled]) <= 2
    forget(tables)
    assert doubled(3, tables) == 6 and calls[-1] == 3


def test_tables_go_to_a_worker_without_their_memos() -> None:
    tables = dataclasses.replace(load_tables())
    rolled = api.roll(seed=5, tables=tables)
    sent = pickle.loads(pickle.dumps(tables))
    assert tables.memos and not sent.memos
    assert api.roll(seed=5, tables=sent) == rolled
