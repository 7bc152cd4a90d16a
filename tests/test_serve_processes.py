"""`chargen serve` under load and stops, as a real server on 127.0.0.1 (every load bounded): PDFs keep
coming after a burst, the page answers while PDFs are made and says when it is busy, and Ctrl-C, SIGTERM
and SIGKILL leave no process (and, at the next start, no folder) behind."""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest

from tests.processes import alive, end, tree, wait_until
from tests.serve_support import Served, served

ROLF = Path(__file__).parent / "examples" / "rolf.yaml"
#: Rolf with as many long notes as a file may hold: a Character Record of many pages that takes
#: WeasyPrint several seconds, so that a stop comes while the PDF is being made.
HEAVY_NOTES = 200
NOTE = " ".join(["a note the player wrote down at the table"] * 10)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads processes from /proc"),
]  # a server or a browser


def heavy_rolf() -> str:
    return (
        ROLF.read_text(encoding="utf-8")
        + "notes:\n"
        + "".join(f"  - n{i} {NOTE}\n" for i in range(HEAVY_NOTES))
    )


def request(
    url: str,
    method: str,
    path: str,
    *,
    cookie: str = "",
    body: bytes = b"",
    kind: str = "",
    timeout: float = 60,
) -> tuple[int, bytes, str]:
    """(status, body, cookie) of one request on a connection of its own."""
    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
    headers = {"Cookie": cookie} if cookie else {}
    if kind:
        headers["Content-Type"] = kind
    try:
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        return (
            response.status,
            response.read(),
            (response.getheader("Set-Cookie") or "").split(";")[0] or cookie,
        )
    finally:
        connection.close()


def open_file(url: str, text: str) -> str:
    """A new browser opens `text` as its character file; its cookie."""
    boundary = "chargen-test"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="rolf.yaml"\r\n\r\n{text}'
        f"\r\n--{boundary}--\r\n"
    ).encode()
    status, _, cookie = request(
        url, "POST", "/open", body=body, kind=f"multipart/form-data; boundary={boundary}"
    )
    assert status == 303
    return cookie


def pdf(url: str, cookie: str, timeout: float = 60) -> tuple[int, bytes]:
    status, body, _ = request(url, "GET", "/open/character.letter.pdf", cookie=cookie, timeout=timeout)
    return status, body


def pdf_meanwhile(url: str, cookie: str) -> None:
    """A PDF asked for in a thread of its own, whose answer the test does not wait for (a stop may cut
    it off)."""

    def ask() -> None:
        with contextlib.suppress(OSError, http.client.HTTPException):
            pdf(url, cookie)

    threading.Thread(target=ask, daemon=True).start()


def start_gm_batch(url: str, count: int) -> str:
    """A GM's batch of `count` NPCs with their Character Records, started; the browser's cookie."""
    form = urlencode({"count": str(count), "seed": "5", "files": "records.pdf"}).encode()
    status, _, cookie = request(url, "POST", "/gm", body=form, kind="application/x-www-form-urlencoded")
    assert status == 303
    return cookie


def in_threads(count: int, work: Callable[[int], Any], timeout: float) -> list[Any]:
    """`work(index)` in `count` threads at once; what each returned or raised, all within `timeout`."""
    results: list[Any] = [TimeoutError("no answer")] * count

    def run(index: int) -> None:
        try:
            results[index] = work(index)
        except Exception as error:  # the test reads it
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,), daemon=True) for index in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    return results


def workers_busy(server: Served, count: int, within: float = 60) -> set[int]:
    """The server's processes once at least `count` besides the server run (its workers started)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = set(tree(server.process.pid)) - {server.process.pid}
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"the server never started {count} processes")


def gone_within(pids: set[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def still_open(connection: socket.socket) -> bool:
    """Whether the server has neither closed `connection` nor answered on it."""
    connection.setblocking(False)
    try:
        connection.recv(1)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        connection.setblocking(True)
    return False


def pdfs_answered_as_they_come(url: str, cookie: str, count: int, answered: list[int]) -> threading.Thread:
    """`count` PDFs asked for at once, in a thread; each one's status put in `answered` as soon as its
    answer's head arrives (before its body is read)."""

    def ask(_: int) -> None:
        address = urlsplit(url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
        try:
            connection.request("GET", "/open/character.letter.pdf", headers={"Cookie": cookie})
            response = connection.getresponse()
            answered.append(response.status)
            response.read()
        finally:
            connection.close()

    asking = threading.Thread(target=in_threads, args=(count, ask, 150), daemon=True)
    asking.start()
    return asking


def cpu_ticks(pid: int) -> int | None:
    """The CPU time `pid` has used, user and system, in clock ticks (/proc/PID/stat); None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


class Work:
    """The CPU the server's processes besides itself (its workers) have used: counted work, which a loaded
    machine does not stretch as it stretches time. A process that ends keeps its last reading."""

    def __init__(self, server: Served) -> None:
        self.server = server
        self.seen: dict[int, int] = {}

    def done(self) -> int:
        for pid in {*tree(self.server.process.pid)[1:], *self.seen}:
            ticks = cpu_ticks(pid)
            if ticks is not None:
                self.seen[pid] = max(ticks, self.seen.get(pid, 0))
        return sum(self.seen.values())

    def one_pdf(self, cookie: str) -> int:
        """What a heavy PDF costs the workers: the least of two made one after the other (the first may
        share the workers with their warm-up)."""
        costs = []
        for _ in range(2):
            before = self.done()
            status, _ = pdf(self.server.url, cookie)
            assert status == 200
            costs.append(self.done() - before)
        return min(costs)


@pytest.fixture
def temporary(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The servers' temporary folder (TMPDIR), where the test sees what they leave: a short path, for
    the fork server's socket is in it and a socket's path is at most 107 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="chargen-test-", dir="/tmp"))
    monkeypatch.setenv("TMPDIR", str(folder))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_pdfs_keep_coming_after_a_burst(temporary: Path) -> None:
    """After 8 PDFs at once, PDFs one at a time stopped for good at about the 42nd to
    51st (the old pool's max_tasks_per_child with a backlog). Every PDF comes back."""
    with served() as server:
        cookie = open_file(server.url, ROLF.read_text(encoding="utf-8"))
        # The eighth waits for seven others on two workers: 60 s, for a machine loaded by other work.
        burst = in_threads(8, lambda _: pdf(server.url, cookie, timeout=60), timeout=90)
        statuses = [made[0] if isinstance(made, tuple) else repr(made) for made in burst]
        assert statuses == [200] * 8
        for number in range(70):  # each waited for (at most 30 s): the old pool's never came
            status, body = pdf(server.url, cookie, timeout=30)
            assert (status, body[:5]) == (200, b"%PDF-"), number


def test_the_page_answers_while_pdfs_are_made_and_says_when_it_is_busy(temporary: Path) -> None:
    """Nine heavy PDFs made the page wait 7 s, with no word of being busy: every request thread waited
    on a PDF, and the page had one only once a PDF was answered. Now PDFs past the bound are refused at
    once with a clear page, and the page answers while no PDF has been."""
    with served() as server:
        cookie = open_file(server.url, heavy_rolf())
        answered: list[int] = []
        asking = pdfs_answered_as_they_come(server.url, cookie, 12, answered)
        wait_until(lambda: 503 in answered, "a PDF past the bound refused", seconds=60)
        status, page, _ = request(server.url, "GET", "/", timeout=30)
        assert status == 200 and b"chargen" in page
        status, page = pdf(server.url, cookie)
        assert status == 503
        assert "the server is busy with other PDFs; try again in a moment" in page.decode()
        # heavy PDFs take their workers seconds: none was answered, so neither answer waited on one
        assert 200 not in answered, answered
        server.stop()
        asking.join(timeout=30)


def test_slow_connections_do_not_keep_the_page_from_others(temporary: Path) -> None:
    """99 connections that send half a request and wait made `GET /` time out for 36 s: the server took no
    more connections until the idle ones were closed."""
    with served() as server:
        address = urlsplit(server.url)
        slow = []
        try:
            for _ in range(150):
                connection = socket.create_connection((address.hostname, address.port), timeout=10)
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                slow.append(connection)
            status, _, _ = request(server.url, "GET", "/", timeout=30)
            assert status == 200
            # answered with every slow connection still open: none was closed (at its idle timeout) to
            # let the page in
            assert [connection for connection in slow if not still_open(connection)] == []
        finally:
            for connection in slow:
                connection.close()


def test_many_pdfs_at_once_are_all_answered(temporary: Path) -> None:
    """A bounded version of the bench's 200 (tests/bench/bench_serve.py --concurrent): 40 PDF requests
    at once are each made or refused as busy, none left hanging."""
    with served() as server:
        cookie = open_file(server.url, ROLF.read_text(encoding="utf-8"))
        answers = in_threads(40, lambda _: pdf(server.url, cookie, timeout=90), timeout=100)
    statuses = sorted(answer[0] if isinstance(answer, tuple) else repr(answer) for answer in answers)
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(200) >= 2


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_mid_pdf_ends_the_server_and_its_processes_at_once(
    temporary: Path, signum: signal.Signals
) -> None:
    """Once, a stop waited for the PDF being made (85 s), each logging waitress's 'Bad file
    descriptor'. Now the server ends at once: its workers do not make the rest of the PDF, and it leaves
    no process and no temporary folder."""
    with served() as server:
        cookie = open_file(server.url, heavy_rolf())
        work = Work(server)
        whole = work.one_pdf(cookie)
        pdf_meanwhile(server.url, cookie)
        processes = workers_busy(server, 3)  # the fork server and its two workers
        begun = work.done()
        wait_until(lambda: work.done() - begun >= whole // 4, "a quarter of the PDF made", seconds=120)
        try:
            stopped = work.done()
            server.process.send_signal(signum)
            server.process.wait(timeout=30)

            def ended() -> bool:
                work.done()  # each worker's CPU read up to its last tick
                return not any(alive(pid) for pid in processes)

            wait_until(ended, "its processes gone", seconds=30)
            # three quarters of the PDF were left to make: the workers ended without making them
            assert work.done() - stopped < whole // 2, (work.done() - stopped, whole)
        finally:
            end(processes)
        server.stop()
    assert server.process.returncode == 0
    assert server.log[1:] == ["chargen serve: stopped"], "\n".join(server.log)
    assert list(temporary.iterdir()) == []


def flood(url: str, until: threading.Event) -> None:
    """Requests read a header line at a time, over and over, until `until` is set: the server's loop is
    nearly always reading one when a signal comes."""
    address = urlsplit(url)
    head = b"GET /no-such-page HTTP/1.1\r\nHost: %s\r\n" % address.netloc.encode()
    while not until.is_set():
        with (
            contextlib.suppress(OSError),
            socket.create_connection((address.hostname, address.port), timeout=5) as connection,
        ):
            connection.sendall(head)
            for _ in range(20):
                connection.sendall(b"X-Filler: 1\r\n")
            connection.sendall(b"\r\n")
            connection.recv(64)


def test_ctrl_c_stops_a_server_busy_reading_requests() -> None:
    """A signal that came while the server's loop read a request was swallowed by waitress's catch-all for
    that connection (it lets only KeyboardInterrupt and SystemExit through): the server ran on, in two
    stops of three. Every stop now ends it."""
    for _ in range(3):
        with served() as server:
            until = threading.Event()
            clients = [threading.Thread(target=flood, args=(server.url, until)) for _ in range(12)]
            for client in clients:
                client.start()
            try:
                time.sleep(1.5)
                server.process.send_signal(signal.SIGINT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.process.wait(timeout=30)  # a swallowed signal: it runs on for good
                assert server.process.poll() == 0, "Ctrl-C did not stop the server"
            finally:
                until.set()
                for client in clients:
                    client.join()
        assert server.log[1:] == ["chargen serve: stopped"], "\n".join(server.log)


def test_ctrl_c_during_a_gm_batch_and_a_pdf_leaves_no_process(temporary: Path) -> None:
    with served() as server:
        open_cookie = open_file(server.url, heavy_rolf())
        start_gm_batch(server.url, 300)
        pdf_meanwhile(server.url, open_cookie)
        processes = workers_busy(server, 5)  # fork server, two PDF workers, the batch and its worker
        time.sleep(1)
        try:
            server.stop()
            assert gone_within(processes, 5) == []
        finally:
            end(processes)
    assert server.log[1:] == ["chargen serve: stopped"], "\n".join(server.log)
    assert list(temporary.iterdir()) == []


def test_a_killed_server_leaves_no_process_and_its_folders_go_at_the_next_start(temporary: Path) -> None:
    """After SIGKILL a worker, the fork server and the resource tracker lived on, and a
    running GM batch finished as an orphan and left its `chargen-serve-*` folder."""
    with served() as server:
        cookie = open_file(server.url, heavy_rolf())
        start_gm_batch(server.url, 300)
        pdf_meanwhile(server.url, cookie)
        processes = workers_busy(server, 5)
        time.sleep(1)
        try:
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=10)
            assert gone_within(processes, 5) == []
        finally:
            end(processes)
    left = sorted(path.name.rsplit("-", 1)[0] for path in temporary.iterdir())
    killed = server.process.pid
    assert left == [f"chargen-serve-{killed}"]  # everything it made is in its own folder
    with served():
        assert [path for path in temporary.iterdir() if str(killed) in path.name] == []
