"""A failed or interrupted batch leaves no file behind; the PDFs are whole and the same for any jobs."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from chargen import processes as pool
from chargen.batch import BatchOptions, run_batch, workers
from chargen.batch.npc import NpcOutput, Plan, make_output
from chargen.errors import ChargenError
from chargen.tables import Tables
from tests.processes import own_children, wait_until

pytestmark = pytest.mark.slow  # PDFs and worker processes


def all_outputs(folder: Path, **extra: Any) -> BatchOptions:
    return BatchOptions(
        count=100,  # with 2 jobs, in chunks of 12 (chargen.batch.workers.chunk_size): NPC 87 in a worker
        seed=4,
        jsonl=str(folder / "npcs.jsonl"),
        csv=str(folder / "npcs.csv"),
        out=str(folder / "village"),
        roster=str(folder / "roster.html"),
        **extra,
    )


# The failure is injected by patching the module; worker processes see the patch only when they are forked.
needs_fork = pytest.mark.skipif(
    pool.start_method() != "fork", reason="patched workers need the fork start method"
)


def failing_at(number: int, error: BaseException) -> Any:
    def make(plan: Plan, npc_number: int, tables: Tables) -> NpcOutput:
        if npc_number == number:
            raise error
        return make_output(plan, npc_number, tables)

    return make


def listing(folder: Path) -> dict[str, bytes]:
    # Hidden temporaries count too: none may be left.
    return {
        str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()
    } | {str(path.relative_to(folder)) + "/": b"" for path in folder.rglob("*") if path.is_dir()}


@needs_fork
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_npc_leaves_no_file(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    (tmp_path / "npcs.csv").write_text("the old roster\n")
    before = listing(tmp_path)
    # Forked workers inherit the patched module, so NPC 87 fails inside a worker when jobs=2.
    monkeypatch.setattr(
        workers, "make_output", failing_at(87, ChargenError("NPC 87: the dice fell off the table"))
    )
    with pytest.raises(ChargenError) as error:
        run_batch(all_outputs(tmp_path, jobs=jobs, force=True), tables=tables)
    assert "NPC 87" in str(error.value)
    assert listing(tmp_path) == before


@needs_fork
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupt_in_a_worker_leaves_no_file(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    (tmp_path / "village").mkdir()  # an existing, empty folder: staged inside it, so check it is left empty
    monkeypatch.setattr(workers, "make_output", failing_at(93, KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        run_batch(all_outputs(tmp_path, jobs=jobs), tables=tables)
    assert listing(tmp_path) == {"village/": b""}


def test_an_interrupt_while_writing_leaves_no_file(tmp_path: Path, tables: Tables) -> None:
    seen: list[int] = []

    def interrupt_after_some(done: int) -> None:
        seen.append(done)
        if sum(seen) >= 70:  # well into the run: chunks in flight in both workers
            raise KeyboardInterrupt

    before = own_children()
    with pytest.raises(KeyboardInterrupt):
        run_batch(all_outputs(tmp_path, jobs=2), tables=tables, progress=interrupt_after_some)
    assert sum(seen) >= 70
    assert listing(tmp_path) == {}
    assert own_children() == before  # the workers were ended and waited for


def test_a_failing_npc_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from chargen.cli import main

    monkeypatch.setattr(workers, "make_output", failing_at(3, ChargenError("NPC 3: broken")))
    with pytest.raises(SystemExit) as exit_info:
        main(["batch", "-n", "5", "-j", "1", "--jsonl", str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err == "chargen: error: NPC 3: broken\n"
    assert list(tmp_path.iterdir()) == []


def test_records_and_roster_pdfs_are_whole_and_the_same_for_any_jobs(tmp_path: Path, tables: Tables) -> None:
    made: dict[int, tuple[bytes, bytes]] = {}
    for jobs in (1, 2):
        folder = tmp_path / str(jobs)
        folder.mkdir()
        options = BatchOptions(
            count=3,
            seed=8,
            archetype="knight=1,thief=1",
            pdf=str(folder / "records.pdf"),
            roster=str(folder / "roster.pdf"),
            jsonl=str(folder / "npcs.jsonl"),
            jobs=jobs,
        )
        run_batch(options, tables=tables)
        made[jobs] = ((folder / "records.pdf").read_bytes(), (folder / "roster.pdf").read_bytes())
    assert made[1] == made[2]
    names = [
        re.search(r'"name":"([^"]+)"', line).group(1)  # type: ignore[union-attr]
        for line in (tmp_path / "1" / "npcs.jsonl").read_text().splitlines()
    ]
    records = PdfReader(io.BytesIO(made[1][0]))
    text = [page.extract_text() for page in records.pages]
    assert len(records.pages) >= 3
    for name in names:
        assert any(name in page for page in text)
    roster = PdfReader(io.BytesIO(made[1][1]))
    assert len(roster.pages) == 1
    roster_text = roster.pages[0].extract_text()
    assert all(name in roster_text for name in names)


def test_the_roster_holds_ten_cards_a_page_and_is_the_same_for_any_jobs(
    tmp_path: Path, tables: Tables
) -> None:
    # 21 cards make 3 pages, rendered as two groups (2 pages + 1): with 2 jobs, on two workers.
    made = {}
    for jobs in (1, 2):
        target = tmp_path / f"roster{jobs}.pdf"
        run_batch(BatchOptions(count=21, seed=2, roster=str(target), jobs=jobs), tables=tables)
        made[jobs] = target.read_bytes()
    assert made[1] == made[2]
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(made[1])).pages]
    assert len(pages) == 3
    assert [("page 1 of 3" in text, "page 3 of 3" in text) for text in (pages[0], pages[2])] == [
        (True, False),
        (False, True),
    ]


def test_the_html_roster_is_self_contained(tmp_path: Path, tables: Tables) -> None:
    run_batch(BatchOptions(count=4, seed=2, roster=str(tmp_path / "roster.html"), jobs=1), tables=tables)
    page = (tmp_path / "roster.html").read_text(encoding="utf-8")
    assert page.count('<section class="card">') == 4
    assert not re.search(r"\b(src|href)\s*=", page)
    assert all(url.startswith("data:") for url in re.findall(r"url\(\s*['\"]?([^'\")]{0,12})", page))


def test_ctrl_c_leaves_no_file(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "chargen",
        "batch",
        "-n",
        "1000000",
        "-j",
        "2",
        "--jsonl",
        "npcs.jsonl",
        "--csv",
        "npcs.csv",
        "--out",
        "village",
    ]
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    # well into the run: NPCs written to the file it has not yet put in place
    wait_until(
        lambda: any(part.stat().st_size for part in tmp_path.glob(".npcs.jsonl.*.part")), "NPCs written"
    )
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.endswith("chargen: error: stopped by SIGINT\n")
    assert listing(tmp_path) == {}


@needs_fork
def test_with_jobs_the_workers_make_the_npcs_and_they_come_in_order(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 2 jobs, two worker processes share the NPCs a chunk at a time while the batch process writes;
    in NPC order, the bytes of one job."""
    makers = tmp_path / "makers"
    made_by = workers.make_output

    def noted(plan: Plan, number: int, tables: Tables) -> NpcOutput:
        with makers.open("a", encoding="utf-8") as note:  # forked workers inherit this stand-in
            note.write(f"{os.getpid()} {number}\n")
        return made_by(plan, number, tables)

    monkeypatch.setattr(workers, "make_output", noted)
    texts = []
    for jobs in (1, 2):
        target = tmp_path / f"{jobs}.jsonl"
        run_batch(BatchOptions(count=2000, seed=5, jobs=jobs, jsonl=str(target)), tables=tables)
        texts.append(target.read_bytes())
    assert texts[0] == texts[1] and texts[0].count(b"\n") == 2000
    words = makers.read_text(encoding="utf-8").split()[4000:]  # the 2-job run
    by_process: dict[str, set[int]] = {}
    for pid, number in zip(words[::2], words[1::2], strict=True):
        by_process.setdefault(pid, set()).add(int(number))
    assert str(os.getpid()) not in by_process  # the batch process only writes
    first, second = by_process.values()
    assert first and second and not first & second and first | second == set(range(1, 2001))


def test_where_there_is_no_fork_spawned_workers_make_the_same_bytes(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = []
    for jobs, method in ((1, "fork"), (2, "spawn")):
        monkeypatch.setattr(pool, "start_method", lambda method=method: method)
        target = tmp_path / f"{jobs}.jsonl"
        run_batch(BatchOptions(count=300, seed=5, jobs=jobs, jsonl=str(target)), tables=tables)
        texts.append(target.read_bytes())
    assert texts[0] == texts[1] and texts[0].count(b"\n") == 300


@needs_fork
def test_a_worker_that_dies_is_one_chargen_error(
    tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    batch_process = os.getpid()

    def dying(plan: Plan, number: int, tables: Tables) -> NpcOutput:
        if os.getpid() != batch_process:  # a worker dies on its first NPC, its chunk unsent
            os._exit(3)
        return make_output(plan, number, tables)

    monkeypatch.setattr(workers, "make_output", dying)
    before = own_children()
    with pytest.raises(ChargenError, match=r"^batch: a worker process ended before it sent its NPCs"):
        run_batch(BatchOptions(count=3000, seed=5, jobs=2, jsonl=str(tmp_path / "x.jsonl")), tables=tables)
    assert list(tmp_path.iterdir()) == []
    assert own_children() == before


def test_a_jsonl_file_is_written_a_quarter_megabyte_at_a_time(tmp_path: Path, tables: Tables) -> None:
    # A JSONL line is about 2 kB: written through io's 8 kB buffer, a batch made a system call every few
    # lines. Lines short of writers.STREAM_BUFFER wait in the buffer; nothing reaches the file before.
    from chargen.batch import checked_plan, writers

    target = tmp_path / "npcs.jsonl"
    plan = checked_plan(BatchOptions(count=40, seed=2, jsonl=str(target)), tables)
    output = writers.JsonlOutput(str(target), sys.stdout)
    npcs = [make_output(plan, number, tables) for number in range(1, 41)]
    assert sum(len(npc.jsonl or "") for npc in npcs) < writers.STREAM_BUFFER
    for npc in npcs:
        output.add(npc)
    assert output.file is not None and output.file.temporary is not None
    assert output.file.temporary.stat().st_size == 0
    output.finish()
    assert output.file.temporary.read_text(encoding="utf-8") == "".join(npc.jsonl or "" for npc in npcs)
    output.discard()
