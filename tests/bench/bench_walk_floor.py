"""The floor of bench_walk_click.py: the same click timed the same way (the click event to the load event of
the record's frame, on the browser's clock), on a copy of one step's page and its record served as plain
files by Python's own http.server. What Chromium alone takes to make the page and its frame; chargen's
figure less this one is what chargen's server adds. Not a test (pytest does not collect it); run it by hand:

    python tests/bench/bench_walk_floor.py [--clicks 40] [--steps 8]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import statistics
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.bench.bench_walk_click import CLICKED, IN_PAGE  # noqa: E402
from tests.serve_support import chromium, served  # noqa: E402

BUTTON = "form.answer button[value=empty]"
FONT_URL = re.compile(r'url\("?(/new/record-fonts/[^")]+)"?\)')


def copy_of_a_step(site: Path, steps: int) -> None:
    """The page and record of a walk `steps` steps in, with the script, style sheet and fonts they use,
    saved under `site` as step.html (whose buttons open step.html again) and record.html."""
    with served() as server, chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(server.url + "new")
        for _ in range(steps):
            with page.expect_navigation():
                page.locator(BUTTON).click()
        html, record = page.content(), page.frames[1].content()
        context.close()
        for path in (
            "static/app.css",
            "static/app.js",
            *(url.lstrip("/") for url in FONT_URL.findall(record)),
        ):
            target = site / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(urllib.request.urlopen(server.url + path).read())
    html = re.sub(r'(src|href)="(/static/app\.(?:css|js))[^"]*"', r'\1="\2"', html)
    html = html.replace('src="/new/record.html"', 'src="/record.html"')
    html = html.replace('method="post"', 'method="get"').replace('action="/new"', 'action="/step.html"')
    (site / "step.html").write_text(html, encoding="utf-8")
    (site / "record.html").write_text(record, encoding="utf-8")


class Files(http.server.SimpleHTTPRequestHandler):
    """The copy, kept by the browser as chargen's answers are: fonts for good, pages never."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        kept = self.path.startswith("/new/record-fonts/")
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if kept else "no-store")
        super().end_headers()


def floor_times(url: str, clicks: int) -> list[float]:
    """Milliseconds from each click to the record's frame loaded, on the static copy."""
    times = []
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(CLICKED)
        page = context.new_page()
        page.goto(url)
        for _ in range(clicks):
            with page.expect_navigation():
                page.locator(BUTTON).click()
            page.frame_locator("iframe").locator("h1").wait_for()
            page.wait_for_load_state("load")
            times.append(page.evaluate(IN_PAGE))
        context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clicks", type=int, default=40, help="clicks timed (default 40)")
    parser.add_argument("--steps", type=int, default=8, help="the walk's step copied (default 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chargen-floor-") as folder:
        copy_of_a_step(Path(folder), args.steps)
        files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Files, directory=folder))
        threading.Thread(target=files.serve_forever, daemon=True).start()
        try:
            times = floor_times(f"http://127.0.0.1:{files.server_port}/step.html", args.clicks)
        finally:
            files.shutdown()
    print(
        f"floor, click to updated record in the page: {len(times)} clicks, median "
        f"{statistics.median(times):.0f} ms, 90th percentile {sorted(times)[int(len(times) * 0.9)]:.0f} ms"
    )


if __name__ == "__main__":
    main()
