"""`chargen serve`'s bounds on what a request may ask (Flask's test client): form fields bounded in number
and read once whatever the encoding, the GM page's seed and count checked as the CLI checks them, no 500
for digits Python reads and int() refuses, and the Host check for any address --host gives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.web.app import create_app, shared
from chargen.web.limits import MAX_FORM_FIELDS, host_check


@pytest.fixture
def client() -> Iterator[Any]:
    app = create_app()
    yield app.test_client()
    shared(app).close()


def _text(answer: Any) -> str:
    from html import unescape

    return unescape(answer.get_data(as_text=True))


@pytest.fixture
def fields_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many fields Werkzeug reads out of each form body: an urlencoded body's parsed at once, a
    multipart body's part by part (counted up to where it stops)."""
    from werkzeug import formparser

    read: list[int] = []
    real_qsl = formparser.parse_qsl

    def parse_qsl(*args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        items = real_qsl(*args, **kwargs)
        read.append(len(items))
        return items

    class Counted(formparser.MultipartDecoder):
        def next_event(self) -> Any:
            event = super().next_event()
            if isinstance(event, (formparser.Field, formparser.File)):
                read.append(1)
            return event

    monkeypatch.setattr(formparser, "parse_qsl", parse_qsl)
    monkeypatch.setattr(formparser, "MultipartDecoder", Counted)
    return read


#: (encoding, fields sent, fields read): an urlencoded body is counted by its separators and not parsed;
#: a multipart body past MAX_BODY is refused by its length unread, a shorter one read up to the bound and
#: refused at the next part (Werkzeug's MAX_FORM_PARTS).
REFUSED = [
    ("urlencoded", 47_000, 0),
    ("multipart", 47_000, 0),
    ("urlencoded", MAX_FORM_FIELDS + 1, 0),
    ("multipart", MAX_FORM_FIELDS + 1, MAX_FORM_FIELDS),
]


@pytest.mark.parametrize(("encoding", "count", "read"), REFUSED, ids=[f"{e}-{c}" for e, c, _ in REFUSED])
def test_a_form_of_too_many_fields_is_refused_at_once(
    client: Any, encoding: str, count: int, read: int, fields_read: list[int]
) -> None:
    """Refused at once: not read into a form past the bound, where 47,000 fields once were."""
    answer = _post_rules(client, encoding, count)
    assert answer.status_code == 413
    assert f"{MAX_FORM_FIELDS} form fields" in _text(answer)
    assert sum(fields_read) == read


@pytest.mark.parametrize("encoding", ["urlencoded", "multipart"])
def test_a_form_at_the_bound_is_read_whole(client: Any, encoding: str, fields_read: list[int]) -> None:
    """The edge: a form of the most fields allowed is read, each of its fields (as the count above sees)."""
    answer = _post_rules(client, encoding, MAX_FORM_FIELDS)
    assert (answer.status_code, sum(fields_read)) == (303, MAX_FORM_FIELDS)


def _post_rules(client: Any, encoding: str, count: int) -> Any:
    fields = [("shipped", "house-combat")] * count
    if encoding == "multipart":
        from werkzeug.datastructures import MultiDict

        return client.post("/rules", data=MultiDict(fields), content_type="multipart/form-data")
    body = "&".join(f"{name}={value}" for name, value in fields)
    return client.post("/rules", data=body, content_type="application/x-www-form-urlencoded")


def test_a_field_sent_again_is_read_once(client: Any) -> None:
    body = "&".join(["shipped=house-combat"] * (MAX_FORM_FIELDS - 1))
    answer = client.post("/rules", data=body, content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 303
    app = client.application
    (browser,) = shared(app).store._browsers.values()
    assert browser.rules.named == ("house-combat",)


def test_unknown_ruleset_names_cost_no_folder_read_each(client: Any, monkeypatch: Any) -> None:
    from chargen.tables import overlay

    reads = []
    real = overlay.shipped_names
    monkeypatch.setattr(overlay, "shipped_names", lambda: reads.append(1) or real())
    body = "&".join(f"shipped=nope{number}" for number in range(MAX_FORM_FIELDS - 1))
    assert (
        client.post("/rules", data=body, content_type="application/x-www-form-urlencoded").status_code == 303
    )
    assert len(reads) == 1


@pytest.mark.parametrize(
    ("count", "seed", "refused"),
    [
        ("²", "", "How many NPCs: a whole number from 1 to 1000, not '²'"),
        ("٣", "", "How many NPCs: a whole number from 1 to 1000, not '٣'"),
        ("2", "²", "Seed: a whole number from 0 to 1,000,000,000,000,000, or empty for a new one; not '²'"),
        ("2", "1000000000000001", "not '1000000000000001'"),
        ("2", "9" * 5000, "Seed: a whole number from 0 to 1,000,000,000,000,000"),
        ("2", "-1", "not '-1'"),
        ("2", "1_000", "not '1_000'"),
    ],
)
def test_the_gm_pages_seed_and_count_are_checked_as_the_cli_checks_them(
    client: Any, count: str, seed: str, refused: str
) -> None:
    answer = client.post("/gm", data={"count": count, "seed": seed, "files": "npcs.jsonl"})
    assert answer.status_code == 422
    assert refused in " ".join(_text(answer).split())


def test_the_largest_seed_the_cli_takes_is_the_one_the_page_shows(client: Any) -> None:
    answer = client.post("/gm", data={"count": "1", "seed": "1000000000000000", "files": "npcs.jsonl"})
    assert answer.status_code == 303
    page = _text(client.get(answer.headers["Location"]))
    assert "--seed=1000000000000000" in page


@pytest.mark.parametrize("action", ["back-to-²", "back-to-" + "9" * 5000, "back-to-"])
def test_going_back_to_no_step_undoes_nothing(client: Any, action: str) -> None:
    assert client.post("/new", data={"action": "roll", "step": "rolls.points"}).status_code in (303, 409)
    before = _text(client.get("/new"))
    answer = client.post("/new", data={"action": action})
    assert answer.status_code == 303
    assert _text(client.get("/new")) == before


@pytest.mark.parametrize(
    ("host", "allowed", "refused"),
    [
        (
            "127.0.0.1",
            ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"],
            ["evil.example:8000", "127.0.0.1:80"],
        ),
        ("127.0.0.2", ["127.0.0.2:8000", "localhost:8000"], ["evil.example:8000", "127.0.0.2:9"]),
        ("::1", ["[::1]:8000", "localhost:8000"], ["evil.example:8000", "[::2]:8000"]),
        ("192.168.1.5", ["192.168.1.5:8000"], ["evil.example:8000", "localhost:8000", "192.168.1.6:8000"]),
        ("0.0.0.0", ["10.0.0.7:8000", "[fe80::1]:8000", "localhost:8000"], ["evil.example:8000", "x:8000"]),
        ("::", ["10.0.0.7:8000", "127.0.0.1:8000"], ["evil.example:8000", "10.0.0.7"]),
    ],
)
def test_the_host_check_holds_for_any_address(host: str, allowed: list[str], refused: list[str]) -> None:
    check = host_check(host, 8000)
    assert [name for name in allowed if not check.allows(name)] == []
    assert [name for name in refused if check.allows(name)] == []


def test_port_80_may_go_unsaid() -> None:
    assert host_check("127.0.0.1", 80).allows("localhost")
    assert not host_check("127.0.0.1", 8000).allows("localhost")


@pytest.mark.slow  # a server of its own
def test_a_server_on_another_loopback_address_refuses_another_host_name() -> None:
    import http.client
    import signal
    import subprocess
    import sys

    command = [sys.executable, "-m", "chargen", "serve", "--host", "127.0.0.2", "--port", "0", "--no-browser"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    assert process.stderr is not None
    try:
        port = int(process.stderr.readline().split("127.0.0.2:")[1].split("/")[0])
        statuses = []
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.2:{port}"):
            connection = http.client.HTTPConnection("127.0.0.2", port, timeout=30)
            connection.request("GET", "/", headers={"Host": host})
            statuses.append(connection.getresponse().status)
            connection.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert statuses == [400, 400, 200]


def _upload(client: Any, text: str, name: str) -> None:
    import io

    data = {"ruleset": (io.BytesIO(text.encode()), name)}
    assert client.post("/rules", data=data, content_type="multipart/form-data").status_code == 303


def _ruleset(number: int) -> str:
    return (
        f"# house rules {number}\nchange:\n  combat:\n    stun:\n      endurance_divisor: {number % 5 + 2}\n"
    )


#: Run in a fresh process: a test process's heap, freed by earlier tests, would hide the growth.
_GROWTH = """
import gc, io, tempfile
from pathlib import Path
import psutil
from chargen.web.app import create_app, shared
from chargen.web.saved import Saved
from tests.test_serve_bounds import _ruleset

walks = tempfile.TemporaryDirectory()  # kept aside, not in the user's folder
app = create_app(saved=Saved(Path(walks.name)))
def upload(number, name):  # a browser of its own uploads a distinct ruleset and opens the walk under it
    client = app.test_client()
    data = {"ruleset": (io.BytesIO(_ruleset(number).encode()), name)}
    assert client.post("/rules", data=data, content_type="multipart/form-data").status_code == 303
    assert client.get("/new").status_code == 200 and client.get("/new/record.html").status_code == 200
for number in range(10):  # the loaded tables' cache filled first: its bound is not the question
    upload(number, f"warm{number}.yaml")
gc.collect()
before = psutil.Process().memory_info().rss
for number in range(10, 40):
    upload(number, f"house{number}.yaml")
gc.collect()
print((psutil.Process().memory_info().rss - before) / 30)
shared(app).close()
walks.cleanup()
"""


@pytest.mark.slow  # a server of its own
def test_30_browsers_each_opening_the_walk_under_a_ruleset_of_their_own_grow_the_server_little() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _GROWTH], capture_output=True, text=True, timeout=600, check=True
    )
    per_browser = float(done.stdout)
    assert per_browser < 500_000, f"{per_browser / 1e6:.2f} MB a browser"


def test_a_rulesets_tables_are_in_memory_once(client: Any) -> None:
    from chargen.tables.loader import KEPT_TABLES

    first, second = client, client.application.test_client()
    _upload(first, _ruleset(1), "mine.yaml")
    store = shared(client.application).store
    (held,) = [browser.rules.tables() for browser in store._browsers.values()]
    for number in range(KEPT_TABLES + 2):  # past what the loaded tables' cache keeps
        _upload(client.application.test_client(), _ruleset(100 + number), f"other{number}.yaml")
    _upload(second, _ruleset(1), "mine.yaml")
    chosen = [browser.rules for browser in store._browsers.values() if browser.rules.names == ["mine"]]
    assert len(chosen) == 2
    assert chosen[0].tables() is held and chosen[1].tables() is held
    assert chosen[0].uploaded[0][1] is chosen[1].uploaded[0][1]  # the text itself held once


def test_uploaded_rulesets_are_bounded_as_a_whole(monkeypatch: Any, tmp_path: Path) -> None:
    from chargen.web import state
    from chargen.web.jobs import RulesChoice
    from chargen.web.saved import Saved

    monkeypatch.setattr(state, "MAX_HELD", 3 * len(_ruleset(10)))
    store = state.Store(RulesChoice(), saved=Saved(tmp_path))
    keys = []
    for number in range(10, 15):
        key, browser = store.get(None)
        store.choose_rules(browser, RulesChoice(uploaded=((f"house{number}", _ruleset(number)),)))
        keys.append(key)
        assert store.held() <= state.MAX_HELD  # the oldest let go from memory
    # let go from memory, not lost: each walk comes back from its file, under its own rules
    for number, key in enumerate(keys, 10):
        again, browser = store.get(key, keep=False)
        assert again == key and browser.rules.uploaded == ((f"house{number}", _ruleset(number)),)


@pytest.mark.parametrize("multipart", [False, True], ids=["urlencoded", "multipart"])
def test_a_form_of_the_most_fields_is_read_and_one_more_is_refused(client: Any, multipart: bool) -> None:
    def post(count: int) -> Any:
        fields = [("shipped", "house-combat")] * count
        if multipart:
            from werkzeug.datastructures import MultiDict

            return client.post("/rules", data=MultiDict(fields), content_type="multipart/form-data")
        body = "&".join(f"{name}={value}" for name, value in fields)
        return client.post("/rules", data=body, content_type="application/x-www-form-urlencoded")

    assert post(MAX_FORM_FIELDS).status_code == 303
    refused = post(MAX_FORM_FIELDS + 1)
    assert refused.status_code == 413
    assert f"{MAX_FORM_FIELDS} form fields" in _text(refused)
