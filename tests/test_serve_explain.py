"""The page's record beside the walk and an opened file's record open each value to its working, as
`chargen render --html --explain` writes it (links to <details>, no script); the files downloaded are
the record without it, as `chargen render --html` writes it."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from chargen.web.app import create_app, shared
from chargen.web.saved import Saved

pytestmark = pytest.mark.slow  # chargen in a process beside the page

ROLF = Path(__file__).parent / "examples" / "rolf.yaml"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


class _Record(HTMLParser):
    """A record's ids, its links within itself, and the headlines of its workings as a reader sees them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.headlines: list[str] = []
        self._summary: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and (found.get("href") or "").startswith("#"):
            self.links.append(str(found["href"])[1:])
        if tag == "summary":
            self._summary = []

    def handle_data(self, data: str) -> None:
        if self._summary is not None:
            self._summary.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary" and self._summary is not None:
            self.headlines.append(" ".join("".join(self._summary).split()))
            self._summary = None


def _chargen(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "chargen", *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def _walk_to_the_end(client: Any) -> list[_Record]:
    """Every step answered with its own empty entry; the preview after each."""
    previews = [_Record(client.get("/new/record.html").get_data(as_text=True))]
    while found := re.search(r'name="step" value="([^"]+)"', client.get("/new").get_data(as_text=True)):
        assert client.post("/new", data={"step": found.group(1), "action": "empty"}).status_code == 303
        previews.append(_Record(client.get("/new/record.html").get_data(as_text=True)))
    return previews


def test_an_opened_files_record_is_chargen_render_explain(client: Any) -> None:
    assert client.post("/open", data={"text": ROLF.read_text(encoding="utf-8")}).status_code == 303
    shown = client.get("/open/record.html").get_data(as_text=True)
    assert shown == _chargen("render", str(ROLF), "--html", "-", "--explain")
    record = _Record(shown)
    assert "Defense 24 = 12 + 4 \u00d7 3 (17.5)" in record.headlines
    assert record.links and set(record.links) <= record.ids
    download = client.get("/open/character.html").get_data(as_text=True)
    assert download == _chargen("render", str(ROLF), "--html", "-") and "<details" not in download


def test_the_walks_preview_explains_only_what_is_chosen_and_its_file_does_not(client: Any) -> None:
    previews = _walk_to_the_end(client)
    for preview in previews:
        assert set(preview.links) <= preview.ids
    # at the concept and 5.1: no characteristic is placed, so no working yet (each rests on them)
    assert not any(preview.headlines for preview in previews[:3])
    placed = [preview for preview in previews if preview.headlines]
    assert len(placed) == len(previews) - 3
    # before the weapons, armour and shield are chosen, no working names the preview's stand-ins
    assert not any(line.startswith("Defense") for line in placed[0].headlines)
    assert any(line.startswith("Defense") for line in previews[-1].headlines)
    assert any("Strike Chance" in line for line in previews[-1].headlines)
    download = client.get("/new/character.html").get_data(as_text=True)
    assert "<details" not in download and "How each value was worked out" not in download
