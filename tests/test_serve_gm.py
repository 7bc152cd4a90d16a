"""The GM's page does what `chargen batch` does: a group written as counts is made exactly, as `--group`
makes it with the same seed; a long batch shows its progress moving from its first look, and stops when
asked."""

from __future__ import annotations

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
