"""Stat blocks (`chargen batch --statblock`) and encounter groups (`--group`, tables/groups.yaml): the exact
text and Markdown of a block made from a character file, the CLI's blocks against the characters they
describe, groups with their leader, counts and heading values, and bad input refused in one line."""

from __future__ import annotations

import csv
import io
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.batch import BatchOptions, checked_plan
from chargen.batch.npc import make_character
from chargen.cli import main
from chargen.errors import TableError
from chargen.model import Character
from chargen.tables import Tables, load_tables
from chargen.views.cards import roster_card
from chargen.views.statblock import character_block, markdown_block, text_block
from tests.test_batch_cli import batch
from tests.test_skills_record import ADEPT

#: A bandit as a character file: the block below is what a GM reads for it (values from the book's charts,
#: through chargen.api.build; the checker in tests/rules_checker.py recomputes them for the record).
BANDIT = """
name: Wat Tyler
seed: 3
archetype: bandit
gender: male
race: human
allocation: {PS: 17, MD: 18, AG: 16, EN: 14, MA: 8, WP: 15}
rolls: {points: 9, hand: [3, 7], aspect: 55, social_status: 50, birth_order: 40, sibling_rank: 4, experience: 60, silver: 70}
weapons:
  - {name: falchion, rank: 2}
  - {name: short-bow, rank: 1}
armor: leather
shield: {name: buckler, rank: 1}
equipment_given: true
"""


@pytest.fixture(scope="module")
def bandit(tables: Tables) -> Character:
    return api.build(BANDIT, "bandit.yaml", tables=tables)


def test_a_text_block_is_what_a_gm_writes_on_a_card(bandit: Character, tables: Tables) -> None:
    combat = bandit.combat
    falchion, bow = combat.weapons
    assert text_block(roster_card(4, bandit, tables)) == (
        "Wat Tyler (4): Bandit, Human, male\n"
        f"  PS 17  MD 18  AG 16  EN 14  MA 8  WP 15  FT {bandit.characteristics.FT}  PC 8\n"
        f"  TMR {bandit.tmr}  Defense {combat.defense}  Initiative {combat.initiative}\n"
        "  Weapon     Rank   SC  Damage    IV\n"
        f"  Falchion      2   {falchion.strike_chance}  {falchion.damage:7}   {falchion.initiative}\n"
        f"  Short Bow     1   {bow.strike_chance}  {bow.damage:7}   {bow.initiative}\n"
        f"  Armor Leather (Protection {combat.armor.protection if combat.armor else 0}); Shield Buckler (Rank 1)\n"
        f"  Endurance 14  Fatigue {bandit.characteristics.FT}\n"
    )


def test_the_block_figures_are_the_characters(bandit: Character) -> None:
    """The figures above, read from the book's charts by hand for this bandit (so the test can fail)."""
    assert (bandit.characteristics.FT, bandit.tmr) == (20, 5)
    assert [(line.name, line.damage) for line in bandit.combat.weapons] == [
        ("falchion", "D10+2"),
        ("short-bow", "D10+2"),
    ]


def test_a_markdown_block(bandit: Character, tables: Tables) -> None:
    combat = bandit.combat
    falchion, bow = combat.weapons
    ft = bandit.characteristics.FT
    assert markdown_block(roster_card(4, bandit, tables), leader=True) == (
        "### Wat Tyler (4)\n"
        "\n"
        "*Bandit, Human, male (leader)*\n"
        "\n"
        "| PS | MD | AG | EN | MA | WP | FT | PC | TMR | Def | Init |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        f"| 17 | 18 | 16 | 14 | 8 | 15 | {ft} | 8 | {bandit.tmr} | {combat.defense} | {combat.initiative} |\n"
        "\n"
        "| Weapon | Rank | SC | Damage | IV |\n"
        "|---|---:|---:|---|---:|\n"
        f"| Falchion | 2 | {falchion.strike_chance} | {falchion.damage} | {falchion.initiative} |\n"
        f"| Short Bow | 1 | {bow.strike_chance} | {bow.damage} | {bow.initiative} |\n"
        "\n"
        f"**Armor** Leather (Protection {combat.armor.protection if combat.armor else 0}); "
        "**Shield** Buckler (Rank 1)  \n"
        f"**Endurance** 14 · **Fatigue** {ft}\n"
    )


def test_magic_and_skills_show_when_the_character_has_them(tables: Tables) -> None:
    adept = api.build(ADEPT, "adept.yaml", tables=tables)
    block = text_block(roster_card(1, adept, tables))
    assert block.splitlines()[-2:] == [
        "  Magic Illusions: Witchsight (racial), Light 3, Veil of Shadows 1",
        "  Skills Healer 0",
    ]
    assert "Magic" not in text_block(roster_card(1, api.build(BANDIT, "b.yaml", tables=tables), tables))


def _characters(tables: Tables, **choices: object) -> list[Character]:
    plan = checked_plan(BatchOptions(jsonl="-", **choices), tables)  # type: ignore[arg-type]
    return [make_character(plan, number, tables) for number in range(1, plan.count + 1)]


def test_the_cli_prints_a_block_per_npc(tables: Tables) -> None:
    ran = batch("-n", "3", "--seed", "4", "--archetype", "thief", "--statblock", "-", "-q")
    assert ran.exit_code == 0, ran.stderr
    characters = _characters(tables, count=3, seed=4, archetype="thief")
    cards = [roster_card(number, character, tables) for number, character in enumerate(characters, 1)]
    assert ran.stdout == "\n".join(text_block(card) for card in cards)
    assert ran.stdout.count(": Thief, ") == 3


def test_blocks_are_the_same_for_one_and_two_jobs(tmp_path: Path) -> None:
    made = []
    for jobs in ("1", "2"):
        target = tmp_path / f"blocks{jobs}.md"
        ran = batch("--group", "patrol", "-n", "3", "--seed", "8", "--statblock", target, "-q", "-j", jobs)
        assert ran.exit_code == 0, ran.stderr
        made.append(target.read_bytes())
    assert made[0] == made[1]
    assert made[0].decode().count("\n## Patrol ") + made[0].decode().startswith("## Patrol ") == 3


def test_a_named_group_has_its_leader_first_and_its_counts(tables: Tables) -> None:
    characters = _characters(tables, count=2, seed=5, group="bandit-band")
    assert len(characters) == 14
    for first in (0, 7):
        group = characters[first : first + 7]
        assert group[0].archetype == "bandit-chief"
        assert Counter(character.archetype for character in group[1:]) == {"bandit": 5, "archer": 1}


def test_the_group_heading_names_the_best_initiative_and_the_leaders_perception(tables: Tables) -> None:
    ran = batch("--group", "bandit=3,bandit-chief=1", "--seed", "6", "--statblock", "-", "-q")
    assert ran.exit_code == 0, ran.stderr
    characters = _characters(tables, count=1, seed=6, group="bandit=3,bandit-chief=1")
    leader = characters[0]
    quickest = max(characters, key=lambda character: character.combat.initiative)
    title, values = ran.stdout.splitlines()[:2]
    assert title == "== Group: Bandit Chief (leader), Bandit \u00d73 =="
    assert values == (
        f"Best Initiative {quickest.combat.initiative} ({quickest.name}); "
        f"leader's Perception {leader.characteristics.PC} ({leader.name})"
    )
    first = ran.stdout.splitlines()[3]
    assert first.startswith(f"{leader.name} (1): Bandit Chief, ") and first.endswith(" (leader)")
    assert ran.stdout.count(" (leader)\n") == 1


def test_a_leader_is_the_best_of_its_candidates(tables: Tables) -> None:
    """groups.yaml's best_of: the leader has the most 5.1 points of that many rolls; the led are rolled once."""
    many = _characters(tables, count=20, seed=9, group="patrol")
    fixed = _characters(tables, count=120, seed=9, archetype="sergeant")
    leaders = many[::6]
    plain = fixed[::6]  # the same NPC numbers, rolled once each
    assert all(lead.points.total >= once.points.total for lead, once in zip(leaders, plain, strict=True))
    assert sum(lead.points.total > once.points.total for lead, once in zip(leaders, plain, strict=True)) >= 10


def test_a_group_run_marks_group_and_leader_in_the_csv(tmp_path: Path) -> None:
    target = tmp_path / "watch.csv"
    ran = batch("--group", "village-watch", "-n", "2", "--seed", "2", "--csv", target, "-q")
    assert ran.exit_code == 0, ran.stderr
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [(row["group"], row["leader"], row["archetype"]) for row in rows[:7]] == [
        ("1", "yes", "watch-captain"),
        *([("1", "", "watchman")] * 3),
        *([("1", "", "militia")] * 2),
        ("2", "yes", "watch-captain"),
    ]


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            "bandit=5",
            "--group: 'bandit=5' needs exactly one leader, one of bandit-chief, sergeant, caravan-master, watch-captain (tables/groups.yaml); it names none",
        ),
        ("bandit=5,sergeant=1,bandit-chief=1", "it names 2 (sergeant, bandit-chief)"),
        ("bandit=5,bandit-chief=2", "a group has one leader, not 2 bandit-chief"),
        (
            "bandit=0,bandit-chief=1",
            "--group: count of 'bandit' must be a whole number of at least 1, not '0'",
        ),
        ("bandit=x,bandit-chief=1", "not 'x'"),
        ("bandits-band", "--group: 'bandits-band' is not an archetype (tables/archetypes.yaml) or a group"),
        ("pirate=2,pirate=1,sergeant=1", "'pirate' is given twice"),
    ],
)
def test_bad_group_input_is_one_line_and_writes_nothing(tmp_path: Path, group: str, message: str) -> None:
    target = tmp_path / "blocks.txt"
    ran = batch("--group", group, "--seed", "1", "--statblock", target, "-q")
    assert ran.exit_code == 2
    assert message in ran.stderr
    assert ran.stderr.count("\n") == 1 and "Traceback" not in ran.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_group_and_archetype_together_are_refused(tmp_path: Path) -> None:
    ran = batch("--group", "patrol", "--archetype", "fighter", "--statblock", tmp_path / "b.md")
    assert (ran.exit_code, ran.stderr.count("\n")) == (2, 1)
    assert "--group and --archetype" in ran.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_statblock_file_must_be_text_or_markdown(tmp_path: Path) -> None:
    ran = batch("-n", "1", "--statblock", tmp_path / "blocks.pdf")
    assert (ran.exit_code, ran.stderr.strip()) == (
        2,
        f"chargen: error: --statblock: {tmp_path / 'blocks.pdf'} does not end in .txt or .md",
    )


def _tables_with_groups(tmp_path: Path, groups: str) -> Path:
    folder = tmp_path / "tables"
    shutil.copytree(Path(load_tables().directory), folder)
    (folder / "groups.yaml").write_text(groups, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("members", "found"),
    [
        (
            "leader: sergeant\n    members: {soldeir: 4}",
            "groups.patrol.members.soldeir: unknown archetype 'soldeir'",
        ),
        ("members: {soldier: 4}", "groups.patrol: no leader: a group needs one"),
        (
            "leader: sergeant\n    members: {soldier: 0}",
            "groups.patrol.members.soldier: count 0 of 'soldier'",
        ),
        ("leader: sargent\n    members: {soldier: 1}", "groups.patrol.leader: unknown archetype 'sargent'"),
    ],
)
def test_the_groups_table_is_checked(tmp_path: Path, members: str, found: str) -> None:
    text = f"best_of: 3\nleaders: [sergeant]\ngroups:\n  patrol:\n    name: Patrol\n    {members}\n"
    folder = _tables_with_groups(tmp_path, text)
    with pytest.raises(TableError) as raised:
        load_tables(folder)
    assert found in str(raised.value)
    assert "groups.yaml" in str(raised.value)
    ran = batch("-n", "1", "--jsonl", tmp_path / "out.jsonl")  # the shipped tables are untouched
    assert ran.exit_code == 0


def test_a_run_without_a_group_draws_no_leader(tables: Tables) -> None:
    """The leaders lead a --group; the every-archetype mix is what it was before they were added."""
    choices = checked_plan(BatchOptions(count=1, jsonl="-"), tables).archetypes.choices
    leaders = set(tables.group_file.leaders)
    assert leaders and leaders <= set(tables.archetypes)
    assert set(choices) == set(tables.archetypes) - leaders


def test_a_bad_groups_table_stops_the_cli_a_line_a_problem(tmp_path: Path) -> None:
    text = (
        "best_of: 3\nleaders: [sergeant]\ngroups:\n  patrol:\n    name: Patrol\n    members: {soldier: 0}\n"
    )
    folder = _tables_with_groups(tmp_path, text)
    target = tmp_path / "blocks.md"
    with CliRunner().isolation() as (_, stderr, _):
        try:
            main(["--tables", str(folder), "batch", "--group", "patrol", "--statblock", str(target)])
        except SystemExit as exit_info:
            code = exit_info.code
    message = stderr.getvalue().decode("utf-8")
    # Two problems, a line each (every problem at once, one line each).
    assert code == 2 and message.count("\n") == 2 and "Traceback" not in message
    assert f"{folder}/groups.yaml:5:5: groups.patrol: no leader" in message
    assert "groups.yaml:6:24: groups.patrol.members.soldier: count 0 of 'soldier'" in message
    assert not target.exists()


def test_build_and_roll_print_a_block_too(tmp_path: Path, tables: Tables) -> None:
    rolf = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
    with CliRunner().isolation() as (stdout, _, _):
        try:
            main(["build", str(Path(__file__).parent / "examples" / "rolf.yaml"), "--statblock", "-"])
        except SystemExit as exit_info:
            assert not exit_info.code
    printed = stdout.getvalue().decode("utf-8")
    assert printed == character_block(api.build(rolf, "rolf.yaml", tables=tables), tables)
    assert printed.startswith("Rolf the Barbarian: Human, male\n  PS 22  MD 15  AG 13  EN 20")
    target = tmp_path / "rolf.md"
    with CliRunner().isolation() as (stdout, _, _):
        try:
            main(["roll", "--seed", "3", "--statblock", str(target)])
        except SystemExit as exit_info:
            assert not exit_info.code
    assert stdout.getvalue() == b""  # the block was asked for, not the character file
    assert target.read_text(encoding="utf-8").startswith("### ")
