"""The new-character page as a player meets it, in Debian's Chromium: a concept and "Choose the rest for me"
by keyboard alone give a character worth playing, at desktop and phone widths; a walk survives a reload
and a server restart; "Start again" asks first and is undone; no step is titled by a file key; the record
shows a dash for what is not decided yet."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from chargen.rules.combat import armor_cost
from chargen.tables import load_tables
from tests.serve_support import Served, press, press_empty, served, step

pytestmark = pytest.mark.slow  # a server or a browser

#: What a key path of the character file looks like (`rolls.race[0]`, `allocation.PS`, `race_attempts`).
KEY_PATH = re.compile(r"\b(rolls|allocation|race_attempts|weapons|race_type)(\.|\[|_)\w*")


def _tab_to(page: Any, check: str) -> int:
    """Tab until the focused element passes `check` (a JavaScript expression on `el`); the Tabs taken."""
    for tabs in range(1, 80):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return {check}; }})()"):
            return tabs
    raise AssertionError(f"no element reached by Tab passes {check}")


def _download_by_keyboard(page: Any, label: str, target: Path) -> Path:
    _tab_to(page, f"el.textContent === {label!r}")
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    info.value.save_as(target)
    return target


@pytest.mark.parametrize("width", [1280, 390])
def test_a_concept_and_choose_the_rest_by_keyboard_alone(
    browser: Any, server: Served, tmp_path: Path, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto(server.url + "new")
    activations = 0
    _tab_to(page, "el.name === 'choice'")  # the concepts, one radio group: Tab reaches the first
    while page.evaluate("document.activeElement.value") != "fighter":
        page.keyboard.press("ArrowDown")  # moving in a radio group chooses; Space makes sure
    page.keyboard.press("Space")
    activations += 1
    _tab_to(page, "el.textContent === 'Choose the rest for me'")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    activations += 1
    assert step(page) is None and page.locator("h2", has_text="is complete").count() == 1
    document = _download_by_keyboard(page, "character file (YAML)", tmp_path / "hero.yaml")
    pdf = _download_by_keyboard(page, "PDF of the Character Record (Letter)", tmp_path / "hero.pdf")
    activations += 2
    context.close()
    assert activations <= 10
    _worth_playing(yaml.safe_load(document.read_text(encoding="utf-8")))
    built = tmp_path / "built.pdf"
    subprocess.run(
        [sys.executable, "-m", "chargen", "build", str(document), "--pdf", str(built)],
        check=True,
        timeout=120,
    )
    assert pdf.read_bytes() == built.read_bytes()


def _worth_playing(data: dict[str, Any]) -> None:
    """As `chargen roll --archetype fighter` makes one: race tried; armed and armoured unless the purse
    left could buy none of the fighter's weapons or armor (a poor fighter goes without, 18.1); and no
    Experience left that the fighter's abilities (tables/archetypes.yaml) could have bought at Rank 0 (8.6)."""
    tables = load_tables()
    assert data["archetype"] == "fighter"
    assert len(data["race_attempts"]) >= 1
    fighter, purse = tables.archetypes["fighter"], data["silver_pennies"]
    size, human_size = tables.races[data["race"]].size, tables.armor_file.human_size
    armor_prices = [armor_cost(tables.armor[name], size, human_size) for name in fighter.armor]
    weapon_prices = [tables.weapons[item.name].cost or 0 for item in fighter.weapons]
    assert data.get("weapons") or min(weapon_prices) > purse
    assert data.get("armor") or min(armor_prices) > purse
    left = data.get("experience_bank", data["experience_points"])
    cost = tables.abilities.experience.rank_zero_skill.cost
    bought = {skill["name"] for skill in data.get("skills") or []}
    wanted = {skill.name for skill in tables.archetypes["fighter"].abilities.skills}
    assert wanted <= bought or left < cost


def test_a_walk_survives_a_reload_and_a_server_restart(browser: Any, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    with served(data=tmp_path) as first:
        page.goto(first.url + "new")
        for _ in range(4):
            press_empty(page)
        where, taken = step(page), page.locator("ul.taken li").all_inner_texts()
        page.reload()
        assert (step(page), page.locator("ul.taken li").all_inner_texts()) == (where, taken)
    with served(data=tmp_path) as second:  # the same data folder, a new server (and a new port)
        page.goto(second.url)
        assert f"{len(taken)} steps taken" in page.locator(".notice").inner_text()  # offered to go on
        page.get_by_role("link", name="Go on with your character").click()
        assert (step(page), page.locator("ul.taken li").all_inner_texts()) == (where, taken)
        press_empty(page)
        assert page.locator("ul.taken li").count() == len(taken) + 1
    context.close()


def test_start_again_on_a_finished_walk_asks_first_and_is_undone(browser: Any, server: Served) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "new")
    press(page, "Choose the rest for me")
    name = page.locator("#step-title").inner_text()
    press(page, "Start again")
    assert page.get_by_role("alertdialog").count() == 1 and step(page) is None  # asked: nothing dropped yet
    press(page, "Yes, start again")
    assert step(page) == "concept" and page.locator("ul.taken li").count() == 0
    press(page, "Undo: bring it back")
    assert step(page) is None and page.locator("#step-title").inner_text() == name
    context.close()


def test_no_title_or_summary_line_shows_a_key_path(browser: Any, server: Served) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "new")
    while step(page) is not None:
        shown = [
            page.locator("#step-title").inner_text(),
            *page.locator("legend").all_inner_texts(),
            *page.locator(".stepper li").all_inner_texts(),
            *page.locator("ul.taken li .title").all_inner_texts(),
            *page.locator("ul.taken li").all_inner_texts(),
        ]
        assert [text for text in shown if KEY_PATH.search(text)] == [], step(page)
        press_empty(page)
    context.close()


def test_the_preview_shows_no_name_race_or_gender_before_they_are_chosen(
    browser: Any, server: Served
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "new")
    seen = []
    while (key := step(page)) not in (None, "rolls.hand"):
        record = page.frame_locator("iframe").locator("body")
        seen.append(key)
        assert record.locator("h1").inner_text() == "—", key
        assert record.locator(".subtitle").inner_text() in ("—", _gender(page)), key
        press_empty(page)
    assert "gender" in seen
    record = page.frame_locator("iframe").locator("body")
    assert record.locator(".subtitle").inner_text() in ("Male", "Female")  # chosen: shown; race not yet
    context.close()


def _gender(page: Any) -> str:
    texts = page.locator("ul.taken li").all_inner_texts()
    chosen = [text for text in texts if text.startswith("Gender")]
    return "Male" if chosen and "male" in chosen[0] and "female" not in chosen[0] else "Female"
