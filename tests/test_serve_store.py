"""The store of `chargen serve`'s walks (chargen.web.saved and chargen.web.state): the files written
compactly with each upload once, uploads held once in memory whatever way they came, every browser
counted whether made here or read back, eviction by what a browser holds, and each bound at its edge."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from chargen.errors import ChargenError
from chargen.web import saved as saved_module
from chargen.web import state as state_module
from chargen.web.jobs import RulesChoice
from chargen.web.saved import (
    IDLE_DAYS,
    MAX_ANSWERS,
    MAX_ASIDE,
    MAX_ENTRY,
    MAX_SAVED,
    Kept,
    KeptWalks,
    Saved,
)
from chargen.web.state import MAX_BROWSERS, Store


def _ruleset(number: int, padding: int = 0) -> str:
    return (
        f"# house rules {number}{'.' * padding}\n"
        f"change:\n  combat:\n    stun:\n      endurance_divisor: {number % 5 + 2}\n"
    )


def _walk(answers: list[str], text: str | None = None) -> Kept:
    uploaded = (("house", text),) if text is not None else ()
    return Kept(7, RulesChoice(uploaded=uploaded), answers)


def _file(folder: Path, key: str) -> Path:
    return Saved(folder)._path(key)


def test_a_walk_file_is_compact_and_names_its_upload_once(tmp_path: Path) -> None:
    saved = Saved(tmp_path)
    text = _ruleset(1)
    walks = KeptWalks(_walk(["fighter", "Ælfwine 𠀋"], text), [_walk(["thief"], text), _walk(["elf"], text)])
    assert saved.save("me", walks) is None
    written = _file(tmp_path, "me").read_text(encoding="utf-8")
    assert "𠀋" in written and "\\u" not in written and ", " not in written  # UTF-8, no spaces
    assert text not in written  # the ruleset is in uploads/, once for the three walks
    assert [path.read_text(encoding="utf-8") for path in (tmp_path / "uploads").iterdir()] == [text]
    again = saved.load("me")
    assert again == walks
    assert again is not None and again.walk.rules.uploaded[0][1] is again.aside[1].rules.uploaded[0][1]


def test_a_walk_file_of_the_first_version_is_read_back(tmp_path: Path) -> None:
    walk = {
        "seed": 7,
        "rules": {"directory": None, "named": [], "uploaded": [["h", "x: 1"]]},
        "answers": ["a"],
    }
    path = _file(tmp_path, "old")
    path.write_text(json.dumps({"version": 1, "walk": walk, "dropped": walk}), encoding="utf-8")
    loaded = Saved(tmp_path).load("old")
    assert loaded is not None and len(loaded.aside) == 1
    assert loaded.walk.rules.uploaded == (("h", "x: 1"),)


def test_an_upload_changed_or_named_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    saved = Saved(tmp_path)
    saved.save("me", KeptWalks(_walk(["fighter"], _ruleset(1))))
    (upload,) = (tmp_path / "uploads").iterdir()
    upload.write_text(_ruleset(2), encoding="utf-8")
    assert saved.load("me") is None  # a new walk, never another ruleset under the old one's name


@pytest.mark.parametrize(
    ("answers", "kept"),
    [
        (["x"] * MAX_ANSWERS, True),
        (["x"] * (MAX_ANSWERS + 1), False),
        (["x" * MAX_ENTRY], True),
        (["x" * (MAX_ENTRY + 1)], False),
    ],
)
def test_a_walk_file_is_read_within_its_bounds(tmp_path: Path, answers: list[str], kept: bool) -> None:
    saved = Saved(tmp_path)
    assert saved.save("me", KeptWalks(_walk(answers))) is None
    assert (saved.load("me") is not None) is kept


@pytest.mark.parametrize(("aside", "kept"), [(MAX_ASIDE, True), (MAX_ASIDE + 1, False)])
def test_the_walks_put_aside_are_read_within_their_bound(tmp_path: Path, aside: int, kept: bool) -> None:
    saved = Saved(tmp_path)
    assert saved.save("me", KeptWalks(_walk(["a"]), [_walk([str(n)]) for n in range(aside)])) is None
    assert (saved.load("me") is not None) is kept


def test_one_walk_more_than_the_bound_is_refused_not_a_walk_lost(tmp_path: Path) -> None:
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    _, browser = store.get(None)
    for number in range(MAX_ASIDE):
        browser.answers.append(f"walk {number}")
        browser.replace_walk(_walk([]))
    assert len(browser.walks.aside) == MAX_ASIDE  # the last allowed
    browser.answers.append("one more")
    with pytest.raises(ChargenError, match=f"{MAX_ASIDE} characters are put aside"):
        browser.replace_walk(_walk([]))
    assert browser.answers == ["one more"] and len(browser.walks.aside) == MAX_ASIDE


def _fill(folder: Path, count: int, *, age_days: float) -> None:
    stamp = time.time() - age_days * 86400
    for number in range(count):
        path = folder / f"{number:040x}.json"
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (stamp, stamp))


def test_the_folder_keeps_max_saved_walks_and_refuses_the_next(tmp_path: Path) -> None:
    saved = Saved(tmp_path)
    _fill(tmp_path, MAX_SAVED - 1, age_days=IDLE_DAYS - 1)
    assert saved.save("last allowed", KeptWalks(_walk(["a"]))) is None
    assert "full" in (saved.save("next", KeptWalks(_walk(["a"]))) or "")
    assert saved.save("last allowed", KeptWalks(_walk(["a", "b"]))) is None  # a walk kept stays kept


@pytest.mark.parametrize(("age_days", "forgotten"), [(IDLE_DAYS - 0.01, False), (IDLE_DAYS + 0.01, True)])
def test_a_walk_unused_past_idle_days_makes_room(tmp_path: Path, age_days: float, forgotten: bool) -> None:
    saved = Saved(tmp_path)
    _fill(tmp_path, MAX_SAVED, age_days=age_days)
    assert (saved.save("new", KeptWalks(_walk(["a"]))) is None) is forgotten


def _restarted(folder: Path, keys: list[str]) -> Store:
    store = Store(RulesChoice(), saved=Saved(folder))
    for key in keys:
        assert store.get(key, keep=False)[0] == key
    return store


def test_two_browsers_sharing_an_upload_share_it_after_a_restart(tmp_path: Path) -> None:
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    keys = []
    for _ in range(2):
        key, browser = store.get(None)
        browser.answers.append("fighter")
        store.choose_rules(browser, RulesChoice(uploaded=(("house", _ruleset(3)),)))
        keys.append(key)
    again = _restarted(tmp_path, keys)
    first, second = (again.get(key)[1] for key in keys)
    assert first.rules.uploaded[0][1] is second.rules.uploaded[0][1]
    answers = sum(
        sys.getsizeof(text)
        for browser in (first, second)
        for kept in browser.walks.all()
        for text in kept.answers
    )
    assert again.held() == sys.getsizeof(_ruleset(3)) + answers  # the text counted once


def test_browsers_read_back_are_trimmed_to_max_browsers(tmp_path: Path) -> None:
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    keys = []
    for _ in range(MAX_BROWSERS + 1):
        key, browser = store.get(None)
        store.save(browser)
        keys.append(key)
    again = _restarted(tmp_path, keys[:MAX_BROWSERS])
    assert len(again._browsers) == MAX_BROWSERS and keys[0] in again._browsers  # the last allowed
    again.get(keys[-1], keep=False)
    assert len(again._browsers) == MAX_BROWSERS and keys[0] not in again._browsers  # the next: oldest goes


def test_browsers_read_back_are_counted_against_the_bound(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(state_module, "MAX_HELD", 3 * (sys.getsizeof(_ruleset(10)) + sys.getsizeof("a")))
    saved = Saved(tmp_path)
    keys = [f"browser {number}" for number in range(10, 16)]
    for number, key in enumerate(keys, 10):
        saved.save(key, KeptWalks(_walk(["a"], _ruleset(number))))
    again = _restarted(tmp_path, keys)
    assert again.held() <= state_module.MAX_HELD and len(again._browsers) == 3


def test_the_bound_lets_go_the_largest_first_never_one_holding_nothing(
    tmp_path: Path, monkeypatch: Any
) -> None:
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    plain = [store.get(None)[0] for _ in range(20)]  # players holding no upload, no opened file
    small, large = store.get(None)[1], store.get(None)[1]
    store.choose_rules(small, RulesChoice(uploaded=(("small", _ruleset(1)),)))
    store.choose_rules(large, RulesChoice(uploaded=(("large", _ruleset(2, padding=500)),)))
    monkeypatch.setattr(state_module, "MAX_HELD", store.held())
    store.save(small)  # the last allowed: nobody goes
    assert len(store._browsers) == 22
    _, newcomer = store.get(None)
    store.choose_rules(newcomer, RulesChoice(uploaded=(("new", _ruleset(3)),)))  # the next: one goes
    assert large.key not in store._browsers and small.key in store._browsers
    assert all(key in store._browsers for key in plain)
    monkeypatch.setattr(state_module, "MAX_HELD", 0)  # more than all others hold: all that hold go
    store.save(newcomer)
    assert small.key not in store._browsers and all(key in store._browsers for key in plain)


def test_a_failed_save_leaves_no_partial_file_and_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "walks"
    folder.mkdir()
    saved = Saved(folder)
    blocked = saved._path("me")
    blocked.mkdir()  # a folder where the walk's file goes: the rename fails after the write
    reason = saved.save("me", KeptWalks(_walk(["fighter"])))
    assert reason and "directory" in reason.lower()
    assert [path.name for path in folder.iterdir() if path.name.endswith(".part")] == []


def test_partial_files_are_removed_at_start_and_uploads_no_walk_names(tmp_path: Path) -> None:
    saved = Saved(tmp_path)
    saved.save("me", KeptWalks(_walk(["fighter"], _ruleset(1))))
    saved.save("you", KeptWalks(_walk(["thief"], _ruleset(2))))
    _file(tmp_path, "you").unlink()
    left = tmp_path / f".{_file(tmp_path, 'me').name}.99999.part"
    left.write_text('{"version"', encoding="utf-8")
    assert saved.prepare() is None
    assert not left.exists()
    assert [path.read_text(encoding="utf-8") for path in (tmp_path / "uploads").iterdir()] == [_ruleset(1)]
    assert saved.load("me") is not None


def test_a_data_folder_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    unkept = Saved(tmp_path / "file" / "walks").prepare()
    assert unkept is not None and str(tmp_path / "file" / "walks") in unkept


def test_the_bounds_are_those_the_docs_state() -> None:
    hardening = (Path(__file__).parents[1] / "docs" / "hardening.md").read_text(encoding="utf-8")
    for bound in (
        f"{MAX_SAVED:,} walks",
        f"{IDLE_DAYS} days",
        f"{MAX_ANSWERS} answers",
        f"{MAX_ENTRY} characters",
        f"{MAX_ASIDE} walks put aside",
        f"{MAX_BROWSERS} browsers",
        f"{state_module.MAX_HELD // 1_000_000} MB of memory",
    ):
        assert bound in hardening, bound
    assert saved_module.MAX_SAVED == MAX_SAVED
