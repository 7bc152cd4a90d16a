"""From a click on the new-character page to the Character Record updated beside it, in Debian's Chromium
(Playwright): the walk's own button pressed at each step of a whole walk, timed until the record's frame
has loaded the new record. Not a test (pytest does not collect it); run it by hand:

    python tests/bench/bench_walk_click.py [--walks 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.serve_support import chromium, served, step  # noqa: E402


def click_times(url: str, browser: object, walks: int) -> list[float]:
    """Milliseconds from each click to the record's frame loaded, over `walks` whole walks."""
    times = []
    for _ in range(walks):
        context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(url + "new")
        page.frame_locator("iframe").locator("h1").wait_for()
        while step(page) is not None:
            started = time.perf_counter()
            with page.expect_navigation():
                page.locator("form.answer button[value=empty]").click()
            page.frame_locator("iframe").locator("h1").wait_for()
            page.wait_for_load_state("load")  # the page and its frame's record
            times.append(1000 * (time.perf_counter() - started))
        context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--walks", type=int, default=3, help="whole walks timed (default 3)")
    args = parser.parse_args()
    with served() as server, chromium() as browser:
        times = click_times(server.url, browser, args.walks)
    print(
        f"click to updated record: {len(times)} clicks, median {statistics.median(times):.0f} ms, "
        f"90th percentile {sorted(times)[int(len(times) * 0.9)]:.0f} ms, slowest {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
