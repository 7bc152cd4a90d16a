"""A character file's lists are bounded by what a record prints (chargen.character_file.MAX_ENTRIES): a
small valid file of 60,000 one-letter notes (120 KB) is refused in one line at once, where 969dd75 took
85-108 s and 1.7 GB to make its PDF."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chargen import api
from chargen.errors import InputError
from chargen.tables import Tables
from chargen.vocabulary import MAX_ENTRIES

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


def _with_list(key: str, item: str, count: int) -> str:
    assert f"\n{key}:" not in ROLF
    return ROLF.rstrip("\n") + f"\n{key}:\n" + f"  - {item}\n" * count


def test_rolf_with_60000_notes_is_refused_in_one_line_at_once(tmp_path: Path) -> None:
    (tmp_path / "rolf.yaml").write_text(_with_list("notes", "a", 60_000), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "chargen", "render", "rolf.yaml", "--pdf", "rolf.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("chargen: error: rolf.yaml:")
    assert result.stderr.endswith(f": notes: has 60000 items; at most {MAX_ENTRIES} are allowed\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rolf.yaml"]


@pytest.mark.parametrize(
    ("key", "item"),
    [("notes", "a"), ("equipment", "{name: rope}"), ("languages", "{name: elvish, rank: 1}")],
)
def test_every_list_holds_at_most_max_entries(tables: Tables, key: str, item: str) -> None:
    with pytest.raises(InputError) as refused:
        api.build(_with_list(key, item, MAX_ENTRIES + 1), "rolf.yaml", tables=tables)
    assert f"{key}: has {MAX_ENTRIES + 1} items; at most {MAX_ENTRIES}" in str(refused.value)


def test_a_file_at_the_bound_is_read(tables: Tables) -> None:
    character = api.build(_with_list("notes", "a", MAX_ENTRIES), "rolf.yaml", tables=tables)
    assert character.notes.count("a") == MAX_ENTRIES


def _with_overrides(count: int) -> str:
    return (
        ROLF.rstrip("\n")
        + "\noverrides:\n"
        + "".join(f"  nothing_{index}: {{value: 3, reason: the GM says}}\n" for index in range(count))
    )


def test_overrides_past_max_entries_are_refused_in_one_line(tables: Tables) -> None:
    """A 1 MB file of 9,896 unknown override names printed 9,896 lines; on the page GET /open took 2-4.9 s."""
    with pytest.raises(InputError) as refused:
        api.build(_with_overrides(MAX_ENTRIES + 1), "rolf.yaml", tables=tables)
    assert refused.value.lines == [
        f"rolf.yaml:13:3: overrides: has {MAX_ENTRIES + 1} items; at most {MAX_ENTRIES} are allowed"
    ]


def test_overrides_at_max_entries_are_read_each(tables: Tables) -> None:
    with pytest.raises(InputError) as refused:
        api.build(_with_overrides(MAX_ENTRIES), "rolf.yaml", tables=tables)
    lines = refused.value.lines
    assert len(lines) == MAX_ENTRIES  # each name judged: past the bound's check, not stopped by it
    assert lines[-1] == (
        f"rolf.yaml:{12 + MAX_ENTRIES}:16: overrides.nothing_{MAX_ENTRIES - 1}: is not a value chargen "
        "works out (`chargen explain FILE` lists them)"
    )
