"""Your characters on `chargen serve` (Flask's test client): the cookie that outlives the browser, every
walk put aside kept until deleted and listed to resume, download or delete, and a save that fails said on
the page while the step is kept."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.web.app import COOKIE_DAYS, create_app, shared
from chargen.web.saved import Saved


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


def _text(answer: Any) -> str:
    """The page's words as read: tags dropped, entities read, spaces as one."""
    words = re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True))
    return " ".join(html.unescape(words).split())


def _step(client: Any) -> str:
    found = re.search(r'name="step" value="([^"]+)"', client.get("/new").get_data(as_text=True))
    return found.group(1) if found else ""


def _take(client: Any, entry: str) -> None:
    """`entry` given at the walk's step ('': its empty button, chargen rolls or chooses)."""
    sent = {"step": _step(client), "action": "take" if entry else "empty", "entry": entry}
    assert client.post("/new", data=sent).status_code == 303


def _finish(client: Any, concept: str) -> str:
    """A walk finished by Choose the rest for me; the character's name."""
    sent = {"step": "concept", "action": "rest", "choice": concept}
    assert client.post("/new", data=sent).status_code == 303
    found = re.search(r'<h1 id="walk-title">([^<]*)</h1>', client.get("/new").get_data(as_text=True))
    assert _step(client) == "" and found is not None
    name = client.get("/new/character.yaml").get_data(as_text=True).split("name: ", 1)[1].split("\n", 1)[0]
    return name.strip("'\"")


def _restart(client: Any) -> None:
    assert client.post("/new", data={"action": "restart", "confirmed": "yes"}).status_code == 303


def _listed(client: Any) -> list[tuple[str, str]]:
    """Each walk put aside on Your characters: (its id, its heading)."""
    page = client.get("/saved").get_data(as_text=True)
    items = re.findall(r'<li>\s*<h2>([^<]*)</h2>.*?name="walk" value="([^"]+)"', page, re.S)
    return [(ident, html.unescape(title)) for title, ident in items]


def test_the_cookie_lasts_a_year_and_is_renewed_on_use(client: Any) -> None:
    _take(client, "fighter")
    first = client.post("/new", data={"action": "back"}).headers["Set-Cookie"]
    assert f"Max-Age={COOKIE_DAYS * 86400}" in first and "HttpOnly" in first and "SameSite=Strict" in first
    renewed = client.get("/").headers["Set-Cookie"]
    assert renewed.split(";")[0] == first.split(";")[0] and f"Max-Age={COOKIE_DAYS * 86400}" in renewed
    stranger = client.application.test_client().get("/")
    assert "Set-Cookie" not in stranger.headers  # reading a page keeps nothing


def test_undo_brings_back_either_of_two_walks_put_aside(client: Any) -> None:
    _take(client, "fighter")
    _restart(client)
    _take(client, "thief")
    _restart(client)
    _take(client, "assassin")
    listed = _listed(client)
    assert [title for _, title in listed] == ["Thief, unfinished", "Fighter, unfinished"]  # newest first
    older = listed[1][0]
    assert client.post("/saved", data={"action": "resume", "walk": older}).status_code == 303
    assert "Concept: Fighter" in _text(client.get("/new"))
    titles = [title for _, title in _listed(client)]
    assert titles == ["Assassin, unfinished", "Thief, unfinished"]  # the walk in hand put aside, none lost
    thief = _listed(client)[1][0]
    assert client.post("/saved", data={"action": "resume", "walk": thief}).status_code == 303
    assert "Concept: Thief" in _text(client.get("/new"))
    assert client.post("/new", data={"action": "undo"}).status_code == 303  # the last put aside: the fighter
    assert "Concept: Fighter" in _text(client.get("/new"))


def test_back_to_here_keeps_the_walk_put_aside_before_it(client: Any) -> None:
    _take(client, "fighter")
    _restart(client)
    for entry in ("thief", "", ""):
        _take(client, entry)
    assert client.post("/new", data={"action": "back-to-0", "confirmed": "yes"}).status_code == 303
    assert len(_listed(client)) == 2  # before, Back to here replaced the fighter put aside


def test_a_finished_character_put_aside_is_downloaded_and_deleted_after_asking(client: Any) -> None:
    name = _finish(client, "fighter")
    yaml = client.get("/new/character.yaml").data
    _restart(client)
    ((ident, title),) = _listed(client)
    assert title == name and "Finished" in _text(client.get("/saved"))
    assert client.get(f"/saved/{ident}/character.yaml").data == yaml  # the same file as from the walk
    assert client.get(f"/saved/{ident}/character.nope").status_code == 404
    asked = client.post("/saved", data={"action": "delete", "walk": ident})
    assert asked.status_code == 409 and f"Delete {name}?" in _text(asked)
    assert len(_listed(client)) == 1  # asked only
    sure = {"action": "delete", "walk": ident, "confirmed": "yes"}
    assert client.post("/saved", data=sure).status_code == 303
    assert _listed(client) == [] and "No character is put aside" in _text(client.get("/saved"))
    assert client.post("/saved", data=sure).status_code == 404


def test_an_unfinished_walk_put_aside_offers_no_download(client: Any) -> None:
    _take(client, "fighter")
    _restart(client)
    ((ident, _),) = _listed(client)
    assert "Download" not in _text(client.get("/saved"))
    assert client.get(f"/saved/{ident}/character.yaml").status_code == 409


def test_a_save_that_fails_is_said_on_the_page_and_the_step_kept(client: Any, tmp_path: Path) -> None:
    _take(client, "fighter")
    store = shared(client.application).store
    (browser,) = store._browsers.values()
    walk_file = store.saved._path(browser.key)
    walk_file.unlink()
    walk_file.mkdir()  # the walk's file cannot be replaced: every save fails with the system's words
    _take(client, "")
    page = _text(client.get("/new"))
    assert "Your last step could not be saved on this computer (Is a directory)" in page
    assert browser.answers == ["fighter", ""]  # kept in memory
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".part")] == []
    walk_file.rmdir()
    _take(client, "")
    assert "could not be saved" not in _text(client.get("/new"))  # saved again: nothing to say
