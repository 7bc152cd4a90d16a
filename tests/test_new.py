"""chargen new, end to end through a pseudo-terminal: own dice at every step, a wrong entry at each step
refused at once, `back`, Ctrl-C, --seed; and the file it writes builds to the same character."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
import yaml

from chargen import api
from chargen.character_file import dump_document
from chargen.errors import ChargenError
from chargen.model import DamageIncrease
from chargen.render import render_html
from chargen.tables import load_tables
from chargen.walkthrough import Walk, new_walk
from tests.rules_checker import expected_values
from tests.test_skills_record import box_text

pytestmark = pytest.mark.slow  # chargen in a process for each case

PROMPT = r": $"

#: (wrong entry, the player's own entry) at every step, in the book's order.
STEPS = [
    ("wizard", "fighter"),  # the concept: not an archetype of the tables
    ("25", "9"),  # 5.1: 2D10 total
    ("24", "22"),  # 5.2 PS: above the maximum 23
    ("x", "15"),  # MD
    ("60", "13"),  # AG: above the maximum
    ("4", "20"),  # EN: below the minimum
    ("14", "5"),  # MA: leaves WP out of reach
    ("14", "13"),  # WP: the one value left is 13
    ("XX", "PB"),  # 5.5
    ("1 2 3", "2 5 5 2"),  # PB: four D5
    ("x", "male"),  # 6.1
    ("6 1", "2 9"),  # 6.2: D5 and D10
    ("Elfe", "Elf"),  # 6.3 first try
    ("101", "00"),  # its D100: 00 is 100, a miss
    ("elf", "Dwarf"),  # second try: elf was tried
    ("0 0", "40"),  # its D100, one die: a miss
    ("human", ""),  # third try: human needs no roll; Enter stops trying
    ("abc", "17"),  # 7.1
    ("101", "62"),  # 8.1
    ("-3", "50"),  # 8.2
    ("11", "4"),  # 8.4
    ("100 1", "40"),  # 8.5 Experience
    ("1000", "70"),  # 8.5 silver
    ("broadswrod", "Broadsword, dagger"),  # 8.7 weapons
    ("Improved Plate", "Leather"),  # armor: beyond the purse
    ("Sheild", "Large Round Shield"),  # shield
    ("Heeler", ""),  # 8.6 skills at Rank 0: not a skill; Enter buys none
    ("Elvish, Dwarvish", "Elvish"),  # 49 languages: two are beyond the 120 Experience Points
    ("Firemagik", "celestial"),  # 34 college: not a college
    ("Glamor", "Starfire, glamour"),  # its magic: not a spell of the tables
    ("x" * 501, "Rolf the Barbarian"),  # 8.8 name: too long
]


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "chargen", "new", *args],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 250),
    )


def _walk_writing_rolf(tmp_path: Path, steps: list[tuple[str, str]]) -> tuple[str, str]:
    """A walk through the terminal giving each step's wrong entry, then its right one (and `back` once, on
    PS): the file it writes, and the summary it showed before asking where to write it."""
    child = _spawn(tmp_path, "--seed", "1")
    child.expect(PROMPT)
    child.sendline("back")  # nothing to undo yet
    child.expect_exact("nothing to undo yet")
    for index, (wrong, right) in enumerate(steps):
        child.expect(PROMPT)
        child.sendline(wrong)
        child.expect_exact("refused: ", timeout=10)
        child.expect(PROMPT)
        child.sendline(right)
        if index == 2:  # undo PS 22, then give it again
            child.expect(PROMPT)
            child.sendline("back")
            child.expect_exact("back one step")
            child.expect(PROMPT)
            child.sendline(right)
    child.expect_exact("Character file to write")
    summary = str(child.before)
    child.sendline("rolf.yaml")
    child.expect_exact("PDF of the Character Record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return (tmp_path / "rolf.yaml").read_text(encoding="utf-8"), summary


def test_a_whole_walk_with_own_dice_and_a_wrong_entry_at_each_step(tmp_path: Path) -> None:
    written, summary = _walk_writing_rolf(tmp_path, STEPS)
    assert "  Broadsword: strike 40%, damage D10+4\r\n" in summary
    character = api.build(written, "rolf.yaml")
    assert character.allocation == {"PS": 22, "MD": 15, "AG": 13, "EN": 20, "MA": 5, "WP": 13}
    assert (character.race, character.race_attempts, character.rolls["race"]) == (
        "human",
        ["elf", "dwarf"],
        [100, 40],
    )
    assert [item.name for item in character.weapons] == ["broadsword", "dagger"]
    assert character.armor == "leather"
    assert character.shield is not None and character.shield.name == "large-round-shield"
    assert character.name == "Rolf the Barbarian"
    assert _chargen(tmp_path, "build", "rolf.yaml").stdout == written


def _chargen(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=tmp_path, capture_output=True, text=True, check=True
    )


#: The same walk choosing 18.5 at 5.5 (after a rule number chargen does not know) and, once the arms are
#: bought, 18.5's Rank system for the dagger (after a weapon not bought).
STEPS_18_5 = [("18.6", "PB, 18.5") if right == "PB" else (wrong, right) for wrong, right in STEPS]
STEPS_18_5.insert(STEPS_18_5.index(("broadswrod", "Broadsword, dagger")) + 1, ("spear", "dagger"))


def test_a_walk_choosing_18_5_writes_it_and_the_record_shows_it(tmp_path: Path) -> None:
    written, summary = _walk_writing_rolf(tmp_path, STEPS_18_5)
    assert (
        "  Broadsword: strike 40%, damage D10+5: +1 for PS (18.5); breaks on 93-99; Strike Chance at most 92\r\n"
        in summary
    )
    assert "  Dagger: strike 40%, damage D10\r\n" in summary  # by Rank, no Ranks yet: no note
    tables = load_tables()
    character = api.build(written, "rolf.yaml", tables=tables)
    assert character.optional == ["PB", "18.5"]
    assert [(item.name, item.increase) for item in character.weapons] == [
        ("broadsword", None),
        ("dagger", "rank"),
    ]
    assert _chargen(tmp_path, "build", "rolf.yaml").stdout == written
    assert _chargen(tmp_path, "validate", "rolf.yaml").returncode == 0
    document = yaml.safe_load(written)
    assert expected_values(document, tables)["combat"] == document["combat"]  # the independent reading
    broadsword, dagger = character.combat.weapons
    assert broadsword.damage == "D10+5"  # PS 22 is 7 over the Broadsword's 15: +1 by PS
    assert dagger.increase == DamageIncrease(system="rank", bonus=0)  # by Rank, and no Ranks yet
    weapons_box = box_text(render_html(character, tables), "weapons")
    assert (
        "Broadsword unranked 40 D10+5 +1 for PS (18.5); breaks on 93-99; Strike Chance at most 92"
        in weapons_box
    )
    assert "Damage increase (18.5, optional)" in weapons_box
    assert weapons_box.count("for PS (18.5)") == 1  # nothing for the dagger, whose PS bonus would be +3


def _walked(answers: list[str]) -> tuple[dict[str, object], list[str]]:
    """A walk given these entries (then Enter): the file it writes, read back, and the steps it asked."""
    walk = new_walk(load_tables(), seed=1)
    asked = []
    entries = iter(answers)
    while (question := walk.current) is not None:
        asked.append(question.key)
        walk.answer(next(entries, ""))
    return yaml.safe_load(dump_document(walk.document(), "yaml")), asked


def test_18_5_in_a_walk_changes_only_what_it_names() -> None:
    plain, plain_asked = _walked([right for _, right in STEPS])
    chosen, chosen_asked = _walked([right for _, right in STEPS_18_5])
    assert "weapons.increase" not in plain_asked
    after_arms = plain_asked.index("weapons") + 1
    assert chosen_asked == [*plain_asked[:after_arms], "weapons.increase", *plain_asked[after_arms:]]
    assert {key for key in plain.keys() | chosen.keys() if plain.get(key) != chosen.get(key)} == {
        "optional",
        "weapons",
        "combat",
    }
    assert (plain["optional"], chosen["optional"]) == (["PB"], ["PB", "18.5"])
    assert (plain["weapons"], chosen["weapons"]) == (
        [{"name": "broadsword"}, {"name": "dagger"}],
        [{"name": "broadsword"}, {"name": "dagger", "increase": "rank"}],
    )
    plain_combat, chosen_combat = plain["combat"], chosen["combat"]
    assert isinstance(plain_combat, dict) and isinstance(chosen_combat, dict)
    assert {key for key in plain_combat if plain_combat[key] != chosen_combat[key]} == {"weapons"}


def _to_the_weapons(optional: str) -> Walk:
    """A walk of PS 22 (human, 275 Silver Pennies) as far as 8.7's arms, with `optional` at 5.5."""
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    allocation = ["9", "22", "15", "13", "20", "5", "13"]
    for entry in [*allocation, optional, "male", "2 9", "", "17", "62", "50", "4", "40", "70"]:
        walk.answer(entry)
    assert walk.current is not None and walk.current.key == "weapons"
    return walk


def test_a_wrong_optional_code_is_refused_and_asked_again() -> None:
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    for entry in ["9", "22", "15", "13", "20", "5", "13"]:
        walk.answer(entry)
    with pytest.raises(ChargenError) as error:
        walk.answer("18.6")
    assert str(error.value) == (
        "optional: '18.6' is neither an optional characteristic (PB) nor an optional rule (18.5); rule 5.5"
    )
    assert walk.current is not None and walk.current.key == "optional" and "optional" not in walk.data
    assert walk.answer("18.5") == "18.5"


def test_the_walk_tells_18_5_from_the_tables(tmp_path: Path) -> None:
    ruleset = tmp_path / "fours.yaml"
    ruleset.write_text("change:\n  combat:\n    damage_increase:\n      strength_points_per_bonus: 4\n")
    for tables, points in [(load_tables(), 5), (load_tables(None, [str(ruleset)]), 4)]:
        walk = new_walk(tables, seed=1)
        walk.answer("")  # the concept: any
        for entry in ["9", "22", "15", "13", "20", "5", "13"]:
            walk.answer(entry)
        question = walk.current
        assert question is not None and question.key == "optional"
        assert f"Optional rule 18.5: Damage increase (18.5, optional): +1 per {points} full points of PS" in (
            question.explain(walk)
        )
        assert question.ask(walk) == "Codes to use (e.g. PB, 18.5), or Enter for none"


def test_the_system_per_weapon_where_the_two_differ() -> None:
    walk = _to_the_weapons("18.5")
    walk.answer("Long Bow, Broadsword")
    question = walk.current
    assert question is not None and question.key == "weapons.increase"
    assert question.explain(walk) == (  # a bow gains nothing either way (18.5: not for Missile Weapons)
        "18.5 Damage increase, one system per weapon: by PS unless you name the weapon for Rank. "
        "Broadsword: PS +1, breaks on 93-99, Strike Chance at most 92; Rank +0."
    )
    with pytest.raises(ChargenError) as error:
        walk.answer("long bow")
    assert str(error.value).startswith(
        "weapons.increase: 'long bow' is not a weapon bought that 18.5 increases"
    )
    assert walk.answer("") == "Broadsword by PS"  # Enter: the file's default
    assert walk.data["weapons"] == ["long-bow", "broadsword"]
    assert walk.back() and walk.answer("broadsword") == "Broadsword by Rank"
    assert walk.data["weapons"] == ["long-bow", {"name": "broadsword", "increase": "rank"}]


def test_no_system_to_choose_without_18_5_or_a_weapon_it_changes() -> None:
    for optional, weapons in [("", "Broadsword"), ("18.5", "Long Bow"), ("18.5", "")]:
        walk = _to_the_weapons(optional)
        walk.answer(weapons)
        assert walk.current is not None and walk.current.key == "armor"


def _all_enter(tmp_path: Path, seed: str) -> str:
    child = _spawn(tmp_path, "--seed", seed, "-o", "hero.yaml", "--force")  # each walk replaces the last
    while child.expect([PROMPT, "PDF of the Character Record"]) == 0:
        child.sendline("")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return (tmp_path / "hero.yaml").read_text(encoding="utf-8")


def test_a_seed_repeats_a_walk_left_to_chargen(tmp_path: Path) -> None:
    folders = [tmp_path / name for name in ("first", "again", "other")]
    for folder in folders:
        folder.mkdir()
    first = _all_enter(folders[0], "5")
    assert _all_enter(folders[1], "5") == first
    assert _all_enter(folders[2], "6") != first


def test_ctrl_c_leaves_nothing_written(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "-o", "hero.yaml")
    for _ in range(5):
        child.expect(PROMPT)
        child.sendline("")
    child.expect(PROMPT)  # Ctrl-C at the prompt, before or while its read waits: the same way out
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert list(tmp_path.iterdir()) == []
    # it leaves as `quit` does, as the README says: it printed "chargen: error: aborted"
    assert child.before.splitlines()[-1] == "Left the walk; nothing was written."
    assert "error" not in child.before


def test_without_a_terminal_it_refuses_in_one_line(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "chargen", "new"], cwd=tmp_path, input="", capture_output=True, text=True
    )
    assert completed.returncode == 2
    assert completed.stderr == (
        "chargen: error: new: asks its questions in a terminal; without one, use `chargen roll` or "
        "`chargen build FILE`\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_walk_refuses_a_lawful_looking_allocation_with_the_reason() -> None:
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    walk.answer("9")  # 88 points, maximum 23
    walk.answer("23")
    with pytest.raises(ChargenError) as error:
        walk.answer("23")
    # The refusal names the values the prompt showed (5-22) before the rule's reason.
    question = walk.current
    assert question is not None and question.ask(walk).startswith("MD (5-22 allowed;")
    assert str(error.value) == (
        "allocation.MD: 23 is not among the values 5.2 allows now (5-22): PS 23 and MD 23 are both at the "
        "maximum 23; rule 5.2 allows one"
    )
    assert walk.allocation == {"PS": 23}
    assert walk.back() and walk.allocation == {}


def _walk_to_the_end(seed: int, races: list[str]) -> dict[str, object]:
    """A walk with Enter at every step, trying `races` in order at 6.3."""
    walk = new_walk(load_tables(), seed=seed)
    walk.answer("")  # the concept: any
    tries = iter(races)
    while (question := walk.current) is not None:
        walk.answer(next(tries, "") if question.key.startswith("race_attempts") else "")
    return walk.document()


@pytest.mark.parametrize("seed", range(30))
def test_every_walk_left_to_chargen_builds_to_itself(seed: int) -> None:
    races = [["Giant", "Shape-Changer", "Halfling"], ["elf", "dwarf", "orc"], []][seed % 3]
    document = _walk_to_the_end(seed, races)
    text = dump_document(document, "yaml")
    assert api.build(text, "walk.yaml") == document
    assert document.seed is None  # every die is in the file; nothing is left to a seed


def test_a_giant_walk_asks_for_the_type_and_a_shape_changer_skips_the_aspect() -> None:
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    for entry in ["9", "", "", "", "", "", "", "", "", "2 9", "Giant", "6"]:
        walk.answer(entry)
    assert walk.current is not None and walk.current.key == "rolls.race_type"
    walk.answer("3")
    assert walk.current is not None and walk.current.key == "rolls.aspect"
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    for entry in ["9", "", "", "", "", "", "", "", "", "2 9", "shape changer", "4", "1"]:
        walk.answer(entry)
    assert walk.current is not None and walk.current.key == "rolls.social_status"


def test_a_ruleset_that_counts_ps_in_its_damage_does_not_offer_18_5() -> None:
    """house-combat's damage formula is its own reading of 18.5 (seed 004), which the build refuses on top of
    it: the walk does not list it, says why, and refuses it if typed, asking again."""
    walk = new_walk(load_tables(None, ["house-combat"]), seed=1)
    walk.answer("")  # the concept: any
    for entry in ["9", "22", "15", "13", "20", "5", "13"]:
        walk.answer(entry)
    question = walk.current
    assert question is not None and question.key == "optional"
    assert question.explain(walk).endswith(
        "Optional rule 18.5 is not offered: these rules' damage formula already adds damage for PS."
    )
    assert question.ask(walk) == "Codes to use (e.g. PB), or Enter for none"
    with pytest.raises(ChargenError) as error:
        walk.answer("18.5")
    assert "already adds damage for PS" in str(error.value) and str(error.value).endswith("rule 18.5")
    assert walk.current is not None and walk.current.key == "optional"
    assert walk.answer("PB") == "PB"
