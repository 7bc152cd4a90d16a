"""`chargen serve`'s application in-process (Flask's test client): a GM batch's progress, the bounded
store of browsers, and what the server says of who can reach it."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.web.app import create_app, shared
from chargen.web.jobs import RulesChoice
from chargen.web.saved import Saved
from chargen.web.server import allowed_hosts, reach
from chargen.web.state import MAX_BROWSERS, Store


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


@pytest.mark.slow  # a GM batch and its PDFs
def test_a_batch_shows_its_progress_then_its_files(client: Any) -> None:
    started = client.post("/gm", data={"count": "12", "seed": "4", "files": ["npcs.jsonl", "records.pdf"]})
    assert started.status_code == 303
    job = started.headers["Location"]
    page = client.get(job).get_data(as_text=True)
    assert "<progress" in page and 'aria-live="polite"' in page
    seen = []
    deadline = time.monotonic() + 300
    while (status := client.get(job + "/status").get_json())["state"] == "running":
        seen.append(status["done"])
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert status == {
        "state": "done",
        "done": status["total"],
        "total": status["total"],
        "what": "NPCs made",
        "message": "",
    }
    assert seen == sorted(seen)  # progress only goes forward
    assert status["total"] == 12  # one run: the roster for the page, the JSONL and the PDF together
    page = client.get(job).get_data(as_text=True)
    assert "records.pdf" in page and "<progress" not in page
    assert client.get(job + "/files/records.pdf").data.startswith(b"%PDF")


def test_a_bad_option_is_refused_on_the_form_with_its_reason(client: Any) -> None:
    answer = client.post("/gm", data={"count": "3", "archetype": "wizard-king"})
    assert answer.status_code == 422
    assert "wizard-king" in answer.get_data(as_text=True)
    answer = client.post("/gm", data={"count": "3", "group": "patrol", "archetype": "bandit"})
    assert answer.status_code == 422


def test_the_store_of_browsers_is_bounded(tmp_path: Path) -> None:
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    first, _ = store.get(None)
    for _ in range(MAX_BROWSERS):
        store.get(None)
    again, _ = store.get(first)
    assert again != first  # the first was forgotten, the longest unused
    transient, _ = store.get(None, keep=False)
    assert store.get(transient, keep=False)[0] != transient  # reading pages keeps nothing


def test_a_flood_of_new_browsers_loses_no_players_walk(tmp_path: Path) -> None:
    """More new browsers than the server keeps in memory (any local process can send cookie-less POSTs)
    push a player out of memory, not out of the walk: it is read back from disk, under the same id."""
    store = Store(RulesChoice(), saved=Saved(tmp_path))
    player, state = store.get(None)
    state.answers.extend(["fighter", "9"])
    store.save(state)
    for _ in range(MAX_BROWSERS + 1):
        store.get(None)
    again, state = store.get(player)
    assert again == player and state.answers == ["fighter", "9"]


def test_who_can_reach_the_page() -> None:
    assert reach("127.0.0.1", 8000) == "only this computer can open it"
    assert "anyone who can reach every address of this machine on port 8000" in reach("0.0.0.0", 8000)
    assert allowed_hosts("127.0.0.1", 8000).names == frozenset({"127.0.0.1", "localhost", "[::1]"})
    assert not allowed_hosts("0.0.0.0", 8000).allows("evil.example:8000")  # tests/test_serve_bounds.py


def _step(client: Any) -> str:

    page = client.get("/new").get_data(as_text=True)
    found = re.search(r'name="step" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_the_walks_own_words_typed_in_the_box_do_what_they_do_at_the_terminal(client: Any) -> None:
    first = _step(client)
    assert client.post("/new", data={"step": first, "action": "take", "entry": "fighter"}).status_code == 303
    second = _step(client)
    assert second != first
    helped = client.post("/new", data={"step": second, "action": "take", "entry": "HELP"})
    assert "More about this step" in helped.get_data(as_text=True) and "Refused" not in helped.get_data(
        as_text=True
    )
    assert _step(client) == second  # help takes no step and is not the answer
    left = client.post("/new", data={"step": second, "action": "take", "entry": "quit"}).get_data(
        as_text=True
    )
    assert "Start again" in left and _step(client) == second
    assert client.post("/new", data={"step": second, "action": "take", "entry": " back "}).status_code == 303
    assert _step(client) == first  # `back` typed undoes the step, as the button does


def test_new_rules_mid_walk_ask_first_and_undo_brings_the_walk_and_its_rules_back(client: Any) -> None:
    assert (
        client.post("/new", data={"step": "concept", "action": "take", "entry": "fighter"}).status_code == 303
    )
    asked = client.post("/rules", data={"shipped": "house-combat"})
    assert asked.status_code == 409 and "tick the box" in asked.get_data(as_text=True)
    assert _step(client) == "rolls.points"  # nothing changed
    assert client.post("/rules", data={"shipped": "house-combat", "confirmed": "yes"}).status_code == 303
    assert _step(client) == "concept" and "House rules: house-combat" in client.get("/new").get_data(
        as_text=True
    )
    assert client.post("/new", data={"action": "undo"}).status_code == 303
    page = client.get("/new").get_data(as_text=True)
    assert _step(client) == "rolls.points" and "House rules: house-combat" not in page


def test_a_spell_the_tables_do_not_list_is_treated_on_the_page_as_in_a_file(client: Any) -> None:
    """One rule (34): refused without its kind in unlisted_magic's words, kept with it (`Fireball (spell)`)."""
    from chargen.messages import unlisted_magic
    from chargen.tables import load_tables
    from chargen.walkthrough import new_walk
    from tests.test_new_keeps import RIGHT

    walk, typed = new_walk(load_tables(), seed=1), {"college": "fire magics"}  # an elven adept's entries
    entries = iter(["", *RIGHT[:11], "elf", "5"])
    while walk.current is not None and walk.current.key != "college":
        typed[walk.current.key] = next(entries, "")
        walk.answer(typed[walk.current.key])
    while (key := _step(client)) != "spells":
        entry = typed.get(key, "")
        answer = {"action": "take", "entry": entry} if entry else {"action": "empty"}
        assert client.post("/new", data={"step": key, **answer}).status_code == 303, key
    assert _step(client) == "spells"
    refused = client.post("/new", data={"step": "spells", "action": "take", "entry": "fireball"})
    assert html.unescape(unlisted_magic("fireball")) in html.unescape(refused.get_data(as_text=True))
    assert _step(client) == "spells"
    kept = client.post("/new", data={"step": "spells", "action": "take", "entry": "fireball (spell)"})
    assert kept.status_code == 303 and _step(client) == "name"
    assert "fireball (spell)" in client.get("/new").get_data(as_text=True)


def test_the_walks_preview_names_its_fonts_at_a_url_a_browser_keeps(client: Any) -> None:
    from chargen.render.html import font_files

    client.get("/new")
    record = client.get("/new/record.html")
    page = record.get_data(as_text=True)
    assert "data:font" not in page and len(page) < 200_000  # not the 600 KB self-contained page
    urls = re.findall(r'url\("(/new/record-fonts/[^"]+)"\)', page)
    assert len(urls) == len(font_files()) == 2
    assert "font-src data: 'self'" in record.headers["Content-Security-Policy"]
    for url, font in zip(urls, font_files().values(), strict=True):
        served = client.get(url)
        assert served.status_code == 200 and served.data == font.data
        assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    stale = urls[0].replace("/record-fonts/", "/record-fonts/0")
    assert client.get(stale).status_code == 404  # another version of the fonts is not these
    assert client.get("/new/record-fonts/x/../../app.py").status_code == 404
