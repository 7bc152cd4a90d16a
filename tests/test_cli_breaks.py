"""Small breaks of the command line, each a reproduction: a closed standard error or input, an option
given twice, a link pointing nowhere at an output, a ruleset file whose name the record cannot print."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from chargen.cli import cli
from tests.test_output_paths import ROOT, chargen, refused


def shell(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`line` run by sh, `chargen` being this checkout's."""
    return subprocess.run(
        ["sh", "-c", line.replace("chargen", f"{sys.executable} -m chargen", 1)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_a_batch_with_standard_error_closed_runs(tmp_path: Path) -> None:
    """`chargen batch … 2>&-` ended in AttributeError, exit 1, no word."""
    made = shell("chargen batch -n 2 --seed 1 --jsonl npcs.jsonl 2>&-", tmp_path)
    assert (made.returncode, made.stdout) == (0, "")
    assert len((tmp_path / "npcs.jsonl").read_text().splitlines()) == 2


def test_a_failure_with_standard_error_closed_is_still_exit_2(tmp_path: Path) -> None:
    made = shell("chargen batch -n 2 --jsonl /dev/full 2>&-", tmp_path)
    assert (made.returncode, made.stdout) == (2, "")


def test_new_with_standard_input_closed_says_it_needs_a_terminal(tmp_path: Path) -> None:
    """`chargen new <&-` printed a traceback."""
    made = shell("chargen new <&-", tmp_path)
    assert made.returncode == 2
    assert made.stderr == (
        "chargen: error: new: asks its questions in a terminal; without one, use `chargen roll` or "
        "`chargen build FILE`\n"
    )


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["roll", "--seed", "1", "-o", "a.yaml", "-o", "b.yaml"], "roll: --output"),
        (["roll", "--seed", "1", "--pdf", "a.pdf", "--pdf=b.pdf"], "roll: --pdf"),
        (["batch", "-n", "2", "--jsonl", "a.jsonl", "--jsonl", "b.jsonl"], "batch: --jsonl"),
        (["batch", "-n", "2", "--export", "roll20", "a", "--export", "foundry", "b"], "batch: --export"),
        (["--tables", ".", "--tables", ".", "roll"], "--tables"),
    ],
)
def test_an_option_taking_one_value_given_twice_is_refused(
    tmp_path: Path, args: list[str], option: str
) -> None:
    """A second `--export`, `--jsonl` or `-o` silently dropped the first."""
    refused(chargen(args, tmp_path), f"{option} was given twice; give it once")
    assert list(tmp_path.iterdir()) == []


def test_flags_may_be_repeated(tmp_path: Path) -> None:
    made = chargen(["roll", "--seed", "1", "-o", "a.yaml", "--force", "--force"], tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "a.yaml").is_file()


def test_every_command_refuses_repeated_options() -> None:
    from chargen.cli.shared import RefusesRepeats

    def commands(group: click.Group) -> list[click.Command]:
        found: list[click.Command] = [group]
        for command in group.commands.values():
            found += commands(command) if isinstance(command, click.Group) else [command]
        return found

    assert [command.name for command in commands(cli) if not isinstance(command, RefusesRepeats)] == []


def test_a_link_pointing_nowhere_at_an_output_needs_force(tmp_path: Path) -> None:
    """`-o` at a dangling link wrote through it without --force."""
    (tmp_path / "hero.yaml").symlink_to("elsewhere.yaml")
    refused(chargen(["roll", "--seed", "1", "-o", "hero.yaml"], tmp_path), "hero.yaml exists; use --force")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hero.yaml"]
    made = chargen(["roll", "--seed", "1", "-o", "hero.yaml", "--force"], tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "hero.yaml").is_symlink()  # followed and kept, as docs/commands.md says
    assert (tmp_path / "elsewhere.yaml").read_text().startswith("schema_version: 1\n")


@pytest.mark.parametrize(
    ("stem", "why"),
    [
        ("house\x1b[31m", "'house\\x1b[31m': holds a control character"),
        ("家規", "'家規': the Character Record cannot print 家 規"),
    ],
)
def test_a_ruleset_named_what_the_record_cannot_print_is_refused(tmp_path: Path, stem: str, why: str) -> None:
    """The file's name was recorded as the ruleset's: an ESC landed in the character file, CJK letters
    printed as empty boxes in the record's footer."""
    (tmp_path / f"{stem}.yaml").write_text("change: {}\n", encoding="utf-8")
    made = chargen(["--rules", f"{stem}.yaml", "roll", "--seed", "1", "-o", "hero.yaml"], tmp_path)
    refused(made, f"a ruleset is named after its file, and {why}")
    assert made.stderr.decode().endswith("; rename the file\n")
    assert not (tmp_path / "hero.yaml").exists()


def test_a_ruleset_named_in_other_printable_letters_is_kept(tmp_path: Path) -> None:
    (tmp_path / "Règles.yaml").write_text("change: {}\n", encoding="utf-8")
    made = chargen(["--rules", "Règles.yaml", "roll", "--seed", "1"], tmp_path)
    assert made.returncode == 0, made.stderr
    assert "- {name: Règles, sha256: " in made.stdout.decode()
