"""`chargen serve` under hostile requests: malformed, oversized, cross-origin and script-laden
requests to every route get the page's own answer, never a 500 or a traceback, and the server goes on
answering; 200 concurrent requests are all answered; a non-local host is refused; the policies hold."""

from __future__ import annotations

import http.client
import os
import signal
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serve_support import Served, served, wait_for

pytestmark = pytest.mark.slow  # a server or a browser

#: Every route of the page (a job id and file name that are not this browser's stand in for the GM's).
ROUTES = [
    "/",
    "/new",
    "/new/record.html",
    "/new/record-fonts/nope/fonts/..%2f..%2frecord.css",
    "/new/character.yaml",
    "/new/character.letter.pdf",
    "/new/character.nope",
    "/saved",
    "/saved/nope/character.yaml",
    "/saved/..%2f..%2fetc/character.yaml",
    "/open",
    "/open/record.html",
    "/open/character.letter.pdf",
    "/open/character.roll20.json",
    "/open/character.tabloid.pdf",
    "/rules",
    "/gm",
    "/gm/jobs/nope",
    "/gm/jobs/nope/status",
    "/gm/jobs/nope/stop",
    "/gm/jobs/nope/files/npcs.jsonl",
    "/gm/jobs/nope/files/..%2f..%2fetc%2fpasswd",
    "/static/app.css",
    "/static/../app.py",
    "/no/such/page",
]
SCRIPT = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with served() as running:
        yield running
    # nothing went wrong on the server's side either: its log is its first and last line
    assert running.log[1:] == ["chargen serve: stopped"], running.log


def send(
    server: Served, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> Answer:
    address = urlsplit(server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return Answer(response.status, response.read(), {k.lower(): v for k, v in response.getheaders()})
    finally:
        connection.close()


def sane(answer: Answer, where: str) -> None:
    assert answer.status < 500 or answer.status == 503, (where, answer.status)
    assert b"Traceback" not in answer.body and b'File "' not in answer.body, where
    assert b"<script>alert" not in answer.body, where  # every value escaped


def still_answers(server: Served) -> None:
    assert send(server, "GET", "/").status == 200
    assert server.process.poll() is None


def _form(**fields: str) -> tuple[bytes, dict[str, str]]:
    from urllib.parse import urlencode

    return urlencode(fields).encode(), {"Content-Type": "application/x-www-form-urlencoded"}


def _multipart(name: str, filename: str, data: bytes, boundary: str = "xyz") -> tuple[bytes, dict[str, str]]:
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def test_the_routes_here_are_every_route_of_the_page() -> None:
    from chargen.web.app import create_app, shared

    app = create_app()
    adapter = app.url_map.bind("localhost")
    reached = set()
    for path in ROUTES:
        for method in ("GET", "POST"):
            try:
                reached.add(adapter.match(path.replace("%2f", "/"), method=method)[0])
            except Exception:  # no such route, or not for this method: the answer is still checked
                continue
    assert reached == {rule.endpoint for rule in app.url_map.iter_rules()}
    shared(app).close()


def test_every_route_with_every_method_and_junk(server: Served) -> None:
    junk = [b"", b"\xff\xfe\x00garbage", b"a=" + b"%" * 1000, SCRIPT.encode()]
    for path in ROUTES:
        for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"):
            for body in junk:
                sane(
                    send(server, method, path, body, {"Content-Type": "application/x-www-form-urlencoded"}),
                    f"{method} {path}",
                )
        sane(send(server, "GET", path + "?" + "q=" + "x" * 5000), path)
    still_answers(server)


def test_script_laden_and_malformed_forms(server: Served) -> None:
    posts = {
        "/new": [
            {"action": "take", "step": "rolls.points", "entry": SCRIPT},
            {"action": "back-to-" + "9" * 400},
            {"action": SCRIPT},
            {"step": SCRIPT, "entry": "x" * 100_000},
            {"action": "take"},
        ],
        "/open": [
            {"text": SCRIPT},
            {"text": f"name: '{SCRIPT}'\n"},
            {"text": "a: &a [*a]\n"},
            {"text": "[" * 5000},
            {"text": "rolls: {points: 1e400}\n"},
            {"text": "\x00\x01"},
        ],
        "/rules": [{"shipped": SCRIPT}, {"keep": "yes"}, {"shipped": "../../etc/passwd"}],
        "/gm": [
            {"count": SCRIPT},
            {"count": "5", "archetype": SCRIPT},
            {"count": "99999999999999999999"},
            {"count": "2", "group": SCRIPT, "race": SCRIPT, "gender": SCRIPT, "paper": SCRIPT, "seed": "-1"},
            {"count": "2", "files": "../../../etc/passwd"},
            {"count": "1001"},
        ],
    }
    for path, forms in posts.items():
        for fields in forms:
            body, headers = _form(**fields)
            answer = send(server, "POST", path, body, headers)
            sane(answer, f"{path} {fields}")
            assert answer.status in (200, 303, 404, 409, 422), (path, fields, answer.status)
    for path, name in (("/open", "file"), ("/rules", "ruleset")):
        for filename, data in ((SCRIPT, b"name: x\n"), ("x.yaml", b"\xff\xfe"), ("x.yaml", b"a: [" * 10000)):
            body, headers = _multipart(name, filename, data)
            sane(send(server, "POST", path, body, headers), f"{path} upload")
        body, headers = _multipart(name, "x.yaml", b"", boundary="")
        sane(send(server, "POST", path, body, headers), f"{path} no boundary")
        body, _ = _multipart(name, "x.yaml", b"x: 1\n")
        sane(
            send(
                server,
                "POST",
                path,
                body[: len(body) // 2],
                {"Content-Type": "multipart/form-data; boundary=xyz"},
            ),
            path,
        )
    still_answers(server)


def test_oversized_requests_are_refused_in_one_line(server: Served) -> None:
    for path in ("/open", "/rules", "/new", "/gm"):
        body, headers = _multipart("file", "big.yaml", b"a" * 2_000_000)
        answer = send(server, "POST", path, body, headers)
        sane(answer, path)
        assert answer.status == 413 and b"too large" in answer.body, (path, answer.status)
        try:  # past what the server reads at all: it answers 413 and closes, or just closes
            answer = send(server, "POST", path, b"a" * 20_000_000, headers)
            assert answer.status == 413
        except (BrokenPipeError, ConnectionResetError):
            pass
    huge = send(server, "GET", "/new", headers={"X-Huge": "x" * 300_000})
    assert huge.status in (400, 431)
    still_answers(server)


def test_cross_origin_posts_are_refused(server: Served) -> None:
    body, headers = _form(action="roll", step="rolls.points")
    for extra in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ):
        answer = send(server, "POST", "/new", body, {**headers, **extra})
        sane(answer, str(extra))
        assert answer.status == 403 and b"another site" in answer.body
    same = send(
        server,
        "POST",
        "/new",
        body,
        {**headers, "Origin": server.url.rstrip("/"), "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status in (303, 409)
    still_answers(server)


def test_another_host_name_is_refused(server: Served) -> None:
    # DNS rebinding: a page of another site whose name now points at 127.0.0.1
    answer = send(server, "GET", "/", headers={"Host": "evil.example:80"})
    assert answer.status == 400
    assert send(server, "GET", "/", headers={"Host": f"localhost:{urlsplit(server.url).port}"}).status == 200


def test_the_policies_on_every_answer(server: Served) -> None:
    page = send(server, "GET", "/new")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "http" not in policy and "unsafe" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in page.headers  # reading a page keeps no state
    body, headers = _form(action="roll", step="rolls.points")
    cookie = send(server, "POST", "/new", body, headers).headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    record = send(server, "GET", "/new/record.html")
    assert record.headers["content-security-policy"].startswith("default-src 'none'")
    assert "frame-ancestors 'self'" in record.headers["content-security-policy"]


def test_no_state_is_shared_between_browsers(server: Served) -> None:
    body, headers = _form(action="take", step="concept", entry="fighter")
    first = send(server, "POST", "/new", body, headers)
    cookie = first.headers["set-cookie"].split(";")[0]
    mine = send(server, "GET", "/new", headers={"Cookie": cookie})
    assert b'name="step" value="rolls.points"' in mine.body and b"Concept:</span> Fighter" in mine.body
    other = send(server, "GET", "/new")
    assert b'name="step" value="concept"' in other.body and b"Fighter</span>" not in other.body
    forged = send(server, "GET", "/new", headers={"Cookie": "chargen_browser=" + "A" * 32})
    assert b'name="step" value="concept"' in forged.body


def test_200_concurrent_requests_are_all_answered(server: Served) -> None:
    paths = ["/", "/new", "/gm", "/static/app.css", "/new/record.html"] * 40
    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda path: send(server, "GET", path).status, paths))
    assert statuses == [200] * 200
    still_answers(server)


def test_a_busy_port_is_one_line_and_exit_2(server: Served) -> None:
    import subprocess
    import sys

    port = str(urlsplit(server.url).port)
    done = subprocess.run(
        [sys.executable, "-m", "chargen", "serve", "--port", port, "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"chargen: error: serve: 127.0.0.1:{port} is in use; give another with --port"
    ]


def test_ctrl_c_stops_cleanly_and_leaves_no_process(tmp_path: Path) -> None:
    with served() as running:
        send(running, "GET", "/")
        body, headers = _form(count="2", seed="1", files="npcs.jsonl")
        send(running, "POST", "/gm", body, headers)
        children = _children(running.process.pid)
        assert children  # the forkserver and the batch
        status = running.stop()
    assert status == 0
    assert running.log[-1] == "chargen serve: stopped"
    assert not any("Traceback" in line for line in running.log)
    # the forkserver sees its server gone and ends too, within moments
    wait_for(lambda: [pid for pid in children if _alive(pid)] == [], seconds=10)


def test_a_non_local_host_says_who_can_reach_it() -> None:
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "chargen", "serve", "--host", "127.0.0.2", "--port", "0", "--no-browser"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    assert "anyone who can reach 127.0.0.2 on port" in line


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found + [
        grandchild for child in found for grandchild in _children(child) if Path(f"/proc/{child}").exists()
    ]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


del os, socket
