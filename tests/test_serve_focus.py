"""The new-character page after a step: the focus is on the step (its heading, or the field the walk
refused), not on the page's body; on a phone the steps taken are folded under "Decided so far" until
asked for (the step comes first), on a desktop they are open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.serve_support import Served, press, press_empty, step, type_entry


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    opened = browser.new_context(viewport={"width": 1280, "height": 900})
    yield opened
    opened.close()


def _focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def test_after_a_step_the_focus_is_on_the_next_steps_heading(context: Any, server: Served) -> None:
    page = context.new_page()
    page.goto(server.url + "new")
    for _ in range(3):
        press_empty(page)
        assert _focused(page) == "step-title", step(page)


def test_after_a_refusal_the_focus_is_on_the_refused_entry(context: Any, server: Served) -> None:
    page = context.new_page()
    page.goto(server.url + "new")
    press_empty(page)  # the concept: any
    type_entry(page, "zzz")
    press(page, "Use my dice")
    assert page.locator("#refused").count() == 1
    assert _focused(page) == "entry"


@pytest.mark.parametrize(("width", "folded"), [(390, True), (1280, False)])
def test_the_steps_taken_are_folded_on_a_phone_only(
    browser: Any, server: Served, width: int, folded: bool
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    try:
        page.goto(server.url + "new")
        for _ in range(4):
            press_empty(page)
        steps = page.locator("#decided-steps")
        assert steps.evaluate("details => details.open") is not folded
        assert page.locator("ul.taken li").first.is_visible() is not folded
        if folded:  # a section's link in the stepper opens them
            page.locator(".stepper a[href^='#done-']").first.click()
            assert steps.evaluate("details => details.open")
    finally:
        context.close()
