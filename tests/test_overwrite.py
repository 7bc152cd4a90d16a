"""One overwrite policy for every command and one checked write path.

An existing file is replaced only with --force, checked again at the moment the file moves into place (a
file made meanwhile, or by a second run, is never replaced), and a replaced file keeps its mode. Every
byte, standard output's too, goes through one path that writes a short write again: a truncated output is
an error, a closed standard output one line, a reader gone silence and 141."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from chargen import output
from chargen.batch import BatchOptions, run_batch
from chargen.cli import main
from chargen.errors import ChargenError
from tests.test_output_paths import ROOT, chargen, refused

pytestmark = pytest.mark.slow  # chargen in a process for each case

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")

COMMANDS = {
    "roll": (["roll", "--seed", "1", "-o", "out.yaml"], "out.yaml"),
    "roll-html": (["roll", "--seed", "1", "--html", "out.html"], "out.html"),
    "roll-statblock": (["roll", "--seed", "1", "--statblock", "out.md"], "out.md"),
    "build": (["build", "rolf.yaml", "-o", "out.yaml"], "out.yaml"),
    "advance": (["advance", "rolf.yaml", "--award", "5", "-o", "out.yaml"], "out.yaml"),
    "render": (["render", "rolf.yaml", "--html", "out.html"], "out.html"),
    "batch": (["batch", "-n", "2", "--seed", "1", "--jsonl", "out.jsonl", "-q"], "out.jsonl"),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_existing_file_is_replaced_only_with_force_keeping_its_mode(tmp_path: Path, name: str) -> None:
    command, target = COMMANDS[name]
    (tmp_path / "rolf.yaml").write_text(ROLF, encoding="utf-8")
    (tmp_path / target).write_text("mine\n")
    os.chmod(tmp_path / target, 0o640)
    refused(chargen(command, tmp_path), f"{target} exists; use --force to replace it")
    assert (tmp_path / target).read_text() == "mine\n"
    result = chargen([*command, "--force"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / target).read_text() != "mine\n"
    assert stat.S_IMODE((tmp_path / target).stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted({"rolf.yaml", target})


def test_a_read_only_file_is_not_replaced_without_force(tmp_path: Path) -> None:
    (tmp_path / "out.yaml").write_text("mine\n")
    os.chmod(tmp_path / "out.yaml", 0o444)
    refused(chargen(["roll", "--seed", "1", "-o", "out.yaml"], tmp_path), "out.yaml exists")
    assert (tmp_path / "out.yaml").read_text() == "mine\n"
    assert chargen(["roll", "--seed", "1", "-o", "out.yaml", "--force"], tmp_path).returncode == 0
    assert stat.S_IMODE((tmp_path / "out.yaml").stat().st_mode) == 0o444


def test_a_file_made_while_a_batch_runs_is_not_replaced(tmp_path: Path) -> None:
    """The check at the start passes; the file appears before the commit; the commit refuses it."""
    target = tmp_path / "out.jsonl"

    def make_it(done: int) -> None:
        if not target.exists():
            target.write_text("made meanwhile\n")

    options = BatchOptions(count=4, seed=1, jsonl=str(target), jobs=1)
    with pytest.raises(ChargenError, match=r"out\.jsonl exists; use --force"):
        run_batch(options, progress=make_it)
    assert target.read_text() == "made meanwhile\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.jsonl"]


WRITERS = {
    **{name: command for name, command in COMMANDS.items() if name != "batch"},
    "export": (["export", "rolf.yaml", "--to", "foundry", "-o", "out.json"], "out.json"),
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_file_made_after_the_early_check_is_not_replaced_by_any_command(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As for the batch: the early check passes, the file appears before the commit, the commit refuses
    it; for every command that writes (`new` writes through the same chargen.output.write_all)."""
    command, target = WRITERS[name]
    (tmp_path / "rolf.yaml").write_text(ROLF, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commit = output.commit_all

    def made_meanwhile(staged: Any) -> None:
        (tmp_path / target).write_text("made meanwhile\n")
        commit(staged)

    monkeypatch.setattr(output, "commit_all", made_meanwhile)
    with pytest.raises(SystemExit) as exit_info:
        main(command)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == f"chargen: error: {target} exists; use --force to replace it\n"
    assert (tmp_path / target).read_text() == "made meanwhile\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted({"rolf.yaml", target})


def test_two_runs_on_one_path_the_second_fails(tmp_path: Path) -> None:
    """Both pass the early check; whichever commits second finds the name taken and fails."""
    results: list[BaseException | None] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        def wait(done: int) -> None:
            barrier.wait(timeout=30)

        try:
            run_batch(BatchOptions(count=2, seed=1, jsonl=str(tmp_path / "x.jsonl"), jobs=1), progress=wait)
            results.append(None)
        except ChargenError as error:
            results.append(error)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(str(result) for result in results if result) == [
        f"{tmp_path / 'x.jsonl'} exists; use --force to replace it"
    ]
    assert results.count(None) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["x.jsonl"]


def shell(command: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


@pytest.mark.parametrize("arguments", ["roll --seed 1", "--help", "batch -n 2 --jsonl - -q"])
def test_a_closed_standard_output_is_one_line(tmp_path: Path, arguments: str) -> None:
    result = shell(f"{sys.executable} -m chargen {arguments} >&-", tmp_path)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "chargen: error: standard output is closed; send it somewhere, e.g. >/dev/null\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_gone_is_silence_and_141(tmp_path: Path, unbuffered: str) -> None:
    """The record is 600 kB: the first write is cut short when head leaves, and the rest must fail, not be
    dropped (Python's unbuffered standard output dropped it, and chargen exited 0)."""
    command = (
        f"{sys.executable} -m chargen roll --seed 1 --html - | head -c 10 >/dev/null; echo ${{PIPESTATUS[0]}}"
    )
    result = shell(command, tmp_path, PYTHONUNBUFFERED=unbuffered)
    assert (result.stderr, result.stdout) == (b"", b"141\n")


def limit_file_size() -> None:
    """A disk that fills after 20,480 bytes: a write past it is cut short, the next one fails (EFBIG)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (20480, 20480))


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_short_write_to_standard_output_is_an_error(tmp_path: Path, unbuffered: str) -> None:
    with open(tmp_path / "x.html", "wb") as out:
        result = subprocess.run(
            [sys.executable, "-m", "chargen", "roll", "--seed", "1", "--html", "-"],
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=limit_file_size,
            timeout=120,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": unbuffered},
        )
    assert result.returncode == 2
    assert result.stderr.decode() == "chargen: error: cannot write standard output (File too large)\n"


def test_a_pdf_whose_fonts_cannot_be_written_names_the_temporary_folder(tmp_path: Path) -> None:
    """WeasyPrint writes the record's fonts to the temporary folder: a full disk there is told as that,
    not as standard output's failure."""
    result = subprocess.run(
        [sys.executable, "-m", "chargen", "roll", "--seed", "1", "--pdf", str(tmp_path / "x.pdf")],
        capture_output=True,
        preexec_fn=limit_file_size,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)},
    )
    assert (result.returncode, os.listdir(tmp_path)) == (2, [])
    assert result.stderr.decode() == (
        f"chargen: error: cannot write the record's fonts to {tmp_path} (File too large)\n"
    )


def test_a_short_write_is_written_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel may take part of a write (a pipe, a disk nearly full): the rest is written, not lost."""
    from chargen import checked_io as output

    reader, writer = os.pipe()
    real_write = os.write
    calls: list[int] = []

    def short_write(fd: int, data: bytes | memoryview) -> int:
        calls.append(fd)
        return real_write(fd, bytes(data)[:7])

    monkeypatch.setattr(os, "write", short_write)
    try:
        stream = output.checked_stream(writer, closefd=False)
        stream.write(b"x" * 100)
        stream.flush()
        output.write_fully(writer, b"y" * 30)
    finally:
        monkeypatch.undo()
        os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        assert pipe.read() == b"x" * 100 + b"y" * 30
    assert len(calls) == 15 + 5


@pytest.mark.parametrize("option", ["--jsonl", "--csv", "--statblock"])
def test_a_failing_batch_file_is_named(tmp_path: Path, option: str) -> None:
    result = chargen(["batch", "-n", "3", option, "/dev/full", "-q"], tmp_path)
    refused(result, "/dev/full: cannot write (No space left on device)")


@pytest.mark.parametrize(
    ("option", "name"), [("--jsonl", "x.jsonl"), ("--csv", "x.csv"), ("--statblock", "x.md")]
)
def test_a_batch_file_that_fills_the_disk_is_named(tmp_path: Path, option: str, name: str) -> None:
    """Reported as "cannot write standard output" before: the file's own name now, and nothing left."""
    result = subprocess.run(
        [sys.executable, "-m", "chargen", "batch", "-n", "300", "-j", "1", option, name, "-q"],
        cwd=tmp_path,
        capture_output=True,
        preexec_fn=limit_file_size,  # a resource limit, set in the child only
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    refused(result, f"{name}: cannot write (File too large)")
    assert list(tmp_path.iterdir()) == []
