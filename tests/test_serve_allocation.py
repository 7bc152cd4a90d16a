"""`chargen serve`'s 5.2 allocation control in a real Chromium: the six values typed with the keyboard alone,
the points left counted as they are typed, a value the walk refuses shown at its field with the walk's own
reason in an alert, and the finished character's file holding the values as typed. The preview beside it
shows only what was decided: no characteristic before it is placed, no race or gender modifier before
they are chosen, a weapon as soon as it is bought."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from chargen.rules.allocation import allocation_problems
from chargen.tables import load_tables
from tests.serve_support import Served, press, press_empty, step

pytestmark = pytest.mark.slow  # a server or a browser

TABLES = load_tables()


@pytest.fixture
def page(browser: Any, server: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, accept_downloads=True)
    opened = context.new_page()
    yield opened
    context.close()


def _to_allocation(page: Any, server: Served) -> dict[str, int]:
    """A new walk up to 5.2, the 2D10 for 5.1 typed as 9 and 9; the control's total and maximum."""
    page.goto(server.url + "new")
    press_empty(page)  # concept: any
    assert step(page) == "rolls.points"
    for field in page.locator("input[name=number]").all():
        field.fill("9")
    press(page, "Use my dice")
    control = page.locator("#allocation")
    return {
        "total": int(control.get_attribute("data-total")),
        "maximum": int(control.get_attribute("data-maximum")),
    }


def _type_with_keys(page: Any, values: list[int]) -> None:
    """Tab from the first field through the six, typing each value: the keyboard alone."""
    page.locator("input[name^='allocation.']").first.focus()
    for index, value in enumerate(values):
        page.keyboard.press("Control+a")
        page.keyboard.type(str(value))
        if index < len(values) - 1:
            page.keyboard.press("Tab")


def _lawful(total: int, maximum: int) -> list[int]:
    """An allocation 5.2 accepts, near an even share (checked with the rule's own function)."""
    codes = list(TABLES.characteristics.primaries)
    values = [total // 6 + (1 if index < total % 6 else 0) for index in range(6)]
    named = dict(zip(codes, values, strict=True))
    limits = TABLES.characteristics.allocation_limits
    assert not allocation_problems(named, total, maximum, TABLES.characteristics.minimum_value, limits)
    return values


def test_six_values_through_the_control_end_in_the_file(page: Any, server: Served, tmp_path: Path) -> None:
    row = _to_allocation(page, server)
    fields = page.locator("input[name^='allocation.']")
    assert fields.count() == 6
    values = _lawful(row["total"], row["maximum"])
    _type_with_keys(page, values[:2])
    assert page.locator("#allocation-left").inner_text() == str(row["total"] - sum(values[:2]))  # live
    _type_with_keys(page, values)
    assert page.locator("#allocation-left").inner_text() == "0"
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the form's first button: "Use these values"
    assert not page.locator("#refused").count()
    assert step(page) is not None and not str(step(page)).startswith("allocation.")
    while step(page) is not None:
        press_empty(page)
    with page.expect_download() as info:
        page.get_by_role("link", name="character file (YAML)", exact=True).click()
    info.value.save_as(tmp_path / "walked.yaml")
    data = yaml.safe_load((tmp_path / "walked.yaml").read_text(encoding="utf-8"))
    assert data["allocation"] == dict(zip(TABLES.characteristics.primaries, values, strict=True))


def test_a_refused_value_shows_at_its_field_with_the_walks_reason(page: Any, server: Served) -> None:
    row = _to_allocation(page, server)
    maximum = row["maximum"]
    too_many = [maximum, maximum, maximum, maximum, maximum, maximum]  # more at the maximum than 5.2 allows
    _type_with_keys(page, too_many)
    assert page.locator(f"#allocation-at-{maximum}").inner_text() == "6"  # counted as typed
    press(page, "Use these values")
    alert = page.locator("#refused")
    assert alert.get_attribute("role") == "alert"
    text = alert.inner_text()
    assert text.startswith("Refused: ") and "rule 5.2" in text, text
    assert "allocation." not in text  # the file's key is not the page's word
    refused = page.locator("input[name^='allocation.'][aria-invalid=true]")
    assert refused.count() == 1 and refused.get_attribute("aria-describedby") == "refused"
    code = str(refused.get_attribute("name")).removeprefix("allocation.")
    assert f" {code} " in f" {text} " or f"{code} {maximum}" in text, (code, text)
    assert step(page) == "allocation.PS"  # nothing of the form was taken
    assert page.locator("ul.taken li").count() == 2  # the concept and 5.1's points only
    kept = [int(field.input_value()) for field in page.locator("input[name^='allocation.']").all()]
    assert kept == too_many  # what was typed stays, to correct


def test_the_counter_counts_each_place_near_the_maximum_and_above_it(page: Any, server: Served) -> None:
    row = _to_allocation(page, server)
    maximum = row["maximum"]
    explain = page.locator("#explain").inner_text()
    limits = TABLES.characteristics.allocation_limits
    at_maximum = limits.at_maximum_low if maximum in limits.low_maximums else limits.at_maximum
    told = f"at most {at_maximum} at {maximum}, {limits.one_below} at {maximum - 1} and {limits.two_below} at"
    assert told in explain  # 5.2's limit with its numbers
    _type_with_keys(page, [maximum + 1, maximum + 2, maximum, maximum - 1, maximum - 2, maximum - 2])
    counted = {
        place: page.locator(f"#allocation-{place}").inner_text()
        for place in (f"at-{maximum}", f"at-{maximum - 1}", f"at-{maximum - 2}", "over")
    }
    assert counted == {f"at-{maximum}": "1", f"at-{maximum - 1}": "1", f"at-{maximum - 2}": "2", "over": "2"}


def test_the_preview_draws_in_the_records_own_font(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    page.locator("#record summary").click()  # at phone width the record is folded until asked for
    frame = page.frame_locator("iframe").locator("h1")
    frame.wait_for()
    loaded = frame.evaluate(
        "async () => { await document.fonts.ready; "
        "return [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family); }"
    )
    assert '"Record Garamond"' in loaded or "Record Garamond" in loaded


def _characteristics(page: Any) -> dict[str, list[str]]:
    """The record's Characteristics table as the preview shows it: each row's Allocated, Race, Gender and
    Value, by code."""
    page.locator("#record").evaluate("details => { details.open = true; }")
    rows = page.frame_locator("iframe").locator("section.characteristics tbody tr")
    rows.first.wait_for()
    found = {}
    for row in rows.all():
        code = row.locator("th").inner_text().strip()
        found[code] = [cell.inner_text().strip() for cell in row.locator("td.num").all()]
    return found


def test_the_preview_shows_no_modifier_of_a_step_not_taken(page: Any, server: Served) -> None:
    row = _to_allocation(page, server)
    after_points = _characteristics(page)
    assert all(cells == ["\u2014"] * 4 for code, cells in after_points.items() if code != "PC"), after_points
    values = _lawful(row["total"], row["maximum"])
    _type_with_keys(page, values)
    press(page, "Use these values")
    allocated = _characteristics(page)
    for code, value in zip(TABLES.characteristics.primaries, values, strict=True):
        assert allocated[code] == [str(value), "\u2014", "\u2014", str(value)], (code, allocated)
    press_empty(page)  # no optional characteristics
    assert step(page) == "gender"
    page.get_by_role("radio", name="Female").check()
    press(page, "Use this")
    chosen = _characteristics(page)
    assert chosen["PS"] == [str(values[0]), "\u2014", "\u22122", str(values[0] - 2)]  # 6.1, once chosen


def test_a_weapon_shows_on_the_record_as_soon_as_it_is_bought(page: Any, server: Served) -> None:
    page.goto(server.url + "new")
    while step(page) != "weapons":
        press_empty(page)
    weapons = page.frame_locator("iframe").locator("section.weapons tbody tr td.text")
    assert [cell.inner_text() for cell in weapons.all()] == ["Unarmed"]
    page.get_by_role("checkbox", name="Dagger").check()
    press(page, "Use these")
    assert step(page) != "weapons"
    assert [cell.inner_text() for cell in weapons.all()] == ["Dagger", "Unarmed"]  # before armour, shield
