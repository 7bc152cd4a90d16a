"""How fast `chargen serve`'s page answers, and whether its memory stays flat. Not a test (pytest does not
collect it); run it by hand:

    python tests/bench/bench_serve.py [--pdfs 500] [--runs 20]
    python tests/bench/bench_serve.py --concurrent 200

Reports:
  preview   server time of one update of the walk (the POST of an answer, the step's page, and the
            Character Record's HTML in its frame), in the application, step by step through a whole walk
  pdf       wall time of a PDF download from a running server (loopback), beside WeasyPrint's floor for
            the same page (tests/bench/bench_render.py's `floor`: WeasyPrint alone, stylesheets parsed once)
  memory    the resident memory of the server and its worker processes after 50 PDF downloads and after
            --pdfs of them (the goal: within 10%)
  first     the first PDF download from a server started at once and 10 s before, beside the median of
            the next --runs
  concurrent (with --concurrent N, instead of the above) 20 PDFs one after another, then N PDF requests
            at once: how many were made, refused as busy or not answered within 120 s, the slowest
            answer, and the memory (Pss of the server and its processes) after the 20 and after the N
"""

from __future__ import annotations

import argparse
import collections
import http.client
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.serve_support import served  # noqa: E402

ROLF = REPO / "tests" / "examples" / "rolf.yaml"


def preview_times() -> list[tuple[str, float]]:
    """(step, milliseconds) of each update through a whole walk, in the application itself."""
    import tempfile

    from chargen.web.app import create_app, shared
    from chargen.web.saved import Saved

    app = create_app(saved=Saved(Path(tempfile.mkdtemp(prefix="chargen-bench-"))))
    client = app.test_client()
    client.get("/new")
    client.get("/new/record.html")  # the first render parses the templates and reads the fonts
    times = []
    while True:
        page = client.get("/new").get_data(as_text=True)
        marker = 'name="step" value="'
        if marker not in page:
            break
        step = page.split(marker, 1)[1].split('"', 1)[0]
        started = time.perf_counter()
        client.post("/new", data={"action": "empty", "step": step})
        client.get("/new")
        client.get("/new/record.html")
        times.append((step, 1000 * (time.perf_counter() - started)))
    shared(app).close()
    return times


def _get(url: str, path: str, cookie: str = "") -> tuple[bytes, str]:
    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
    try:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, (path, response.status)
        return body, (response.getheader("Set-Cookie") or "").split(";")[0] or cookie
    finally:
        connection.close()


def _post_file(url: str) -> str:
    """Open Rolf's file in a new browser; its cookie."""
    address = urlsplit(url)
    boundary = "bench"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="rolf.yaml"\r\n\r\n'.encode()
        + ROLF.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
    connection.request(
        "POST",
        "/open",
        body=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    response = connection.getresponse()
    assert response.status == 303
    connection.close()
    return (response.getheader("Set-Cookie") or "").split(";")[0]


def _memory(pid: int) -> int:
    """Resident kB of a process and all its descendants."""
    total = 0
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    for task in Path(f"/proc/{pid}/task").glob("*"):
        for child in (task / "children").read_text().split():
            total += _memory(int(child))
    return total


def floor_times(runs: int) -> list[float]:
    """WeasyPrint's floor for Rolf's record, as tests/bench/bench_render.py measures it (seconds)."""
    from chargen.api import build
    from chargen.tables import load_tables

    spec = importlib.util.spec_from_file_location("bench_render", Path(__file__).parent / "bench_render.py")
    assert spec is not None and spec.loader is not None
    bench_render = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_render)
    tables = load_tables()
    character = build(ROLF.read_text(encoding="utf-8"), tables=tables)
    return [wall for _, wall in bench_render._measure(character, tables, "letter", runs)["floor"]]


def first_pdf(runs: int, settle: float) -> tuple[float, float]:
    """(first, median of the next `runs`) PDF download times of a server started `settle` seconds before
    the first (a player reaches a download later than that), in seconds."""
    with served() as server:
        started = time.perf_counter()
        cookie = _post_file(server.url)
        time.sleep(max(0.0, settle - (time.perf_counter() - started)))
        times = []
        for _ in range(runs + 1):
            started = time.perf_counter()
            _get(server.url, "/open/character.letter.pdf", cookie)
            times.append(time.perf_counter() - started)
    return times[0], statistics.median(times[1:])


def concurrent(count: int) -> None:
    """20 PDFs one after another, then `count` requests at once (see the module's text)."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.processes import tree_pss_mb

    def ask(cookie: str, url: str) -> tuple[int | str, float]:
        started = time.perf_counter()
        address = urlsplit(url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
        try:
            connection.request("GET", "/open/character.letter.pdf", headers={"Cookie": cookie})
            response = connection.getresponse()
            response.read()
            return response.status, time.perf_counter() - started
        except (OSError, http.client.HTTPException) as error:
            return type(error).__name__, time.perf_counter() - started
        finally:
            connection.close()

    with served() as server:
        cookie = _post_file(server.url)
        for _ in range(20):
            _get(server.url, "/open/character.letter.pdf", cookie)
        after_20 = tree_pss_mb(server.process.pid)
        started = time.perf_counter()
        with ThreadPoolExecutor(count) as threads:
            answers = list(threads.map(lambda _: ask(cookie, server.url), range(count)))
        took = time.perf_counter() - started
        after = tree_pss_mb(server.process.pid)
    statuses = collections.Counter(status for status, _ in answers)
    print(
        f"concurrent: {count} PDF requests at once, all answered in {took:.1f} s: "
        + ", ".join(f"{number} {status}" for status, number in sorted(statuses.items(), key=str))
        + f"; slowest answer {max(seconds for _, seconds in answers):.1f} s"
    )
    print(
        f"memory: {after_20:.0f} MB (Pss) after 20 PDFs, {after:.0f} MB after the {count} ({after / after_20:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pdfs", type=int, default=500, help="PDF downloads in a row (default 500)")
    parser.add_argument("--runs", type=int, default=20, help="PDFs timed, and floor runs (default 20)")
    parser.add_argument("--concurrent", type=int, default=0, help="PDF requests at once (see above)")
    args = parser.parse_args()
    if args.concurrent:
        concurrent(args.concurrent)
        return
    for settle in (0, 10):
        first, later = first_pdf(args.runs, settle)
        print(
            f"first: the first PDF of a server started {settle} s before {first * 1000:.0f} ms, the next "
            f"{later * 1000:.0f} ms (median of {args.runs}; {first / later:.2f}x)"
        )
    steps = preview_times()
    values = [ms for _, ms in steps]
    print(
        f"preview: {len(steps)} updates, median {statistics.median(values):.1f} ms, "
        f"slowest {max(values):.1f} ms ({max(steps, key=lambda item: item[1])[0]})",
        flush=True,
    )
    floor = floor_times(args.runs)
    with served() as server:
        cookie = _post_file(server.url)
        pdf_times, after_50 = [], 0
        for number in range(1, args.pdfs + 1):
            started = time.perf_counter()
            _get(server.url, "/open/character.letter.pdf", cookie)
            if number <= args.runs + 2 and number > 2:  # the first two start the workers
                pdf_times.append(time.perf_counter() - started)
            if number == 50:
                after_50 = _memory(server.process.pid)
            if number % 50 == 0:
                print(f"  {number} PDFs: {_memory(server.process.pid) / 1024:.0f} MB", flush=True)
        after_all = _memory(server.process.pid)
    print(
        f"pdf: download median {statistics.median(pdf_times) * 1000:.0f} ms; WeasyPrint's floor "
        f"{statistics.median(floor) * 1000:.0f} ms ({args.runs} each)"
    )
    change = 100 * (after_all - after_50) / after_50 if after_50 else 0
    print(
        f"memory: {after_50 / 1024:.0f} MB after 50 PDFs, {after_all / 1024:.0f} MB after {args.pdfs} "
        f"({change:+.1f}%)"
    )


if __name__ == "__main__":
    main()
