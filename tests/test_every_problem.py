"""Every problem at once, in plain words: a hand-made file with nine mistakes gets nine
lines in one run, each at its line and column, with the nearest name suggested; none is invented by the
search for the others; YAML and ruleset errors whole and in the ruleset's own words; fixed choices in any
case."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chargen import api
from chargen.errors import InputError

EXAMPLES = Path(__file__).parent / "examples"

NINE = """\
name: Nine
strenght: 15
gender: femal
race: elfe
hand: lefty
allocation: {PS: 15, MD: 15, AG: 15, EN: 15, MA: 15, WP: 'x'}
weapons: [broadswrod]
armor: chainmale
rolls: {points: 40}
skills: [{name: Heeler, rank: 0}]
"""

NINE_LINES = [
    "chargen: error: nine.yaml:2:11: strenght: unknown key; did you mean strength? Physical Strength is given "
    "under allocation, as allocation.PS (rule 5.2)",
    "chargen: error: nine.yaml:3:9: gender: should be one of: male or female (got 'femal'); did you mean "
    "'female'?; rule 6.1",
    "chargen: error: nine.yaml:4:7: race: 'elfe' is not a race (6.3); did you mean 'elf'?",
    "chargen: error: nine.yaml:5:7: hand: should be one of: right, left or ambidextrous (got 'lefty'); did you "
    "mean 'left'?; rule 6.2",
    "chargen: error: nine.yaml:6:58: allocation.WP: should be a whole number (got 'x'); rule 5.2",
    "chargen: error: nine.yaml:7:11: weapons[0].name: 'broadswrod' is not on the Weapons Chart (20.2); did you "
    "mean 'broadsword'?",
    "chargen: error: nine.yaml:8:8: armor: 'chainmale' is not on the Armor Chart (18.1); did you mean "
    "'chainmail'?",
    "chargen: error: nine.yaml:9:17: rolls.points: 40 is not a 2D10 roll (2-20); rule 5.1",
    "chargen: error: nine.yaml:10:17: skills[0].name: 'Heeler' is not a skill (48-62); did you mean 'healer'?",
]


def _chargen(folder: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=folder, capture_output=True, text=True, input=stdin
    )


@pytest.mark.slow  # chargen in a process for each case
@pytest.mark.parametrize("command", ["build", "validate"])
def test_nine_mistakes_nine_lines_in_one_run(tmp_path: Path, command: str) -> None:
    (tmp_path / "nine.yaml").write_text(NINE, encoding="utf-8")
    result = _chargen(tmp_path, command, "nine.yaml", *(["-o", "out.yaml"] if command == "build" else []))
    assert result.returncode == 2
    assert result.stderr.splitlines() == NINE_LINES
    assert sorted(path.name for path in tmp_path.iterdir()) == ["nine.yaml"]  # nothing written


def test_the_library_raises_them_as_one_error_of_nine_problems() -> None:
    with pytest.raises(InputError) as error:
        api.build(NINE, "nine.yaml")
    assert [problem.text for problem in error.value.items] == [
        line.removeprefix("chargen: error: ") for line in NINE_LINES
    ]
    assert "Traceback" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # The race set aside, its type is not refused for a race the file does not have.
        (
            "race: elfe\nrace_type: fire\n",
            ["<in>:1:7: race: 'elfe' is not a race (6.3); did you mean 'elf'?"],
        ),
        # The allocation set aside, a Rank is not refused for the PS chargen rolled in its place (20.2).
        (
            "allocation: {PS: 22, MD: 15, AG: 15, EN: 15, MA: 15, WP: many}\nrolls: {points: 9}\n"
            "weapons: [{name: two-handed-sword, rank: 1}]\n",
            ["<in>:1:58: allocation.WP: should be a whole number (got 'many'); rule 5.2"],
        ),
        # The optional step refused, the Physical Beauty dice it would have read are not "unused" (5.5).
        (
            "optional: [PB, XX]\nrolls: {points: 9, beauty: [1, 2, 3, 4]}\n",
            [
                "<in>:1:11: optional: 'XX' is neither an optional characteristic (PB) nor an optional rule "
                "(18.5); rule 5.5"
            ],
        ),
        # A mapping's missing keys are one mistake, one line.
        (
            "allocation: {strenght: 15}\n",
            [
                "<in>:1:13: allocation: PS, MD, AG, EN, MA and WP are missing; rule 5.2",
                "<in>:1:24: allocation.strenght: unknown key; did you mean PS (Physical Strength)?",
            ],
        ),
    ],
)
def test_no_problem_is_made_up_by_setting_others_aside(text: str, lines: list[str]) -> None:
    with pytest.raises(InputError) as error:
        api.build(text, "<in>")
    assert error.value.problems == lines


BRANNOC = Path(__file__).parent / "bad-brannoc.yaml"
BRANNOC_LINES = [
    "chargen: error: bad-brannoc.yaml:8:26: equipment[0].weight: should be a number of pounds (got '10 lb')",
    "chargen: error: bad-brannoc.yaml:10:13: Experience: unknown key; did you mean 'experience_points'?",
    "chargen: error: bad-brannoc.yaml:13:28: weapons[0].rank: Rank 9 is above the Hand Axe's maximum Rank 4; "
    "rule 20.2",
    "chargen: error: bad-brannoc.yaml:14:8: armor: 'plate' is not on the Armor Chart (18.1); did you mean one "
    "of: 'full-plate' (Full Plate), 'improved-plate' (Improved Plate), 'partial-plate' (Partial Plate)?",
    "chargen: error: bad-brannoc.yaml:16:12: skills[0].name: 'smith' is not a skill (48-62); one of: "
    "alchemist, assassin, astrologer, beast-master, courtesan, healer, mechanician, merchant, "
    "military-scientist, navigator, ranger, spy-and-thief, troubador",
    "chargen: error: bad-brannoc.yaml:20:5: spells[0].kind: 'earthquake' is not in the tables: Book Two's "
    "talents, spells and rituals are not (only what a race grants, 6.5); a GM adds it in a ruleset (add: "
    "abilities: magic: entries: ID: {name, kind, rule, college}), or it is kept when named with its kind "
    "(talent, spell or ritual): e.g. Fireball (spell) in the walk, kind: spell in a character file; rule 34",
    "chargen: error: bad-brannoc.yaml:21:1: name: appears twice (first on line 3); give each key once",
]
#: Brannoc's seven mistakes, each as its player would put it right.
BRANNOC_FIXES = {
    "weight: 10 lb": "weight: 10",
    "Experience: 500\n": "",
    "rank: 9": "rank: 4",
    "armor: plate": "armor: partial plate",
    "name: smith, rank: 2": "name: merchant, rank: 2",
    "name: earthquake, rank: 1": "name: earthquake, rank: 1, kind: spell",
    "name: Brannoc\n": "college: earth magics\n",
}


@pytest.mark.slow  # chargen in a process for each case
@pytest.mark.parametrize("command", ["build", "validate"])
def test_seven_mistakes_of_a_hand_written_file_in_one_run(tmp_path: Path, command: str) -> None:
    """A file a new player wrote: a weight with its unit, a key of the rulebook's words, a Rank above the
    weapon's maximum beside an armor the chart names otherwise, a skill the tables do not have, a spell
    without its kind and a key given twice: all seven at the first run, the bare language and the skill
    without a Rank taken as they are."""
    (tmp_path / BRANNOC.name).write_text(BRANNOC.read_text(encoding="utf-8"), encoding="utf-8")
    result = _chargen(tmp_path, command, BRANNOC.name, *(["-o", "out.yaml"] if command == "build" else []))
    assert (result.returncode, result.stderr.splitlines()) == (2, BRANNOC_LINES)
    assert sorted(path.name for path in tmp_path.iterdir()) == [BRANNOC.name]


def test_brannoc_put_right_builds_so_nothing_was_held_back() -> None:
    text = BRANNOC.read_text(encoding="utf-8")
    for mistake, fixed in BRANNOC_FIXES.items():
        assert mistake in text
        text = text.replace(mistake, fixed)
    brannoc = api.build(text, "brannoc.yaml", seed=1)
    assert [(skill.name, skill.rank) for skill in brannoc.skills] == [("merchant", 2), ("healer", 0)]
    assert [(language.name, language.rank) for language in brannoc.languages] == [("dwarvish", 0)]
    assert (brannoc.armor, brannoc.weapons[0].name, brannoc.weapons[0].rank) == (
        "partial-plate",
        "hand-axe",
        4,
    )


@pytest.mark.slow  # chargen in a process for each case
def test_a_typed_experience_bank_is_kept_or_refused_never_replaced(tmp_path: Path) -> None:
    """8.6: the Bank a player's file gives stays when the rules leave it; one they do not is refused,
    naming the overrides a GM writes, and nothing is written. In a file chargen wrote whole, validate
    names the stale value (build rewrites it, so a removed override gives the rules' value back)."""
    rolf = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8") + "skills: [{name: ranger, rank: 0}]\n"
    bank = api.build(rolf, "rolf.yaml").experience_bank
    (tmp_path / "kept.yaml").write_text(rolf + f"experience_bank: {bank}\n", encoding="utf-8")
    assert _chargen(tmp_path, "build", "kept.yaml", "-o", "kept-out.yaml").returncode == 0
    (tmp_path / "typed.yaml").write_text(rolf + "experience_bank: 999\n", encoding="utf-8")
    result = _chargen(tmp_path, "build", "typed.yaml", "-o", "out.yaml")
    line = rolf.count("\n") + 1
    assert (result.returncode, result.stderr) == (
        2,
        f"chargen: error: typed.yaml:{line}:18: experience_bank: file says 999 but the rules give {bank}; "
        "leave it out and build works it out, or keep a GM's value under overrides: with a reason\n",
    )
    assert not (tmp_path / "out.yaml").exists()
    made = _chargen(tmp_path, "roll", "--seed", "3", "-o", "hero.yaml")
    text = (tmp_path / "hero.yaml").read_text(encoding="utf-8")
    whole_bank = api.build(text, "hero.yaml").experience_bank
    (tmp_path / "stale.yaml").write_text(
        text.replace(f"experience_bank: {whole_bank}\n", "experience_bank: 999\n")
    )
    checked = _chargen(tmp_path, "validate", "stale.yaml")
    assert (made.returncode, checked.returncode) == (0, 2), checked
    assert (
        f"experience_bank: file says 999 but the rules give {whole_bank}" in checked.stdout + checked.stderr
    )


def test_a_file_that_builds_is_not_read_twice() -> None:
    text = "name: Rolf\nrolls: {points: 9}\n"
    assert api.build(text, "<in>", seed=1).name == "Rolf"


def test_yaml_errors_are_whole_with_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "tab.yaml").write_text("name: x\n\tfoo: 1\n", encoding="utf-8")
    result = _chargen(tmp_path, "build", "tab.yaml")
    assert (
        result.stderr
        == "chargen: error: tab.yaml:2:1: broken YAML: found a tab character that violates indentation; indent "
        "with spaces, not tabs\n"
    )


@pytest.mark.slow  # chargen in a process for each case
def test_a_ruleset_error_names_the_ruleset_and_its_key_once(tmp_path: Path) -> None:
    (tmp_path / "zero.yaml").write_text(
        "change:\n  combat:\n    stun:\n      endurance_divisor: 0\n", encoding="utf-8"
    )
    result = _chargen(tmp_path, "--rules", "zero.yaml", "roll", "--seed", "1")
    assert result.returncode == 2
    assert result.stderr == (  # not the formula that reads it as a second error, nor pydantic's words
        "chargen: error: zero.yaml:4:26: change.combat.stun.endurance_divisor: should be 1 or more (got 0)\n"
    )
    (tmp_path / "typo.yaml").write_text(
        "change:\n  combat:\n    stun:\n      endurance_divisr: 2\n", encoding="utf-8"
    )
    result = _chargen(tmp_path, "--rules", "typo.yaml", "roll", "--seed", "1")
    assert result.stderr == (
        "chargen: error: typo.yaml:4:25: change.combat.stun.endurance_divisr: matches nothing in the base "
        "tables (did you mean endurance_divisor? to put in a new entry, use `add`)\n"
    )


def test_a_broken_shipped_ruleset_names_no_installed_folder(tmp_path: Path) -> None:
    (tmp_path / "two.yaml").write_text(
        "change:\n  combat:\n    stun:\n      endurance_divisor: -1\n      recovery_willpower_multiplier: x\n",
        encoding="utf-8",
    )
    result = _chargen(tmp_path, "--rules", "two.yaml", "roll", "--seed", "1")
    lines = result.stderr.splitlines()
    assert [line.split(": ", 3)[2] for line in lines] == ["two.yaml:4:26", "two.yaml:5:38"]
    assert not any("site-packages" in line or "/tables" in line or "Value error" in line for line in lines)


@pytest.mark.slow  # chargen in a process for each case
@pytest.mark.parametrize(
    ("args", "honoured"),
    [
        (["--optional", "pb"], lambda out, folder: "optional: [PB]\n" in out and "\n  PB: " in out),
        (["--format", "JSON"], lambda out, folder: json.loads(out)["seed"] == 1),
        (["--gender", "Female"], lambda out, folder: "\ngender: female\n" in out),
        (
            ["--paper", "A4", "--html", "hero.html", "-o", "hero.yaml"],
            lambda out, folder: "size: A4" in (folder / "hero.html").read_text(encoding="utf-8"),
        ),
    ],
)
def test_every_fixed_choice_in_any_case(
    tmp_path: Path, args: list[str], honoured: Callable[[str, Path], bool]
) -> None:
    """Each choice is taken, and taken as meant: not merely not refused."""
    result = _chargen(tmp_path, "roll", "--seed", "1", *args)
    assert (result.returncode, result.stderr) == (0, "")
    assert honoured(result.stdout, tmp_path)


def test_optional_codes_in_any_case_are_written_as_the_tables_write_them(tmp_path: Path) -> None:
    result = _chargen(tmp_path, "roll", "--seed", "1", "--optional", "pb")
    assert "optional: [PB]\n" in result.stdout


def test_fixed_values_of_a_file_in_any_case() -> None:
    text = (
        "optional: [pb, 18.5]\nrolls: {points: 9, beauty: [1, 2, 3, 4]}\ngender: Female\nhand: LEFT\n"
        "weapons: [{name: dagger, increase: Rank}]\nspells: [{name: Foo, rank: 0, kind: Talent}]\n"
    )
    character = api.build(text, "<in>", seed=1)
    assert (character.optional, character.gender, character.hand) == (["PB", "18.5"], "female", "left")
    assert character.weapons[0].increase == "rank" and character.spells[0].kind == "talent"
