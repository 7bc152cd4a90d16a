"""From a click on the new-character page to the Character Record updated beside it, in Debian's Chromium
(Playwright): the walk's own button pressed at each step of a whole walk. Two figures: as the page itself
sees it (the click event to the load event of the record's frame, both on the browser's clock: what a
person waits), and as Playwright sees it (its click call to its seeing the record, which adds its own
round trips to the browser). Not a test (pytest does not collect it); run it by hand:

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

#: Kept across the click's navigation: when the click came, on the browser's clock.
CLICKED = """addEventListener("click", () => sessionStorage.setItem("clicked",
    String(performance.timeOrigin + performance.now())), true);"""
#: Milliseconds from the click to the load event of the record's frame.
IN_PAGE = """() => { const frame = document.querySelector("iframe").contentWindow.performance;
    return frame.timeOrigin + frame.getEntriesByType("navigation")[0].loadEventEnd
        - Number(sessionStorage.getItem("clicked")); }"""


def click_times(url: str, browser: object, walks: int) -> tuple[list[float], list[float]]:
    """Milliseconds from each click to the record's frame loaded, in the page and as Playwright sees it,
    over `walks` whole walks."""
    times: list[float] = []
    in_page: list[float] = []
    for _ in range(walks):
        context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        context.add_init_script(CLICKED)
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
            in_page.append(page.evaluate(IN_PAGE))
        context.close()
    return in_page, times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--walks", type=int, default=3, help="whole walks timed (default 3)")
    args = parser.parse_args()
    with served() as server, chromium() as browser:
        in_page, seen = click_times(server.url, browser, args.walks)
    for label, times in (("in the page", in_page), ("as Playwright sees it", seen)):
        print(
            f"click to updated record, {label}: {len(times)} clicks, median {statistics.median(times):.0f} ms, "
            f"90th percentile {sorted(times)[int(len(times) * 0.9)]:.0f} ms, slowest {max(times):.0f} ms"
        )


if __name__ == "__main__":
    main()
