"""Every page of `chargen serve` at phone width (no sideways scroll), under axe-core (no serious or critical
violation), with labels on every control and nothing fetched from outside. Also the pages that
take files: an opened character file with every problem listed, house rules checked, a GM's batch whose
downloads equal `chargen batch` with the same options."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.tables import Tables
from tests.serve_support import (
    AXE,
    Requests,
    Served,
    missing,
    press,
    press_empty,
    step,
    type_entry,
)
from tests.test_record_history import PLAYED

pytestmark = pytest.mark.slow  # a server or a browser

EXAMPLES = Path(__file__).parent / "examples"


@pytest.fixture
def page(browser: Any, server: Served) -> Iterator[Any]:
    # bypass_csp: only so the test can put axe-core into the page; the page's own policy is tested apart.
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, accept_downloads=True, bypass_csp=True
    )
    opened = context.new_page()
    opened.requests = Requests(opened)
    yield opened
    assert opened.requests.outside(server.url) == []
    context.close()


def _visit_every_page(page: Any, server: Served, tmp_path: Path) -> Iterator[str]:
    """Each page a player or GM sees, in turn (the name of each as it is reached)."""
    page.goto(server.url)
    yield "home"
    page.goto(server.url + "new")
    yield "walk, first step"
    type_entry(page, "999")
    press(page, "Use this")
    yield "walk, a refusal"
    while (key := step(page)) is not None:
        press_empty(page)
        yield f"walk, after {key}"  # every step a walk reaches, with the warning of the one before
    yield "walk, complete"
    press(page, "Start again")
    yield "walk, asked before starting again"
    page.goto(server.url + "open")
    page.fill("#text", "name: Bad\nrolls: {points: 99}\nrace: martian\n")
    press(page, "Open")
    yield "open, problems"
    page.set_input_files("#file", str(EXAMPLES / "rolf.yaml"))
    press(page, "Check it again")  # a file uploaded is read before the text in the editor
    yield "open, a record"
    page.goto(server.url + "rules")
    yield "rules"
    page.goto(server.url + "gm")
    yield "gm"
    page.fill("#count", "3")
    page.fill("#seed", "5")
    press(page, "Make the NPCs")
    page.wait_for_selector("iframe.roster", timeout=120_000)
    yield "gm, a batch"


def test_every_page_at_phone_width_has_no_sideways_scroll(page: Any, server: Served, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    for name in _visit_every_page(page, server, tmp_path):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{name}: {width}px wide"
        if name == "walk, first step":
            page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_axe_finds_no_serious_or_critical_violation(page: Any, server: Served, tmp_path: Path) -> None:
    if not AXE.exists():
        missing("axe-core is not installed (npm ci in tests/axe; .ci/run does it)")
    for name in _visit_every_page(page, server, tmp_path):
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("async () => (await axe.run(document)).violations")
        bad = [
            (item["id"], item["impact"], len(item["nodes"]))
            for item in found
            if item["impact"] in ("serious", "critical")
        ]
        assert bad == [], f"{name}: {bad}"
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
                 .filter(el => !el.labels || el.labels.length === 0).map(el => el.name)"""
        )
        assert unlabelled == [], name


def test_the_explained_records_pass_axe_and_open_a_working_without_script(page: Any, server: Served) -> None:
    """The records shown in the page's frames, each value a link to its working (a closed <details>):
    axe finds nothing serious in what the workings add, and a link opens its working and brings it into
    view though the record has no script."""
    if not AXE.exists():
        missing("axe-core is not installed (npm ci in tests/axe; .ci/run does it)")
    page.goto(server.url + "open")
    page.set_input_files("#file", str(EXAMPLES / "rolf.yaml"))
    press(page, "Open")
    page.goto(server.url + "new")
    while step(page) in ("concept", "rolls.points", "allocation.PS"):  # every working rests on 5.2's values
        press_empty(page)
    for record in ("open/record.html", "new/record.html"):
        page.goto(server.url + record)
        assert page.locator("script").count() == 0
        page.add_script_tag(path=str(AXE))
        # what the workings add: the links on the values and the workings themselves
        found = page.evaluate("async () => (await axe.run({include: ['#workings', 'a.worked']})).violations")
        assert [item["id"] for item in found if item["impact"] in ("serious", "critical")] == [], record
        link = page.locator("a.worked").first
        target = link.get_attribute("href")
        working = page.locator(f"details:has({target})")
        assert not working.evaluate("el => el.open")
        link.click()
        assert page.url.endswith(target) and working.evaluate("el => el.open"), record
        assert working.evaluate(
            "el => 0 <= el.getBoundingClientRect().top && el.getBoundingClientRect().top < innerHeight"
        )
        assert "Defense" in working.inner_text() or "TMR" in working.inner_text(), record


def test_an_opened_file_lists_every_problem_with_key_path_and_rule(page: Any, server: Served) -> None:
    page.goto(server.url + "open")
    page.fill("#text", "name: Bad\nrolls: {points: 99}\nrace: martian\ngender: robot\n")
    press(page, "Open")
    problems = page.locator("ul.problems li").all_inner_texts()
    assert problems, page.locator("main").inner_text()
    assert all(":" in problem for problem in problems)
    assert any("rule" in problem for problem in problems)
    assert page.locator("iframe").count() == 0


def test_an_opened_file_shows_its_record_and_its_pdf_is_chargen_renders(
    page: Any, server: Served, tmp_path: Path
) -> None:
    page.goto(server.url + "open")
    page.set_input_files("#file", str(EXAMPLES / "rolf.yaml"))
    press(page, "Open")
    frame = page.frame_locator("iframe")
    assert frame.locator("h1.name").inner_text() == "Rolf the Barbarian"
    with page.expect_download() as info:
        page.get_by_role("link", name="PDF of the Character Record (A4)", exact=True).click()
    info.value.save_as(tmp_path / "page.pdf")
    _chargen("render", str(EXAMPLES / "rolf.yaml"), "--pdf", str(tmp_path / "cli.pdf"), "--paper", "a4")
    assert (tmp_path / "page.pdf").read_bytes() == (tmp_path / "cli.pdf").read_bytes()


def test_an_opened_played_file_shows_its_history_and_the_values_after_it(
    page: Any, server: Served, tables: Tables
) -> None:
    """Rolf after an adventure (tests/test_record_history.py): the page's record is the character as he
    stands, his Broadsword at Rank 4 with its Strike Chance, PS 23, and the History that got him there."""
    played = api.build(PLAYED, "rolf.yaml", tables=tables)
    broadsword = played.combat.weapons[0]
    assert (broadsword.rank, played.characteristics.PS) == (4, 23)
    page.goto(server.url + "open")
    page.fill("#text", PLAYED)
    press(page, "Open")
    record = page.frame_locator("iframe")
    history = record.locator("section.history tbody tr").all_inner_texts()
    assert [" ".join(row.split()) for row in history] == [
        f"2026-11-02 \u00b7 The barrow of Kell Awarded +500 {played.history[0].bank}",
        f"trained with Bors Broadsword Rank 3 \u2192 4 \u2212400 as given {played.history[1].bank}",
        f"\u2014 Physical Strength 22 \u2192 23 \u2212100 as given {played.history[2].bank}",
    ]
    first = " ".join(record.locator("section.weapons tbody tr").first.inner_text().split())
    assert first.startswith(f"Broadsword 4 {broadsword.strike_chance} ")
    ps = record.locator("section.characteristics tbody tr").first.inner_text().split()
    assert ps[0] == "PS" and ps[-1] == "23"


def test_an_opened_file_is_fixed_in_place_and_offers_every_download(
    page: Any, server: Served, tmp_path: Path
) -> None:
    broken = tmp_path / "rolf-broken.yaml"
    rolf = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8")
    broken.write_text(rolf.replace("race: human\n", "race: martian\n"), encoding="utf-8")
    page.goto(server.url + "open")
    page.set_input_files("#file", str(broken))
    press(page, "Open")
    assert "martian" in page.locator("ul.problems").inner_text()
    text = page.locator("#text").input_value()
    assert text == broken.read_text(encoding="utf-8")  # the uploaded text, in the editor beside its problems
    page.fill("#text", text.replace("race: martian\n", "race: human\n"))
    press(page, "Check it again")
    assert page.locator("ul.problems").count() == 0
    assert page.frame_locator("iframe").locator("h1.name").inner_text() == "Rolf the Barbarian"
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(page.locator("#text").input_value(), encoding="utf-8")
    links = page.locator("ul.downloads a")
    assert links.count() == 9  # file (YAML, JSON), record (HTML, four PDFs), Roll20, Foundry
    for label, args in (
        ("character file (YAML)", ["build", str(fixed)]),
        ("virtual tabletop JSON (Roll20)", ["export", str(fixed), "--to", "roll20"]),
        ("virtual tabletop JSON (Foundry VTT)", ["export", str(fixed), "--to", "foundry"]),
    ):
        with page.expect_download() as info:
            page.get_by_role("link", name=label, exact=True).click()
        assert info.value.suggested_filename.startswith("rolf-the-barbarian")
        info.value.save_as(tmp_path / "got")
        assert (tmp_path / "got").read_text(encoding="utf-8") == _chargen(*args), label


def test_a_script_laden_name_is_text_on_the_page_and_in_the_record(page: Any, server: Served) -> None:
    hostile = '<img src=x onerror="document.title=1"><script>document.title=2</script>'
    page.goto(server.url + "open")
    page.fill("#text", f"name: '{hostile}'\n")
    press(page, "Open")
    frame = page.frame_locator("iframe")
    assert frame.locator("h1.name").inner_text() == hostile
    assert page.title() == "Open a file · chargen"


def test_house_rules_are_checked_and_recorded(page: Any, server: Served, tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("change:\n  weapons:\n    no_such_key: 3\n", encoding="utf-8")
    page.goto(server.url + "rules")
    page.set_input_files("#ruleset", str(bad))
    press(page, "Use these rules")
    assert "broken.yaml" in page.get_by_role("alert").inner_text()
    page.get_by_label("house-combat", exact=False).check()
    press(page, "Use these rules")
    assert "House rules: house-combat" in page.locator("header").inner_text()
    page.goto(server.url + "new")
    while step(page) is not None:
        press_empty(page)
    with page.expect_download() as info:
        page.get_by_role("link", name="character file (YAML)").click()
    info.value.save_as(tmp_path / "ruled.yaml")
    text = (tmp_path / "ruled.yaml").read_text(encoding="utf-8")
    assert "house-combat" in text
    assert _chargen("--rules", "house-combat", "build", str(tmp_path / "ruled.yaml")) == text


def test_the_gms_downloads_equal_chargen_batch(page: Any, server: Served, tmp_path: Path) -> None:
    page.goto(server.url + "gm")
    page.fill("#count", "4")
    page.fill("#archetype", "bandit=2,fighter=1")
    page.fill("#seed", "11")
    page.select_option("#paper", "a4")
    for label in ("Stat blocks", "Every Character Record in one PDF"):
        page.get_by_role("checkbox", name=label).check()
    page.select_option("#statblocks-format", "markdown")
    press(page, "Make the NPCs")
    page.wait_for_selector("iframe.roster", timeout=180_000)
    assert page.frame_locator("iframe.roster").locator("body").inner_text().strip()
    command = page.locator("main p code").first.inner_text()
    names = ["npcs.jsonl", "npcs.csv", "statblocks.md", "roster.pdf", "records.pdf"]
    for name in names:
        with page.expect_download() as info:
            page.locator(f"a[href$='/files/{name}']").click()
        info.value.save_as(tmp_path / f"page-{name}")
    cli = tmp_path / "cli"
    cli.mkdir()
    args = command.split()[1:]
    assert args[:5] == ["batch", "--count=4", "--seed=11", "--archetype=bandit=2,fighter=1", "--paper=a4"]
    done = subprocess.run(
        [sys.executable, "-m", "chargen", *args, "-q"], cwd=cli, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for name in names:
        assert (tmp_path / f"page-{name}").read_bytes() == (cli / name).read_bytes(), name
    lines = (cli / "npcs.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and all(json.loads(line)["archetype"] in ("bandit", "fighter") for line in lines)


def _chargen(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "chargen", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
