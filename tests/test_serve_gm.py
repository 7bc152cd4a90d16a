"""The GM's page does what `chargen batch` does: a group written as counts is made exactly, as `--group`
makes it with the same seed, whatever the count field holds as the page loads; every file ticked is made;
a refusal is in the page's words; a long batch shows its progress moving from its first look, and stops
when asked."""

from __future__ import annotations

import html
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.web.app import create_app, shared
from chargen.web.saved import Saved
from tests.serve_support import Served, press

pytestmark = pytest.mark.slow  # GM batches with their PDFs

GROUP = "bandit=15,thief=4,bandit-chief=1"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


def _finished(client: Any, job: str, seconds: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while (status := client.get(job + "/status").get_json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    result: dict[str, Any] = status
    return result


def test_a_group_of_counts_is_made_exactly_as_batch_group_makes_it(client: Any, tmp_path: Path) -> None:
    started = client.post("/gm", data={"group": GROUP, "seed": "7", "files": ["npcs.jsonl"]})
    assert started.status_code == 303
    job = started.headers["Location"]
    assert _finished(client, job)["state"] == "done"
    page_jsonl = client.get(job + "/files/npcs.jsonl").get_data()
    archetypes = Counter(json.loads(line)["archetype"] for line in page_jsonl.decode().splitlines())
    assert archetypes == {"bandit": 15, "thief": 4, "bandit-chief": 1}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "chargen",
            "batch",
            "--group",
            GROUP,
            "--seed",
            "7",
            "--jsonl",
            "cli.jsonl",
            "-q",
        ],
        cwd=tmp_path,
        check=True,
        timeout=300,
    )
    assert page_jsonl == (tmp_path / "cli.jsonl").read_bytes()


def test_the_progress_of_a_200_npc_batch_moves_and_it_stops_when_asked(client: Any) -> None:
    started = client.post("/gm", data={"count": "200", "seed": "3", "files": ["records.pdf"]})
    job = started.headers["Location"]
    first = client.get(job + "/status").get_json()
    assert first["total"] == 200 and first["what"].startswith("NPCs made")  # never "0 of 0"
    seen = set()
    deadline = time.monotonic() + 300
    while len(seen) < 3:
        status = client.get(job + "/status").get_json()
        assert status["state"] == "running" and time.monotonic() < deadline
        if 0 < status["done"] < 200:
            seen.add(status["done"])
        time.sleep(0.1)
    page = client.get(job).get_data(as_text=True)
    assert "Stop making them" in page
    assert client.post(job + "/stop").status_code == 303
    ended = client.get(job + "/status").get_json()
    assert ended["state"] == "failed" and ended["message"].startswith("stopped")
    assert client.get(job + "/files/records.pdf").status_code == 404


def test_a_roster_pdf_and_the_pages_roster_come_from_one_run_of_the_npcs(client: Any) -> None:
    started = client.post("/gm", data={"count": "12", "seed": "5", "files": ["roster.pdf", "npcs.csv"]})
    job = started.headers["Location"]
    statuses = [client.get(job + "/status").get_json()]
    while statuses[-1]["state"] == "running":
        time.sleep(0.1)
        statuses.append(client.get(job + "/status").get_json())
    assert statuses[-1]["state"] == "done", statuses[-1]
    # each NPC made once for every output: never more than 12 to make, nor "passes" in the words
    assert {status["total"] for status in statuses} == {12}
    assert all(status["what"].startswith("NPCs made") and "pass" not in status["what"] for status in statuses)
    assert client.get(job + "/files/roster.pdf").get_data().startswith(b"%PDF")
    preview = client.get(job + "/files/roster.html").get_data(as_text=True)
    assert "<html" in preview.lower()


def test_a_typed_group_with_the_form_as_it_loads_makes_exactly_that_group(
    browser: Any, server: Served
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(server.url + "gm")
        assert page.input_value("#count") == "10"  # the form as it loads, but for the group typed
        page.fill("#group", GROUP)
        press(page, "Make the NPCs")
        page.wait_for_selector("iframe.roster", timeout=120_000)
        jsonl = page.request.get(page.url + "/files/npcs.jsonl").text()
    finally:
        context.close()
    archetypes = Counter(json.loads(line)["archetype"] for line in jsonl.splitlines())
    assert archetypes == {"bandit": 15, "thief": 4, "bandit-chief": 1}


def test_the_groups_field_makes_that_many_groups(client: Any) -> None:
    started = client.post("/gm", data={"count": "10", "groups": "2", "group": GROUP, "files": "npcs.csv"})
    assert started.status_code == 303
    assert "20 NPCs" not in client.get("/gm").get_data(as_text=True)
    assert "40 NPCs" in client.get("/gm").get_data(as_text=True)


@pytest.mark.parametrize(("chosen", "made"), [("text", "statblocks.txt"), ("markdown", "statblocks.md")])
def test_the_stat_blocks_are_made_in_the_format_chosen(client: Any, chosen: str, made: str) -> None:
    started = client.post(
        "/gm", data={"count": "1", "seed": "3", "files": "statblocks", "statblocks": chosen}
    )
    assert started.status_code == 303
    job = client.get(started.headers["Location"]).get_data(as_text=True)
    assert f"={made}" in job


def test_both_stat_block_files_ticked_are_refused_not_one_dropped(client: Any) -> None:
    answer = client.post("/gm", data={"count": "1", "files": ["statblocks.txt", "statblocks.md"]})
    assert answer.status_code == 422
    assert "Stat blocks: one format at a time" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("group", "said"),
    [
        ("bandit=15,thief=4", "Encounter group: 'bandit=15,thief=4' needs exactly one leader, one of"),
        ("", None),
        ("bandit=x,bandit-chief=1", "Encounter group: count of 'bandit'"),
    ],
)
def test_a_refused_group_is_told_in_the_pages_words(client: Any, group: str, said: str | None) -> None:
    answer = client.post("/gm", data={"count": "1", "group": group or ",", "files": "npcs.csv"})
    text = " ".join(html.unescape(answer.get_data(as_text=True)).split())
    assert answer.status_code == 422
    if said is not None:
        assert said in text
    assert "--group" not in text and "tables/" not in text
