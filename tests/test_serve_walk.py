"""`chargen serve`'s new-character page in a real Chromium (issue 32): the whole walk with the player's own
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

from tests.serve_support import Requests, Served, chromium, press, served

_DICE = re.compile(r"(\d*)D(\d+)")


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with served() as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Any, server: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    opened = context.new_page()
    opened.requests = Requests(opened)
    yield opened
    assert opened.requests.outside(server.url) == []  # no request leaves the server's own address
    context.close()


def step(page: Any) -> str | None:
    """The key of the step the page shows (None: the walk is done)."""
    field = page.locator("form.answer input[name=step]")
    return field.get_attribute("value") if field.count() else None


def own_entry(key: str, ask: str) -> str:
    """What a player who rolled their own dice types at this step (a valid entry of the question)."""
    chosen = {
        "optional": "PB",
        "gender": "female",
        "race_attempts[0]": "Elf",
        "weapons": "Dagger",
        "armor": "Leather",
        "shield": "",
        "skills": "",
        "name": "Aelinor <b>Thrain</b>",
    }
    if key in chosen:
        return chosen[key]
    if key.startswith("allocation."):
        return re.search(r"Enter for (\d+)", ask).group(1)  # type: ignore[union-attr]
    if key.startswith("rolls.race["):
        return "1"  # at or under any race's chance: this race
    dice = [int(side) for count, side in _DICE.findall(ask.split(",")[0]) for _ in range(int(count or 1))]
    if dice:
        return " ".join(str(max(1, side - 1)) for side in dice)
    return ""  # a step this test does not know (a newer step of the walk): its Enter choice, typed


def test_a_whole_walk_with_the_players_own_dice(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "new")
    entered: dict[str, str] = {}
    while (key := step(page)) is not None:
        ask = page.locator("label[for=entry]").inner_text()
        entered[key] = own_entry(key, ask)
        page.fill("#entry", entered[key])
        press(page, "Use my entry")
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
    pdf = _download(page, "Character Record, PDF (Letter)", tmp_path / "walked.pdf")
    _chargen("render", str(document), "--pdf", str(tmp_path / "rendered.pdf"))
    assert pdf.read_bytes() == (tmp_path / "rendered.pdf").read_bytes()
    a4 = _download(page, "Character Record, PDF (A4)", tmp_path / "walked-a4.pdf")
    _chargen("render", str(document), "--pdf", str(tmp_path / "a4.pdf"), "--paper", "a4")
    assert a4.read_bytes() == (tmp_path / "a4.pdf").read_bytes()
    fillable = _download(page, "fillable Character Record, PDF (Letter)", tmp_path / "walked-fillable.pdf")
    _chargen("render", str(document), "--pdf", str(tmp_path / "fillable.pdf"), "--fillable")
    assert fillable.read_bytes() == (tmp_path / "fillable.pdf").read_bytes()
    assert "endurance_current" in (PdfReader(fillable).get_fields() or {})  # form fields, as --fillable
    html = _download(page, "Character Record (HTML)", tmp_path / "walked.html")
    _chargen("render", str(document), "--html", str(tmp_path / "rendered.html"))
    assert html.read_bytes() == (tmp_path / "rendered.html").read_bytes()


def test_roll_for_me_throughout(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "new")
    steps = 0
    while step(page) is not None:
        press(page, "Roll for me")
        steps += 1
        assert steps < 80
    assert page.locator("ol.taken li").count() == steps
    document = _download(page, "character file (JSON)", tmp_path / "rolled.json")
    assert _chargen("build", str(document), "--format", "json") == document.read_text(encoding="utf-8")


def test_back_across_steps(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    keys = []
    for _ in range(5):
        keys.append(step(page))
        press(page, "Roll for me")
    assert page.locator("ol.taken li").count() == 5
    press(page, "Back one step")
    assert step(page) == keys[4] and page.locator("ol.taken li").count() == 4
    press(page, f"Back to here: step 2, {keys[1]}")
    assert step(page) == keys[1] and page.locator("ol.taken li").count() == 1
    page.fill("#entry", "999")
    press(page, "Use my entry")
    assert step(page) == keys[1]  # refused: still here
    press(page, "Back one step")
    assert step(page) == keys[0] and page.locator("ol.taken li").count() == 0
    assert page.get_by_role("button", name="Back one step").is_disabled()


#: The steps of the walk today whose every entry is checked (a name is anything the player likes, 8.8).
CHECKED = (
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
        taken = page.locator("ol.taken li").count()
        page.fill("#entry", "999 fathoms")
        press(page, "Use my entry")
        if step(page) != key:  # taken: a step that takes any text (the name; a step newer than this test)
            assert not key.startswith(CHECKED), key
            press(page, "Back one step")
        else:
            alert = page.get_by_role("alert")
            assert alert.inner_text().startswith("Refused: "), key
            assert len(alert.inner_text()) > len("Refused: ") + 10
            assert page.locator("ol.taken li").count() == taken
            assert page.locator("#entry").input_value() == "999 fathoms"  # kept, to correct
            assert page.locator("#entry").get_attribute("aria-invalid") == "true"
            refused += 1
        assert step(page) == key
        press(page, "Roll for me")
    assert refused >= 15


def test_keyboard_alone(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "new")
    first = step(page)
    assert page.evaluate("document.activeElement.id") == "entry"  # the entry has the focus
    page.keyboard.type("7 8")
    with page.expect_navigation():
        page.keyboard.press("Enter")  # Enter in the field: "Use my entry"
    assert page.locator("ol.taken li").first.inner_text().startswith("rolls.points 15:")
    while (key := step(page)) is not None:
        assert page.evaluate("document.activeElement.id") == "entry", key
        page.keyboard.press("Tab")  # Use my entry
        page.keyboard.press("Tab")  # Roll for me
        assert page.evaluate("document.activeElement.textContent") == "Roll for me"
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert step(page) != key
    assert first == "rolls.points"
    links = []
    page.keyboard.press("Tab")
    links.append(page.evaluate("document.activeElement.textContent"))
    assert links == ["Skip to the page"]
    for _ in range(30):  # on to the first download, by Tab alone
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "character file (YAML)":
            break
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    info.value.save_as(tmp_path / "keyboard.yaml")
    assert yaml.safe_load((tmp_path / "keyboard.yaml").read_text(encoding="utf-8"))["rolls"]["points"] == 15


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
