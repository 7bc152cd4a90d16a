"""Every output path: special files, symbolic links, collisions,
all-or-nothing commits, standard output full or closed, `-`, and extensions that do not match."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.batch import BatchOptions, run_batch
from chargen.errors import ChargenError
from chargen.output import Journal, write_all

pytestmark = pytest.mark.slow  # chargen in a process for each case

ROOT = Path(__file__).parents[1]


def chargen(args: list[str], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "chargen", *args],
        cwd=cwd,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        **streams,
    )


def refused(result: subprocess.CompletedProcess[bytes], needle: str) -> None:
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("chargen: error: ") and needle in err, err


def test_force_writes_into_a_fifo_and_leaves_it_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "fakefifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        result = chargen(
            ["batch", "-n", "3", "--seed", "1", "--jsonl", "fakefifo", "--force", "-q"], tmp_path
        )
        assert result.returncode == 0, result.stderr
        assert os.read(reader, 1 << 20).count(b"\n") == 3
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fakefifo"]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
@pytest.mark.parametrize(
    "command", [["batch", "-n", "3", "--jsonl", "fakenull", "--force", "-q"], ["roll", "-o", "fakenull"]]
)
def test_a_device_stays_a_device(tmp_path: Path, command: list[str]) -> None:
    os.mknod(tmp_path / "fakenull", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = chargen(command, tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(tmp_path / "fakenull").st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fakenull"]


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "hero.yaml").write_text("old\n")
    (tmp_path / "link.yaml").symlink_to("real/hero.yaml")
    refused(chargen(["roll", "--seed", "1", "-o", "link.yaml"], tmp_path), "link.yaml exists; use --force")
    result = chargen(["roll", "--seed", "1", "-o", "link.yaml", "--force"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "link.yaml").is_symlink()
    assert (tmp_path / "real" / "hero.yaml").read_text().startswith("schema_version: 1\n")
    assert sorted(path.name for path in (tmp_path / "real").iterdir()) == ["hero.yaml"]


@pytest.mark.parametrize(
    ("command", "needle"),
    [
        (["roll", "-o", "same.out", "--pdf", "same.out"], "does not end in"),
        (["roll", "-o", "same.yaml", "--html", "link.html"], "both would write"),
        (
            ["batch", "-n", "2", "--roster", "r.pdf", "--pdf", "r.pdf"],
            "--pdf and --roster: both would write r.pdf",
        ),
        (["batch", "-n", "2", "--roster", "r.txt"], "--roster: r.txt does not end in .pdf or .html or .htm"),
        (["batch", "-n", "2", "--jsonl", "a.csv"], "--jsonl: a.csv does not end in"),
        (["roll", "--pdf", "hero.html"], "--pdf: hero.html does not end in .pdf"),
        (["roll", "-o", "-", "--pdf", "-"], "only one output can go to standard output"),
        (["batch", "-n", "2", "--out", "-"], "--out: a folder cannot be standard output"),
    ],
)
def test_outputs_that_collide_or_lie_are_refused(tmp_path: Path, command: list[str], needle: str) -> None:
    (tmp_path / "link.html").symlink_to("same.yaml")
    refused(chargen(command, tmp_path), needle)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.html"]


@pytest.mark.parametrize(("option", "start"), [("--pdf", b"%PDF-"), ("--html", b"<!DOCTYPE html>")])
def test_a_record_to_standard_output_writes_no_file_named_dash(
    tmp_path: Path, option: str, start: bytes
) -> None:
    result = chargen(["roll", "--seed", "1", option, "-", "-o", "hero.yaml"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(start)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hero.yaml"]


def test_a_folder_in_the_way_moves_nothing_in(tmp_path: Path) -> None:
    first = chargen(["batch", "-n", "3", "--seed", "5", "--out", "probe", "-q"], tmp_path)
    assert first.returncode == 0, first.stderr
    names = sorted(path.name for path in (tmp_path / "probe").iterdir())
    (tmp_path / "D").mkdir()
    (tmp_path / "D" / names[2]).mkdir()
    result = chargen(["batch", "-n", "3", "--seed", "5", "--out", "D", "--force", "-q"], tmp_path)
    refused(result, "is not a regular file")
    assert everything(tmp_path / "D") == [names[2]]


def everything(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_a_commit_that_fails_late_moves_back_what_it_had_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.jsonl").write_text("old\n")

    def fail(self: Journal, staged: Path, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "rename", fail)
    options = BatchOptions(
        count=3, seed=1, jsonl=str(tmp_path / "a.jsonl"), out=str(tmp_path / "nd"), force=True, jobs=1
    )
    with pytest.raises(ChargenError, match="No space left on device"):
        run_batch(options)
    assert (tmp_path / "a.jsonl").read_text() == "old\n"
    assert everything(tmp_path) == ["a.jsonl"]


def test_a_new_folder_moved_in_is_removed_when_a_later_output_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(self: Journal, staged: Path, target: Path, *, force: bool) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "place", fail)
    options = BatchOptions(count=2, seed=1, out=str(tmp_path / "nd"), roster=str(tmp_path / "r.html"), jobs=1)
    with pytest.raises(ChargenError, match="No space left on device"):
        run_batch(options)
    assert everything(tmp_path) == []


def test_write_all_is_all_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "keep.yaml").write_text("old\n")
    with pytest.raises(ChargenError):
        write_all([(str(tmp_path / "keep.yaml"), b"new\n"), (str(tmp_path / "missing" / "x.pdf"), b"x")])
    assert everything(tmp_path) == ["keep.yaml"]
    assert (tmp_path / "keep.yaml").read_text() == "old\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_one_line(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        result = chargen(["roll", "--seed", "1"], tmp_path, stdout=full)
    refused(result, "cannot write standard output (No space left on device)")


def test_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    command = f"{sys.executable} -m chargen batch -n 3000 --seed 1 --jsonl - -q -j 1 | head -c 10 >/dev/null"
    result = subprocess.run(
        ["bash", "-c", command + "; echo ${PIPESTATUS[0]}"],
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.stderr == b""
    assert result.stdout == b"141\n"
