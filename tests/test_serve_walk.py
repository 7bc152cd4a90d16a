"""`chargen serve`'s new-character page in a real Chromium: the whole walk with the player's own
dice, with "Roll for me" throughout, back across steps, a wrong entry refused at each step with its
reason; the downloads are what `chargen build` and `chargen render` make of the file; keyboard alone works;
nothing is fetched from anywhere but the server."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from tests.serve_support import Requests, Served, press, press_empty, step, type_entry

pytestmark = pytest.mark.slow  # a server or a browser

_DICE = re.compile(r"(\d*)D(\d+)")


@pytest.fixture
def page(browser: Any, server: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    opened = context.new_page()
    opened.requests = Requests(opened)
    yield opened
    assert opened.requests.outside(server.url) == []  # no request leaves the server's own address
    context.close()


#: The player's own choices where a step offers controls (values of its choices).
CHOSEN = {
    "concept": ["fighter"],
    "optional": ["PB"],
    "gender": ["female"],
    "race_attempts[0]": ["elf"],
    "weapons": ["dagger"],
    "armor": ["leather"],
}


def own_entry(page: Any, key: str) -> str:
    """Enter at this step what a player who rolled their own dice would, with the step's controls (dice in
    their fields, choices ticked) or, where there are none, typed; the entry as the file records it."""
    numbers = page.locator("input[name=number]")
    if key == "name":
        type_entry(page, "Aelinor <b>Thrain</b>")
        return "Aelinor <b>Thrain</b>"
    if key in CHOSEN:
        for value in CHOSEN[key]:
            page.locator(f"input[name=choice][value='{value}']").check()
        return ", ".join(CHOSEN[key])
    if numbers.count() and not key.startswith("allocation."):  # 5.2: an even share, the step's own button
        values = []
        for index in range(numbers.count()):
            field = numbers.nth(index)
            low, high = int(field.get_attribute("min")), int(field.get_attribute("max"))
            value = 1 if key.startswith("rolls.race[") else max(low, high - 1)
            field.fill(str(value))
            values.append(str(value))
        return " ".join(values)
    return ""


def test_a_whole_walk_with_the_players_own_dice(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "new")
    entered: dict[str, str] = {}
    while (key := step(page)) is not None:
        entered[key] = own_entry(page, key)
        if entered[key] or key == "name":
            press(page, page.locator("form.answer button[value=take]").inner_text())
        else:
            press_empty(page)
        assert not page.locator(".refused").count(), (
            key,
            entered[key],
            page.locator(".refused").inner_text(),
        )
        assert step(page) != key
    assert page.locator("h2", has_text="is complete").inner_text() == "Aelinor <b>Thrain</b> is complete"
    document = _download(page, "character file (YAML)", tmp_path / "walked.yaml")
    data = yaml.safe_load(document.read_text(encoding="utf-8"))
    assert data["rolls"]["points"] == 18  # 9 and 9, as typed
    assert data["race"] == "elf" and data["gender"] == "female" and data["name"] == "Aelinor <b>Thrain</b>"
    assert data["rolls"]["hand"] == [4, 9]
    built = _chargen("build", str(document))
    assert built == document.read_text(encoding="utf-8")  # `chargen build` gives the same character
    pdf = _download(page, "PDF of the Character Record (Letter)", tmp_path / "walked.pdf")
    _chargen("render", str(document), "--pdf", str(tmp_path / "rendered.pdf"))
    assert pdf.read_bytes() == (tmp_path / "rendered.pdf").read_bytes()
    a4 = _download(page, "PDF of the Character Record (A4)", tmp_path / "walked-a4.pdf")
    _chargen("render", str(document), "--pdf", str(tmp_path / "a4.pdf"), "--paper", "a4")
    assert a4.read_bytes() == (tmp_path / "a4.pdf").read_bytes()
    fillable = _download(
        page, "PDF of the Character Record (fillable, Letter)", tmp_path / "walked-fillable.pdf"
    )
    _chargen("render", str(document), "--pdf", str(tmp_path / "fillable.pdf"), "--fillable")
    assert fillable.read_bytes() == (tmp_path / "fillable.pdf").read_bytes()
    assert "endurance_current" in (PdfReader(fillable).get_fields() or {})  # form fields, as --fillable
    html = _download(page, "HTML page of the Character Record", tmp_path / "walked.html")
    _chargen("render", str(document), "--html", str(tmp_path / "rendered.html"))
    assert html.read_bytes() == (tmp_path / "rendered.html").read_bytes()


def test_the_empty_entry_button_throughout(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "new")
    steps = 0
    while step(page) is not None:
        press_empty(page)
        steps += 1
        assert steps < 80
    assert page.locator("ul.taken li").count() == steps + 5  # 5.2's one control answers its six steps
    document = _download(page, "character file (JSON)", tmp_path / "rolled.json")
    assert _chargen("build", str(document), "--format", "json") == document.read_text(encoding="utf-8")


def test_back_across_steps_asks_first_and_undo_brings_them_back(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    keys = []
    for _ in range(5):
        keys.append(step(page))
        press_empty(page)
    done = page.locator("ul.taken li").count()
    assert done == 10  # 5.2's one control answers its six steps at once
    press(page, "Back one step")
    assert step(page) == keys[4] and page.locator("ul.taken li").count() == done - 1
    back = page.get_by_role("button", name="Back to here").nth(1)
    press(page, back.get_attribute("aria-label"))
    assert page.get_by_role("alertdialog").count() == 1  # it drops later steps: asked first
    assert page.locator("ul.taken li").count() == done - 1
    press(page, "Yes, go back")
    assert step(page) == keys[1] and page.locator("ul.taken li").count() == 1
    press(page, "Undo: bring it back")
    assert step(page) == keys[4] and page.locator("ul.taken li").count() == done - 1
    type_entry(page, "999")
    press(page, page.locator("form.answer button[value=take]").inner_text())
    assert step(page) == keys[4]  # refused: still here


#: The steps of the walk today whose every entry is checked (a name is anything the player likes, 8.8).
CHECKED = (
    "concept",
    "rolls.",
    "allocation.",
    "optional",
    "gender",
    "race_attempts[",
    "weapons",
    "armor",
    "shield",
    "skills",
)


def test_a_wrong_entry_at_each_step_is_refused_with_its_reason(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    refused = 0
    while (key := step(page)) is not None:
        taken = page.locator("ul.taken li").count()
        type_entry(page, "999 fathoms")
        press(page, page.locator("form.answer button[value=take]").inner_text())
        if step(page) != key:  # taken: a step that takes any text (the name; a step newer than this test)
            assert not key.startswith(CHECKED), key
            press(page, "Back one step")
        else:
            alert = page.locator("#refused")
            assert alert.get_attribute("role") == "alert"
            assert alert.inner_text().startswith("Refused: "), key
            assert len(alert.inner_text()) > len("Refused: ") + 10
            assert page.locator("ul.taken li").count() == taken
            assert page.locator("#entry").input_value() == "999 fathoms"  # kept, to correct
            assert page.locator("#entry").get_attribute("aria-invalid") == "true"
            refused += 1
        assert step(page) == key
        press_empty(page)
    assert refused >= 15


def _download(page: Any, label: str, target: Path) -> Path:
    with page.expect_download() as info:
        page.get_by_role("link", name=label, exact=True).click()
    info.value.save_as(target)
    return target


def _chargen(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "chargen", *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
