"""One table of output kinds (chargen.output_kinds): the batch, the commands and the walk read it; a batch
writes several outputs of one kind from one run of its NPCs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from chargen.batch import BatchOptions, npc, run_batch
from chargen.batch.writers import WRITERS
from chargen.errors import ChargenError, InputError
from chargen.output_kinds import BATCH_KINDS, KINDS
from chargen.tables import Tables
from chargen.walkthrough.outputs import Target, path_problem
from tests.render_fixtures.fields import parse_html
from tests.test_batch_cli import batch


def test_every_kind_names_a_media_type_for_each_ending_and_every_batch_kind_a_writer() -> None:
    for kind in KINDS.values():
        assert len(kind.media_types) == len(kind.endings) and kind.option.startswith("--")
    assert sorted(WRITERS) == sorted(BATCH_KINDS)
    assert KINDS["roster"].media_type("npcs.HTML") == "text/html"
    assert KINDS["statblock"].media_type("blocks.md") == "text/markdown"
    assert KINDS["statblock"].media_type("blocks") == "text/plain"


def test_the_batch_help_and_the_walk_say_what_the_table_says() -> None:
    shown = " ".join(batch("--help").stdout.split())
    for key in BATCH_KINDS:
        assert KINDS[key].help in shown
    assert Target("pdf").question == "PDF of the Character Record to write (or Enter for none)"
    assert path_problem("", "html") == "give the HTML page of the Character Record a file name"


def test_a_roster_as_html_and_as_pdf_and_both_stat_blocks_come_from_one_run_of_the_npcs(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    make_character = npc.make_character

    def counted(plan: npc.Plan, number: int, tables: Tables) -> object:
        made.append(number)
        return make_character(plan, number, tables)

    monkeypatch.setattr(npc, "make_character", counted)
    files = {name: tmp_path / name for name in ("r.html", "r.pdf", "b.txt", "b.md")}
    outputs = (
        ("roster", str(files["r.html"])),
        ("roster", str(files["r.pdf"])),
        ("statblock", str(files["b.txt"])),
        ("statblock", str(files["b.md"])),
    )
    options = BatchOptions(count=4, seed=7, jobs=1, jsonl=str(tmp_path / "n.jsonl"), outputs=outputs)
    summary = run_batch(options, tables=tables)
    assert sorted(made) == [1, 2, 3, 4]  # each NPC made once, for all six outputs
    assert summary.written == [str(tmp_path / "n.jsonl"), *(path for _, path in outputs)]
    lines = (tmp_path / "n.jsonl").read_text(encoding="utf-8").splitlines()
    names = [json.loads(line)["name"] for line in lines]
    page = parse_html(files["r.html"].read_text(encoding="utf-8")).text()
    pdf = subprocess.run(["pdftotext", str(files["r.pdf"]), "-"], capture_output=True, text=True, check=True)
    for shown in (page, pdf.stdout, files["b.txt"].read_text("utf-8"), files["b.md"].read_text("utf-8")):
        assert all(name in " ".join(shown.split()) for name in names)


def test_an_output_of_no_batch_kind_is_refused_before_any_work(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="'html' is not a batch output"):
        run_batch(BatchOptions(count=1, seed=1, outputs=(("html", str(tmp_path / "a.html")),)), tables=tables)
    assert not list(tmp_path.iterdir())


def test_two_outputs_of_a_kind_on_one_file_are_refused(tables: Tables, tmp_path: Path) -> None:
    same = str(tmp_path / "r.html")
    with pytest.raises(ChargenError, match="--roster and --roster: both would write"):
        run_batch(BatchOptions(count=1, seed=1, roster=same, outputs=(("roster", same),)), tables=tables)
