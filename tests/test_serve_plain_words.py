"""The new-character page speaks a player's words: walked step by step (a wrong entry refused at each step,
a weapon above the character's PS bought, a shield chosen) and with "Choose the rest for me", at desktop
and phone widths, its visible text holds none of the program's words: key paths, Python values, the
terminal's Enter, chargen's commands, "1 Silver Pennies", "AG -0", lower-cased warnings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.serve_support import Served, press, press_empty, step, type_entry

#: What the page must never show, each with what it would be a sign of.
FORBIDDEN = {
    r"\bNone (Silver|Experience)|: None\b|\bNone,|\(None\)": "Python's None",
    r"\[\d+(, \d+)*\]": "a Python list",
    r"\b(True|False)\b": "a Python truth value",
    r"\bEnter\b(?! the)|\bEnter (to|for|takes|buys|joins|learns)\b": "the terminal's Enter key",
    r"\bchargen (?!DragonQuest)|`|--[a-z]": "a command line",
    r"\b1 Silver Pennies\b": "a singular as plural",
    r"[-\u2212]0\b": "a modifier of zero",
    r"\b1 steps\b": "a singular as plural",
    r"ambidextrous-handed": "a hand word doubled",
    r"\b[a-z_]+(\.[A-Za-z_]+|\[\d+\])+: |(^|Refused: )[a-z_]+: ": "a key path",
    r"\b(ps|md|ag|en|ma|wp) \d|\bd10-": "a code lower-cased",
    r"\((talent|spell|ritual), [IVX]+\)": "a kind and section in brackets",
    r"tables/\w+\.yaml": "a table's file",
}
PATTERNS = [(re.compile(pattern, re.MULTILINE), why) for pattern, why in FORBIDDEN.items()]
WIDTHS = (1280, 390)


def program_words(text: str) -> list[str]:
    """Each forbidden pattern found in the text: what it is, and the line it is on."""
    found = []
    for line in text.splitlines():
        found += [f"{why}: {line.strip()!r}" for pattern, why in PATTERNS if pattern.search(line)]
    return found


@pytest.fixture(params=WIDTHS)
def page(request: Any, browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


def _scanned(page: Any, where: str, found: list[str]) -> None:
    found += [f"{where}: {word}" for word in program_words(page.locator("body").inner_text())]


def _above_ps_or_md(page: Any) -> list[str]:
    """A weapon the purse pays for that is above the character's PS or MD (20.2), if there is one."""
    warned = page.locator("div.choice:not(.refused-choice)").filter(has_text="warning")
    return [warned.first.locator("label").inner_text()] if warned.count() else []


def _buy(page: Any, names: list[str], button: str) -> None:
    """Ticks each of `names` the purse pays for (one it cannot is shown disabled) and buys them; with none
    it can, the step's own choice is taken."""
    page.fill("#entry", "")  # the refused entry, kept to correct, would be taken before the boxes ticked
    role = "checkbox" if button == "Use these" else "radio"
    boxes = [page.get_by_role(role, name=name, exact=True) for name in names]
    affordable = [box for box in boxes if box.is_enabled()]
    if not affordable:
        press_empty(page)
        return
    for box in affordable:
        box.check()
    press(page, button)


#: More steps than any walk has, answered or refused: a step that never moves on fails the test, not hangs.
MOST_STEPS = 60


def test_walked_step_by_step_the_page_shows_no_program_words(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    found: list[str] = []
    for _ in range(MOST_STEPS):
        key = step(page)
        if key is None:
            break
        _scanned(page, key, found)
        if key != "name":
            type_entry(page, "zzz 999")
            press(page, page.locator("form.answer button[value=take]").inner_text())
            _scanned(page, f"{key}, refused", found)
        if key == "weapons":
            _buy(page, ["Dagger", *_above_ps_or_md(page)], "Use these")  # a warning at the next step
        elif key == "shield":
            _buy(page, ["Buckler"], "Use this")
        if step(page) == key:  # the step's own choice, where the purse could not pay for the one bought
            press_empty(page)
    else:
        raise AssertionError(f"the walk did not end in {MOST_STEPS} steps; at {step(page)!r}")
    _scanned(page, "complete", found)
    press(page, "Start again")
    _scanned(page, "asked before starting again", found)
    assert not found, "\n".join(found)


def test_with_the_rest_chosen_the_page_shows_no_program_words(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    found: list[str] = []
    _scanned(page, "first step", found)
    press(page, "Choose the rest for me")
    _scanned(page, "complete", found)
    press(page, "Back one step")
    _scanned(page, "back one step", found)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Grenado: None Silver Pennies", "Python's None"),
        ("rolled [3, 4, 2, 5]: a Pirate", "a Python list"),
        ("costs 1 Silver Pennies", "a singular as plural"),
        ("Protection 1, AG -0", "a modifier of zero"),
        ("This puts aside the 1 steps taken", "a singular as plural"),
        ("ambidextrous-handed", "a hand word doubled"),
        ("Warning: the Claymore needs ps 12 (d10-3 here)", "a code lower-cased"),
        ("Refused: allocation.MD: 23 is not among the values", "a key path"),
        ("Refused: languages: 1 at 100 Experience Points each cost 100", "a key path"),
        ("Sensitivity to Danger (talent, I)", "a kind and section in brackets"),
        ("Your D100, or Enter to roll", "the terminal's Enter key"),
        ("Enter takes 16, near an even share", "the terminal's Enter key"),
        ("as chargen roll --archetype would", "a command line"),
        ("Let chargen choose", "a command line"),
    ],
)
def test_each_program_word_the_page_once_showed_is_caught(text: str, why: str) -> None:
    assert any(word.startswith(why) for word in program_words(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "chargen DragonQuest characters",
        "Enter the numbers, or press Roll the dice for me",
        "Buckler: 5 Silver Pennies; Defense +2 a Rank; no MD loss",
        "Rolled 5 and 4: left-handed",
        "None",
        "Dagger: 1 Silver Penny",
    ],
)
def test_a_players_words_are_not_taken_for_program_words(text: str) -> None:
    assert program_words(text) == []
