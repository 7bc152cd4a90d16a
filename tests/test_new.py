"""chargen new, end to end through a pseudo-terminal: own dice at every step, a wrong entry at each step
refused at once, `back`, Ctrl-C, --seed; and the file it writes builds to the same character."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from chargen import api
from chargen.character_file import dump_document
from chargen.errors import ChargenError
from chargen.tables import load_tables
from chargen.walkthrough import new_walk

PROMPT = r": $"

#: (wrong entry, the player's own entry) at every step, in the book's order.
STEPS = [
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


def test_a_whole_walk_with_own_dice_and_a_wrong_entry_at_each_step(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "1")
    child.expect(PROMPT)
    child.sendline("back")  # nothing to undo yet
    child.expect_exact("nothing to undo yet")
    for index, (wrong, right) in enumerate(STEPS):
        child.expect(PROMPT)
        child.sendline(wrong)
        child.expect_exact("refused: ", timeout=10)
        child.expect(PROMPT)
        child.sendline(right)
        if index == 1:  # undo PS 22, then give it again
            child.expect(PROMPT)
            child.sendline("back")
            child.expect_exact("back one step")
            child.expect(PROMPT)
            child.sendline(right)
    child.expect_exact("Character file to write")
    child.sendline("rolf.yaml")
    child.expect_exact("PDF of the Character Record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    written = (tmp_path / "rolf.yaml").read_text(encoding="utf-8")
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
    rebuilt = subprocess.run(
        [sys.executable, "-m", "chargen", "build", "rolf.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert rebuilt.stdout == written


def _all_enter(tmp_path: Path, seed: str) -> str:
    child = _spawn(tmp_path, "--seed", seed, "-o", "hero.yaml")
    while child.expect([PROMPT, "PDF of the Character Record"]) == 0:
        child.sendline("")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return (tmp_path / "hero.yaml").read_text(encoding="utf-8")


def test_a_seed_repeats_a_walk_left_to_chargen(tmp_path: Path) -> None:
    first = _all_enter(tmp_path, "5")
    assert _all_enter(tmp_path, "5") == first
    assert _all_enter(tmp_path, "6") != first


def test_ctrl_c_leaves_nothing_written(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "-o", "hero.yaml")
    for _ in range(5):
        child.expect(PROMPT)
        child.sendline("")
    child.expect(PROMPT)
    time.sleep(0.3)  # the prompt is drawn just before the read starts
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert list(tmp_path.iterdir()) == []


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
    walk.answer("9")  # 88 points, maximum 23
    walk.answer("23")
    with pytest.raises(ChargenError) as error:
        walk.answer("23")
    assert str(error.value) == (
        "allocation.MD: PS 23 and MD 23 are both at the maximum 23; rule 5.2 allows one"
    )
    assert walk.allocation == {"PS": 23}
    assert walk.back() and walk.allocation == {}


def _walk_to_the_end(seed: int, races: list[str]) -> dict[str, object]:
    """A walk with Enter at every step, trying `races` in order at 6.3."""
    walk = new_walk(load_tables(), seed=seed)
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
    for entry in ["9", "", "", "", "", "", "", "", "", "2 9", "Giant", "6"]:
        walk.answer(entry)
    assert walk.current is not None and walk.current.key == "rolls.race_type"
    walk.answer("3")
    assert walk.current is not None and walk.current.key == "rolls.aspect"
    walk = new_walk(load_tables(), seed=1)
    for entry in ["9", "", "", "", "", "", "", "", "", "2 9", "shape changer", "4", "1"]:
        walk.answer(entry)
    assert walk.current is not None and walk.current.key == "rolls.social_status"
