"""Walks outlive the browser: Chromium closed and opened again on the same profile (a persisted context)
finds its walk, and Your characters lists the walks put aside, at 1280 and 390 px without sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.serve_support import CHROMIUM, FLAGS, need_browser, press, served, step, type_entry

pytestmark = pytest.mark.slow  # a live `chargen serve` and Chromium


def _opened(playwright: Any, profile: Path, width: int) -> Any:
    return playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=FLAGS,
        headless=True,
        viewport={"width": width, "height": 900},
    )


def test_a_browser_closed_and_opened_again_finds_its_walk(tmp_path: Path) -> None:
    need_browser()
    from playwright.sync_api import sync_playwright

    with served() as server, sync_playwright() as playwright:
        context = _opened(playwright, tmp_path / "profile", 1280)
        page = context.new_page()
        page.goto(server.url + "new")
        type_entry(page, "fighter")
        with page.expect_navigation():
            page.locator("form.answer button[value=take]").click()
        assert step(page) == "rolls.points"
        context.close()  # the browser closed: a session cookie would die here

        for width in (1280, 390):
            context = _opened(playwright, tmp_path / "profile", width)
            page = context.new_page()
            page.goto(server.url + "new")
            if width == 1280:
                assert step(page) == "rolls.points"  # the walk found again
                press(page, "Start again")
                press(page, "Yes, start again")
            page.goto(server.url + "saved")
            # the fighter put aside, listed after the walk in hand, in the browser opened once more
            assert page.locator(".saved > li h2").all_inner_texts()[1] == "Fighter, unfinished"
            scroll = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert scroll <= 0
            page.screenshot(path=str(tmp_path / f"saved-{width}.png"), full_page=True)
            context.close()


def test_a_data_folder_that_cannot_be_written_is_named_once_at_start(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")  # the data folder would be inside a file: nothing is written
    with served(data=blocked) as server:
        # said after the address, which is all `served` waits for: a stop before it cut the news off
        assert str(blocked / "chargen" / "walks") in server.said("walks are kept in memory only")
    assert len([line for line in server.log if "walks are kept in memory only" in line]) == 1
