"""Files are written aside and renamed into place; special files are written where they are."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from chargen.errors import ChargenError
from chargen.output import write_atomic


def test_writes_and_replaces_a_regular_file(tmp_path: Path) -> None:
    target = tmp_path / "hero.yaml"
    write_atomic(target, "first\n")
    with pytest.raises(ChargenError, match="exists; use --force"):
        write_atomic(target, b"second\n")
    assert target.read_text(encoding="utf-8") == "first\n"
    write_atomic(target, b"second\n", force=True)
    assert target.read_text(encoding="utf-8") == "second\n"
    assert [path.name for path in tmp_path.iterdir()] == ["hero.yaml"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_a_device_stays_a_device() -> None:
    write_atomic(Path(os.devnull), "nothing\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_named_pipe_is_written_through(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(pipe, "through\n")
        assert os.read(reader, 100) == b"through\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_an_unwritable_folder_is_a_chargen_error_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(ChargenError) as failure:
        write_atomic(tmp_path / "missing" / "hero.yaml", "x")
    assert "cannot write" in str(failure.value)
    assert list(tmp_path.iterdir()) == []
