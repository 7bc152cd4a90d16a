"""chargen batch from the command line: determinism across jobs, the outputs' shapes, and the file rules."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import main

REPO = Path(__file__).resolve().parents[1]
CSV_HEADER = (
    "number,name,archetype,race,race_type,gender,PS,MD,AG,EN,MA,WP,FT,PC,TMR,defense,initiative,"
    "weapon,weapon_rank,strike_chance,damage,armor,protection,shield,seed"
)


@dataclass(frozen=True)
class Ran:
    exit_code: int
    stdout_bytes: bytes
    stderr: str

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8")


def batch(*args: str | Path) -> Ran:
    """`chargen batch ARGS` through main(), so errors are reported exactly as on the command line."""
    with CliRunner().isolation() as (stdout, stderr, _):
        try:
            main(["batch", *map(str, args)])
        except SystemExit as exit_info:
            code = exit_info.code
    return Ran(int(code or 0), stdout.getvalue(), stderr.getvalue().decode("utf-8"))


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_output_is_byte_identical_for_one_and_two_jobs(tmp_path: Path) -> None:
    # 40 NPCs at 2 jobs make 8 chunks, so the second run really goes through the worker pool.
    common = ["-n", "40", "--seed", "11", "--archetype", "fighter=3,adept=1,peasant=2", "-q"]
    for jobs in ("1", "2"):
        run = tmp_path / f"jobs{jobs}"
        run.mkdir()
        result = batch(
            *common,
            "-j",
            jobs,
            "--jsonl",
            run / "npcs.jsonl",
            "--csv",
            run / "npcs.csv",
            "--out",
            run / "files",
        )
        assert result.exit_code == 0, result.stderr
    one, two = files_under(tmp_path / "jobs1"), files_under(tmp_path / "jobs2")
    assert one == two
    assert len([name for name in one if name.startswith("files/")]) == 40
    assert one["npcs.jsonl"].count(b"\n") == 40


def test_npc_i_does_not_depend_on_the_count(tmp_path: Path) -> None:
    batch("-n", "5", "--seed", "3", "--jsonl", tmp_path / "five.jsonl", "-q")
    batch("-n", "30", "--seed", "3", "-j", "2", "--jsonl", tmp_path / "thirty.jsonl", "-q")
    five = (tmp_path / "five.jsonl").read_text().splitlines()
    thirty = (tmp_path / "thirty.jsonl").read_text().splitlines()
    assert five == thirty[:5]


def test_csv_header_and_rows_are_exact() -> None:
    result = batch(
        "-n",
        "2",
        "--seed",
        "7",
        "--archetype",
        "guard",
        "--race",
        "orc",
        "--gender",
        "female",
        "--csv",
        "-",
        "-q",
    )
    assert result.exit_code == 0
    # A guard aims its 5.2 allocation at the halberd (20.2: PS 16, MD 16); a female orc's PS is +2-2 and her
    # MD +1 (6.x), so both hold it: Strike Chance 55 + MD 16 + 4 x Rank (17.1), 79 at the guard's Rank 2 and
    # 83 at Rank 3; the Rank and the armor vary within the archetype by the NPC's own dice.
    assert result.stdout_bytes.decode().split("\r\n") == [
        CSV_HEADER,
        "1,Nakra Gutripper the Stinking,guard,orc,,female,17,16,11,24,5,12,26,8,4,10,18,"
        "halberd,2,79,D10+3,leather,4,,887850958",
        "2,Urza Wolfbiter the Sly,guard,orc,,female,17,16,14,23,5,12,26,8,5,12,20,"
        "halberd,3,83,D10+3,chainmail,6,,764326169",
        "",
    ]


def test_jsonl_lines_are_character_files(tmp_path: Path) -> None:
    result = batch("-n", "3", "--seed", "5", "--race", "human=5,elf=1", "--jsonl", "-", "-q")
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        document = json.loads(line)
        assert document["equipment_given"] is True
        assert document["race"] in ("human", "elf")
        assert document["weapons"]


def test_files_are_numbered_by_the_width_of_the_count(tmp_path: Path) -> None:
    batch("-n", "12", "--seed", "2", "--out", tmp_path / "village", "-q")
    names = sorted(path.name for path in (tmp_path / "village").iterdir())
    assert len(names) == 12
    assert [name[:3] for name in names] == [f"{number:02d}-" for number in range(1, 13)]
    assert all(name.endswith(".yaml") and name == name.lower() and " " not in name for name in names)


def test_existing_outputs_are_not_overwritten_without_force(tmp_path: Path) -> None:
    target = tmp_path / "npcs.jsonl"
    target.write_text("keep me\n")
    refused = batch("-n", "3", "--jsonl", target)
    assert refused.exit_code == 2
    assert "npcs.jsonl exists; use --force" in refused.stderr
    assert target.read_text() == "keep me\n"
    forced = batch("-n", "3", "--jsonl", target, "--force", "-q")
    assert forced.exit_code == 0
    assert len(target.read_text().splitlines()) == 3


def test_a_folder_with_files_needs_force(tmp_path: Path) -> None:
    folder = tmp_path / "village"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    refused = batch("-n", "2", "--out", folder)
    assert refused.exit_code == 2
    assert "not empty; use --force" in refused.stderr
    assert files_under(folder) == {"notes.txt": b"mine"}
    forced = batch("-n", "2", "--out", folder, "--force", "-q")
    assert forced.exit_code == 0
    written = files_under(folder)
    assert written.pop("notes.txt") == b"mine"
    assert [name[:2] for name in sorted(written)] == ["1-", "2-"]


@pytest.mark.slow  # chargen in a process for each case
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--archetype", "figter"],
            "--archetype: 'figter' is not an archetype (tables/archetypes.yaml); did you mean 'fighter'?",
        ),
        (["--archetype", "fighter=x"], "--archetype: weight of 'fighter' must be a number, not 'x'"),
        (["--archetype", "fighter=0,adept=1"], "--archetype: weight of 'fighter' must be a positive number"),
        (["--race", "elfe"], "--race: 'elfe' is not a race (6.3); did you mean 'elf'?"),
        (["--race", "elf,elf"], "--race: 'elf' is given twice"),
    ],
)
def test_bad_options_give_one_line_and_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "chargen", "batch", "-n", "2", "--jsonl", str(tmp_path / "x.jsonl"), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stderr.startswith("chargen: error: " + message)
    assert completed.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jsonl", "-", "--csv", "-"], "--jsonl and --csv: only one output can go to standard output"),
        (["--pdf", "-"], "--pdf: a PDF cannot go to standard output"),
        (["--jsonl", "no/such/folder/x.jsonl"], "--jsonl: folder no/such/folder does not exist"),
    ],
)
def test_bad_output_choices_are_refused(args: list[str], message: str) -> None:
    result = batch("-n", "2", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_without_an_output_option_the_npcs_go_to_standard_output_as_jsonl() -> None:
    plain = batch("-n", "3", "--seed", "4", "-q")
    named = batch("-n", "3", "--seed", "4", "-q", "--jsonl", "-")
    assert (plain.exit_code, plain.stderr) == (0, "")
    assert plain.stdout_bytes == named.stdout_bytes
    assert [json.loads(line)["seed"] for line in plain.stdout.splitlines()] == [
        json.loads(line)["seed"] for line in named.stdout.splitlines()
    ]
    assert len(plain.stdout.splitlines()) == 3


@pytest.mark.slow  # chargen in a process for each case
def test_no_progress_bar_when_stderr_is_a_pipe(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "chargen", "batch", "-n", "50", "--seed", "1", "--jsonl", "-"]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=True)
    assert completed.stderr.startswith("chargen: 50 NPCs (seed 1) in ")
    assert completed.stderr.count("\n") == 1
    assert "\r" not in completed.stderr and "%" not in completed.stderr and "\x1b" not in completed.stderr
    quiet = subprocess.run([*command, "-q"], capture_output=True, text=True, cwd=REPO, check=True)
    assert quiet.stderr == ""
    assert quiet.stdout == completed.stdout


def _stderr_on_a_terminal(target: Path, extra: list[str]) -> str:
    leader, follower = pty.openpty()
    command = [
        sys.executable,
        "-m",
        "chargen",
        "batch",
        "-n",
        "300",
        "--jsonl",
        str(target),
        "--force",
        *extra,
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=follower, cwd=REPO)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process has ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0
    return seen.decode("utf-8", "replace")


@pytest.mark.slow  # chargen in a process for each case
def test_progress_bar_on_a_terminal_unless_quiet(tmp_path: Path) -> None:
    shown = _stderr_on_a_terminal(tmp_path / "npcs.jsonl", [])
    assert "NPCs  [" + "#" * 36 + "]  300/300" in shown
    assert _stderr_on_a_terminal(tmp_path / "npcs.jsonl", ["--quiet"]) == ""
