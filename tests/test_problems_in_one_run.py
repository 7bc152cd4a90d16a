"""Every problem in one run: a step whose input failed runs on what it can still check (a Rank's maximum
needs no allocation; a seed found wrong hides no choice), none is reported twice, and none is made up from
what a broken key would have given. The steps declare the file's keys they read (chargen.all_problems)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from chargen import api
from chargen.all_problems import FILE_KEYS, FileKey, Step
from chargen.character_file import CharacterInput, Rolls
from chargen.errors import InputError
from chargen.generation import pipeline

HERE = Path(__file__).parent
NINE = HERE / "nine-mistakes.yaml"
DWARF = HERE / "seven-mistakes-dwarf.yaml"

NINE_LINES = [
    "nine-mistakes.yaml:3:7: seed: should be 0 or more (got -4)",
    "nine-mistakes.yaml:4:9: gender: should be one of: male or female (got 'femail'); did you mean 'female'?; "
    "rule 6.1",
    "nine-mistakes.yaml:5:7: race: 'dwarff' is not a race (6.3); did you mean 'dwarf'?",
    "nine-mistakes.yaml:6:7: hand: should be one of: right, left or ambidextrous (got 'rigth'); did you mean "
    "'right'?; rule 6.2",
    "nine-mistakes.yaml:8:11: strenght: unknown key; did you mean strength? Physical Strength is given under "
    "allocation, as allocation.PS (rule 5.2)",
    "nine-mistakes.yaml:9:13: allocation: PS 30 is above the maximum 23; rule 5.2",
    "nine-mistakes.yaml:9:13: allocation: WP 3 is below the minimum 5; rule 5.2",
    "nine-mistakes.yaml:10:18: weapons[0].name: 'broadswrod' is not on the Weapons Chart (20.2); did you mean "
    "'broadsword'?",
    "nine-mistakes.yaml:11:8: armor: 'chainmale' is not on the Armor Chart (18.1); did you mean 'chainmail'?",
    "nine-mistakes.yaml:12:16: shield.name: 'bucklerr' is not on the Shield Chart (17.5); did you mean "
    "'buckler'?",
]

DWARF_LINES = [
    "seven-mistakes-dwarf.yaml:5:7: hand: should be one of: right, left or ambidextrous (got 'rigth'); did "
    "you mean 'right'?; rule 6.2",
    "seven-mistakes-dwarf.yaml:6:13: allocation: PS 25 is above the maximum 23; rule 5.2",
    "seven-mistakes-dwarf.yaml:9:28: weapons[0].rank: Rank 12 is above the Crossbow's maximum Rank 5; rule "
    "20.2",
    "seven-mistakes-dwarf.yaml:11:8: armor: 'mithril' is not on the Armor Chart (18.1); one of: chainmail, "
    "cloth, full-plate, improved-plate, leather, partial-plate, scale",
    "seven-mistakes-dwarf.yaml:13:9: skills: buying these costs 100 Experience Points (100 for each skill or "
    "language at Rank 0) but the character has 30 (8.5); rule 8.6",
    "seven-mistakes-dwarf.yaml:13:17: skills[0].name: 'heeler' is not a skill (48-62); did you mean 'healer'?",
    "seven-mistakes-dwarf.yaml: equipment: costs 49 Silver Pennies but the purse holds 30 (8.5); buy less, "
    "or set equipment_given: true",
]
#: The dwarf's seven mistakes, each as its player would put it right.
DWARF_FIXES = {
    "hand: rigth": "hand: right",
    "PS: 25": "PS: 23",
    "WP: 11": "WP: 13",
    "rank: 12": "rank: 2",
    "armor: mithril": "armor: leather",
    "{name: heeler, rank: 0}, ": "",
    "experience: 5,": "experience: 100,",
    "languages:": "equipment_given: true\nlanguages:",
}


@pytest.mark.parametrize(("file", "lines"), [(NINE, NINE_LINES), (DWARF, DWARF_LINES)], ids=["nine", "dwarf"])
@pytest.mark.parametrize("command", ["build", "validate"])
def test_every_mistake_is_one_line_in_one_run(
    tmp_path: Path, file: Path, lines: list[str], command: str
) -> None:
    (tmp_path / file.name).write_text(file.read_text(encoding="utf-8"), encoding="utf-8")
    args = [command, file.name, *(["-o", "out.yaml"] if command == "build" else [])]
    result = subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [f"chargen: error: {line}" for line in lines]
    assert len(set(lines)) == len(lines) >= 7  # none twice
    assert sorted(path.name for path in tmp_path.iterdir()) == [file.name]  # nothing written


def test_the_dwarf_put_right_builds_so_nothing_was_held_back() -> None:
    text = DWARF.read_text(encoding="utf-8")
    for mistake, fixed in DWARF_FIXES.items():
        assert mistake in text
        text = text.replace(mistake, fixed)
    dwarf = api.build(text, "dwarf.yaml")
    assert (dwarf.hand, dwarf.armor, dwarf.weapons[0].rank) == ("right", "leather", 2)
    assert [skill.name for skill in dwarf.skills] == ["merchant"]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # A seed found wrong rolls nothing: the choices are checked, the purse (rolled) is not.
        (
            "seed: -1\nrace: dwarf\nweapons: [{name: crossbow, rank: 12}]\narmor: full-plate\n"
            "shield: tower-shield\n",
            [
                "<in>:1:7: seed: should be 0 or more (got -1)",
                "<in>:3:34: weapons[0].rank: Rank 12 is above the Crossbow's maximum Rank 5; rule 20.2",
            ],
        ),
        # The allocation broken, a Rank's maximum is told, its PS and MD (the allocation's) are not.
        (
            "allocation: {PS: 5, MD: 5, AG: 5, EN: 5, MA: 5, WP: x}\nrace: dwarf\n"
            "weapons: [{name: crossbow, rank: 12}, {name: heavy-crossbow, rank: 1}]\n",
            [
                "<in>:1:53: allocation.WP: should be a whole number (got 'x'); rule 5.2",
                "<in>:3:34: weapons[0].rank: Rank 12 is above the Crossbow's maximum Rank 5; rule 20.2",
            ],
        ),
        # The heritage's dice broken, the Experience spent is not judged, the skill's name is.
        (
            "race: human\nrolls: {experience: 101}\nskills: [{name: heeler, rank: 0}, {name: merchant, rank: 9}]\n",
            [
                "<in>:2:21: rolls.experience: 101 is not a D100 roll (1-100); rule 8.5",
                "<in>:3:17: skills[0].name: 'heeler' is not a skill (48-62); did you mean 'healer'?",
            ],
        ),
        # A misspelt archetype hides no allocation the file gives (5.2 checks it whatever archetype it names).
        (
            "archetype: fightr\nallocation: {PS: 25, MD: 15, AG: 14, EN: 18, MA: 5, WP: 11}\n",
            [
                "<in>:1:12: archetype: 'fightr' is not an archetype (tables/archetypes.yaml); did you mean "
                "'fighter'?",
                "<in>:2:13: allocation: PS 25 is above the maximum 23; rule 5.2",
            ],
        ),
        # Without the allocation, a misspelt archetype makes none up: no Rank is judged against its PS.
        (
            "archetype: fightr\nweapons: [{name: heavy-crossbow, rank: 1}]\n",
            [
                "<in>:1:12: archetype: 'fightr' is not an archetype (tables/archetypes.yaml); did you mean "
                "'fighter'?"
            ],
        ),
        # A die no step reads is told beside another mistake, once every step that reads a die has run.
        (
            "race: human\nskills: [heeler]\nrolls: {social_status: 50, birth_order: 1, sibling_rank: 3}\n",
            [
                "<in>:2:10: skills[0].name: 'heeler' is not a skill (48-62); did you mean 'healer'?",
                "<in>:3:58: rolls.sibling_rank: 3 was given but no step uses it",
            ],
        ),
        # A 5.1 roll found wrong: the allocation is held to the row its own total gives, as with no roll.
        (
            "rolls: {points: 40}\nallocation: {PS: 25, MD: 15, AG: 14, EN: 18, MA: 5, WP: 11}\n",
            [
                "<in>:1:17: rolls.points: 40 is not a 2D10 roll (2-20); rule 5.1",
                "<in>:2:13: allocation: PS 25 is above the maximum 23; rule 5.2",
            ],
        ),
        (
            "rolls: {points: 40}\nallocation: {PS: 23, MD: 15, AG: 14, EN: 18, MA: 5, WP: 13}\n",
            ["<in>:1:17: rolls.points: 40 is not a 2D10 roll (2-20); rule 5.1"],
        ),
        # A race type found wrong hides neither the race's price of armor nor its purse (8.5, 18.1).
        (
            "race: dwarf\nrace_type: fire\nrolls: {silver: 1, social_status: 1}\narmor: full-plate\n",
            [
                "<in>:2:12: race_type: Dwarf has no types; rules 6.6 and 6.9 type giants and shape-changers",
                "<in>: equipment: costs 200 Silver Pennies but the purse holds 2 (8.5); buy less, or set "
                "equipment_given: true",
            ],
        ),
    ],
    ids=[
        *("seed", "allocation", "heritage", "archetype", "archetype-alone", "unused-die"),
        *("broken-roll", "broken-roll-alone", "race-type"),
    ],
)
def test_a_broken_key_hides_nothing_and_makes_nothing_up(text: str, lines: list[str]) -> None:
    with pytest.raises(InputError) as error:
        api.build(text, "<in>")
    assert error.value.problems == lines


def test_a_rank_and_the_purse_are_told_together() -> None:
    text = "race: human\nrolls: {silver: 1, social_status: 1}\nweapons: [{name: crossbow, rank: 12}]\n"
    text += "armor: full-plate\n"
    with pytest.raises(InputError) as error:
        api.build(text, "<in>")
    assert [line.split(": ", 2)[1] for line in error.value.problems] == ["weapons[0].rank", "equipment"]


def test_the_keys_steps_read_are_the_files_own() -> None:
    """FileKey, which a step's declaration is typed by, is the file's schema: its fields and its rolls."""
    schema = {*CharacterInput.model_fields, *(f"rolls.{key}" for key in Rolls.model_fields)}
    assert set(get_args(FileKey)) == FILE_KEYS == schema
    declared = [value for value in vars(pipeline).values() if isinstance(value, Step)]
    assert len(declared) >= 10
    assert all(set(step.reads.needs) | set(step.reads.spare) <= FILE_KEYS for step in declared)
