"""`chargen explain` at the edges the book's characters never reach: a TMR a ruleset pushes below 5.6's
minimum, Agility lost for the weight carried (82.9, a table only a GM fills), a modifier of 0 (left out),
and a shield with a two-handed weapon beside a (1-2) one (20, 17.5). Read as a script reads it (`--format
json`): each value, its inputs and its arithmetic, whose result is the value the record prints."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from chargen import api
from chargen.cli import cli
from chargen.render import render_html
from chargen.tables import load_tables
from tests.test_explain_record import details

EXAMPLES = Path(__file__).parent
#: A GM's ruleset: 82.9's table filled (3 Agility off from 10 pounds) and a dwarf's TMR modifier of -4.
HEAVY = """
change:
  characteristics:
    weight_carried:
      rows:
        - {low: 0, high: 9, value: 0}
        - {low: 10, high: 10000, value: 3}
  races:
    races:
      dwarf:
        modifiers: {TMR: -4}
"""
#: A dwarf in scale armor: Agility 5 - 2 (6.4), the chart's lowest row (5.6).
GRIM = """
name: Grim
gender: male
race: dwarf
allocation: {PS: 22, MD: 17, AG: 5, EN: 18, MA: 7, WP: 19}
rolls: {points: 9, hand: [2, 9], aspect: 17, social_status: 62, birth_order: 50, sibling_rank: 4, experience: 40, silver: 70}
weapons:
  - {name: war hammer, rank: 1}
armor: scale
"""
#: The README's pikeman (a two-handed pike, a large round shield) with a claymore, a (1-2) weapon.
PIKE_AND_CLAYMORE = (
    (EXAMPLES / "pike-and-shield.yaml")
    .read_text(encoding="utf-8")
    .replace("  - {name: short sword, rank: 1}", "  - {name: claymore}")
)


def explained(tmp_path: Path, text: str, *args: str, ruleset: str = "") -> dict[str, dict[str, Any]]:
    """`chargen [--rules heavy.yaml] explain FILE ARGS --format json`: each value's working by its key."""
    (tmp_path / "character.yaml").write_text(text, encoding="utf-8")
    rules: list[str] = []
    if ruleset:
        (tmp_path / "heavy.yaml").write_text(ruleset, encoding="utf-8")
        rules = ["--rules", "heavy.yaml"]
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, [*rules, "explain", "character.yaml", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return {item["key"]: item for item in json.loads(result.output)}


def result_of(arithmetic: str) -> int:
    """What the arithmetic comes to: `12 - 1 - 3 = 8` (minus signs as printed) gives 8, a lone `15` gives 15,
    `2 - 4 = -2, raised to the minimum of 1` gives 1."""
    last = arithmetic.rsplit("=", 1)[-1].rsplit(" of ", 1)[-1].strip().replace("\u2212", "-")
    assert re.fullmatch(r"-?\d+", last), arithmetic
    return int(last)


def inputs(working: dict[str, Any]) -> dict[str, int | None]:
    return {item["name"]: item["value"] for item in working["inputs"]}


def test_each_arithmetic_comes_to_the_value_the_record_prints(tmp_path: Path) -> None:
    for text, ruleset in ((GRIM, HEAVY), (GRIM, ""), (PIKE_AND_CLAYMORE, HEAVY), (PIKE_AND_CLAYMORE, "")):
        for key, working in explained(tmp_path, text, ruleset=ruleset).items():
            if working["shown"] is None and working["value"] is not None:
                assert result_of(working["arithmetic"]) == working["value"], (key, working)


def test_5_6_no_tmr_is_below_the_minimum_whatever_the_race_takes_off(tmp_path: Path) -> None:
    found = explained(tmp_path, GRIM, "tmr", "combat.tmr", ruleset=HEAVY)
    for key in ("tmr", "combat.tmr"):
        # the chart's lowest row (2) and the race's -4 would give -2: 5.6's minimum holds
        assert inputs(found[key]) == {"chart": 2, "race": -4}
        assert found[key]["value"] == 1
        assert found[key]["arithmetic"] == "2 \u2212 4 = \u22122, raised to the minimum of 1"


def test_5_6_every_door_names_the_minimum_it_raised_the_tmr_to(tmp_path: Path) -> None:
    """explain's text, the record's --explain (the page opens the same record) and a GM's ruling of it."""
    (tmp_path / "character.yaml").write_text(GRIM, encoding="utf-8")
    (tmp_path / "heavy.yaml").write_text(HEAVY, encoding="utf-8")
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, ["--rules", "heavy.yaml", "explain", "character.yaml", "tmr"])
    assert result.output.splitlines()[0] == "TMR unarmored 1 = 2 \u2212 4, raised to the minimum of 1 (5.6)"
    tables = load_tables(None, [str(tmp_path / "heavy.yaml")])
    page = render_html(api.build(GRIM, "grim.yaml", tables=tables), tables, explain=True)
    armored = details(page)["working-combat-tmr"].find_all("summary")[0].text()
    assert armored == "TMR armored 1 = 2 \u2212 4, raised to the minimum of 1 (5.6)"
    ruled = GRIM + "overrides:\n  tmr: {value: 3, reason: a sturdy pony}\n"
    working = api.explain(ruled, "grim.yaml", ["tmr"], tables=tables)[0]
    assert working.headline() == (
        "TMR unarmored 3 (the GM's: a sturdy pony); the rules give 1 = 2 \u2212 4, raised to the minimum of 1"
    )


def test_5_6_the_page_names_the_minimum_on_the_record_it_opens() -> None:
    from chargen.web.app import create_app, shared
    from chargen.web.jobs import RulesChoice

    app = create_app(RulesChoice(uploaded=(("heavy", HEAVY),)))
    try:
        client = app.test_client()
        upload = (io.BytesIO(GRIM.encode()), "grim.yaml")
        opened = client.post("/open", data={"file": upload}, content_type="multipart/form-data")
        assert opened.status_code == 303
        page = client.get("/open/record.html").get_data(as_text=True)
    finally:
        shared(app).close()
    unarmored = details(page)["working-tmr"].find_all("summary")[0].text()
    assert unarmored == "TMR unarmored 1 = 2 \u2212 4, raised to the minimum of 1 (5.6)"


def test_5_6_a_tmr_at_the_minimum_by_its_own_arithmetic_is_not_raised(tmp_path: Path) -> None:
    """The edge: 2 - 1 is the minimum itself, nothing raised (the book's dwarf in scale)."""
    found = explained(tmp_path, GRIM, "tmr")
    assert (found["tmr"]["value"], found["tmr"]["arithmetic"]) == (1, "2 \u2212 1 = 1")


def test_82_9_the_weight_carried_takes_agility_off(tmp_path: Path) -> None:
    pikeman = explained(tmp_path, PIKE_AND_CLAYMORE, "modified_agility", ruleset=HEAVY)["modified_agility"]
    # Agility 12, Leather's -1 (18.1), and 3 for the pike, claymore, leather and shield carried
    assert inputs(pikeman) == {"agility": 12, "armor": -1, "weight": -3}
    assert (pikeman["value"], result_of(pikeman["arithmetic"])) == (8, 8)
    book = explained(tmp_path, PIKE_AND_CLAYMORE, "modified_agility")["modified_agility"]
    assert inputs(book) == {"agility": 12, "armor": -1}  # the book's empty table takes nothing: no term
    assert book["value"] == 11


def test_a_modifier_of_0_is_left_out_of_the_working(tmp_path: Path) -> None:
    # No armor and the book's empty 82.9 table: modified Agility is Agility alone.
    porter = PIKE_AND_CLAYMORE.replace("armor: leather\n", "")
    working = explained(tmp_path, porter, "modified_agility")["modified_agility"]
    assert inputs(working) == {"agility": 12}
    assert (working["value"], working["arithmetic"]) == (12, "12")


def test_20_a_two_handed_weapon_is_used_with_the_shield_slung_a_1_2_one_with_it_prepared(
    tmp_path: Path,
) -> None:
    found = explained(tmp_path, PIKE_AND_CLAYMORE, "weapons")
    pike, claymore = found["weapons.pike.strike_chance"], found["weapons.claymore.strike_chance"]
    assert "slung" in pike["held"] and "prepared" not in pike["held"]
    assert "prepared" in claymore["held"] and "slung" not in claymore["held"]
    # the pike in both hands uses Manual Dexterity 17 whole, not the shield's -3 (17.5)
    assert inputs(pike)["modified_md"] == 17
    source = next(item["source"] for item in pike["inputs"] if item["name"] == "modified_md")
    assert "slung" in source
    # the claymore, unranked, is its Base Chance (17.1)
    assert claymore["value"] == 50
