"""`chargen advance FILE`: the file rewritten in place (or written to -o), one line saying what was recorded;
a refusal is one line, exit 2, the file byte for byte as it was and nothing left beside it."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from tests.test_cli import run

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
AWARDED = "advancement:\n- {award: 500, note: after Adventure 1}\n"


@pytest.fixture
def rolf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "rolf.yaml"
    path.write_text(ROLF, encoding="utf-8")
    return path


def bank(text: str) -> str:
    """What the line says of the bank, when the character has one."""
    made = api.build(text).experience_bank
    return "" if made is None else f"; bank {made:,}"


def test_an_award_is_written_into_the_file_in_place(rolf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chmod(rolf, 0o640)
    argv = ["advance", "rolf.yaml", "--award", "500", "--note", "after Adventure 1"]
    code, out, err = run(argv, capsys)
    assert rolf.read_text(encoding="utf-8") == ROLF + AWARDED
    assert (code, out, err) == (0, f"rolf.yaml: 500 Experience awarded{bank(ROLF + AWARDED)}\n", "")
    assert stat.S_IMODE(rolf.stat().st_mode) == 0o640
    assert sorted(path.name for path in rolf.parent.iterdir()) == ["rolf.yaml"]


def test_a_link_is_followed_and_stays_a_link(rolf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (rolf.parent / "link.yaml").symlink_to(rolf)
    code, _, err = run(["advance", "link.yaml", "--award", "500", "--note", "after Adventure 1"], capsys)
    assert (code, err) == (0, "")
    assert (rolf.parent / "link.yaml").is_symlink()
    assert rolf.read_text(encoding="utf-8") == ROLF + AWARDED


def test_output_goes_elsewhere_and_replaces_a_file_only_with_force(
    rolf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["advance", "rolf.yaml", "--award", "500", "--note", "after Adventure 1", "-o", "later.yaml"]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    assert out == f"later.yaml: 500 Experience awarded{bank(ROLF + AWARDED)}\n"
    assert rolf.read_text(encoding="utf-8") == ROLF
    assert (rolf.parent / "later.yaml").read_text(encoding="utf-8") == ROLF + AWARDED
    assert run(argv, capsys) == (
        2,
        "",
        "chargen: error: --output: later.yaml exists; use --force to replace it\n",
    )
    assert run([*argv, "--force"], capsys)[0] == 0


def test_standard_input_goes_to_standard_output(
    rolf: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["advance", "-", "--award", "500", "--note", "after Adventure 1"]
    code, out, err = run(argv, capsys, stdin=ROLF, monkeypatch=monkeypatch)
    assert (code, out, err) == (0, ROLF + AWARDED, "")
    assert rolf.read_text(encoding="utf-8") == ROLF


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--award", "-5"], "advance: Invalid value for '--award': must be a whole number of at least 1, not '-5'"),
        (["--award", "0"], "advance: Invalid value for '--award': must be a whole number of at least 1, not '0'"),
        (["--raise", "PS", "--to", "1" + "0" * 25], "advance: Invalid value for '--to': must be a whole number of at least 0, not '10000000000000000000000000'"),
        (["--raise", "PS", "--to", str(10**15 + 1)], "to: should be 1000000000000000 or less (got 1000000000000001)"),
        (["--raise", "P\x07S", "--to", "3"], "raise: holds a control character or line break; a name is one line of text (got 'P\\x07S')"),
        (["--award", "5", "--note", "a\x1bb"], "note: holds a control character or line break; a name is one line of text (got 'a\\x1bb')"),
        (["--award", "5", "--raise", "PS", "--to", "3"], "give either an award of Experience or a raise, one a call (12, 17)"),
        ([], "give either an award of Experience or a raise, one a call (12, 17)"),
        (["--raise", "PS"], "to: give the Rank or value 'PS' is raised to"),
        (["--award", "5", "--cost", "3"], "an award takes no to or cost; those go with a raise (87)"),
        (["--award", "5", "-o", "x.json"], "--output: x.json does not end in .yaml or .yml"),
        (["--award", "5", "--award", "6"], "advance: --award was given twice; give it once"),
    ],
)  # fmt: skip
def test_a_refusal_is_one_line_and_leaves_the_file_as_it_was(
    rolf: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(["advance", "rolf.yaml", *argv], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"chargen: error: {message}") and err.count("\n") == 1, err
    assert rolf.read_bytes() == ROLF.encode("utf-8")
    assert sorted(path.name for path in rolf.parent.iterdir()) == ["rolf.yaml"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- 1\n", "rolf.yaml: a character file is a mapping of keys"),
        ("name: [1\n", "rolf.yaml:2:1: broken YAML"),
        (ROLF.replace("PS: 22", "PS: 40"), "rolf.yaml:5:"),
    ],
)
def test_a_file_refused_as_it_is_is_left_as_it_is(
    rolf: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    rolf.write_text(text, encoding="utf-8")
    code, out, err = run(["advance", "rolf.yaml", "--award", "5"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"chargen: error: {message}"), err
    assert rolf.read_text(encoding="utf-8") == text


def test_awards_past_what_a_file_holds_are_refused(rolf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rolf's 120 (8.5) and an award to the most a file holds is the last allowed; one more is refused by
    the ledger itself, so a file that says it is refused at every door, not only by advance."""
    assert run(["advance", "rolf.yaml", "--award", str(10**15 - 120), "-o", "rich.yaml"], capsys)[0] == 0
    assert run(["validate", "rich.yaml"], capsys)[0] == 0
    told = (
        "chargen: error: rich.yaml: advancement[1]: the Experience would pass 1,000,000,000,000,000, more "
        "than a character file holds; rule 12\n"
    )
    assert run(["advance", "rich.yaml", "--award", "1"], capsys) == (2, "", told)
    assert rolf.read_text(encoding="utf-8") == ROLF
    twice = ROLF + f"advancement:\n- {{award: {10**15 - 120}}}\n- {{award: 1}}\n"
    Path("twice.yaml").write_text(twice, encoding="utf-8")
    assert run(["build", "twice.yaml"], capsys) == (2, "", told.replace("rich.yaml", "twice.yaml:14:3"))


def test_what_is_no_regular_file_is_rewritten_only_to_output(
    rolf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo("pipe.yaml")
    assert run(["advance", "pipe.yaml", "--award", "5"], capsys) == (
        2,
        "",
        "chargen: error: pipe.yaml: not a regular file; give -o OUT for the advanced file\n",
    )


def test_a_file_changed_while_chargen_worked_is_not_replaced(
    rolf: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player saved the file in an editor meanwhile: their save is kept, not overwritten."""
    advance = api.advance

    def saved_meanwhile(*args: Any, **kwargs: Any) -> Any:
        made = advance(*args, **kwargs)
        rolf.write_text(ROLF + "# saved meanwhile\n", encoding="utf-8")
        return made

    monkeypatch.setattr(api, "advance", saved_meanwhile)
    assert run(["advance", "rolf.yaml", "--award", "5"], capsys) == (
        2,
        "",
        "chargen: error: rolf.yaml: changed while chargen was advancing it; nothing written, run again\n",
    )
    assert rolf.read_text(encoding="utf-8") == ROLF + "# saved meanwhile\n"


def test_output_to_standard_output_says_nothing_else(rolf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["advance", "rolf.yaml", "--award", "500", "--note", "after Adventure 1", "-o", "-"]
    assert run(argv, capsys) == (0, ROLF + AWARDED, "")
    assert rolf.read_text(encoding="utf-8") == ROLF
