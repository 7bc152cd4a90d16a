"""Every bad input, the same promise: every option of every command and every key of the
character file, given a wrong value (wrong type, empty, too long, out of range, duplicate, unknown), is
refused with one line on stderr and exit 2 (or one ChargenError from chargen.api): no traceback, no file."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from chargen import api
from chargen.character_file import CharacterInput
from chargen.cli import cli, main
from chargen.errors import ChargenError

EXAMPLE = yaml.safe_load((Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8"))
TOO_LONG = "x" * 1000

#: What each command needs besides the option under test (a file argument, a count).
NEEDS = {"build": ["hero.yaml"], "validate": ["hero.yaml"], "render": ["hero.yaml", "--html", "out.html"]}
NEEDS_BATCH = ["-n", "1", "-j", "1", "-q"]

#: Wrong values by the kind of option. Values an option rightly accepts are not listed for it.
WRONG: dict[str, list[str]] = {
    # A very large count, seed or job number is lawful (and a count of 10**40 would run for ever).
    "integer": ["x", "", "-1", "1.5"],
    "choice": ["x", "", TOO_LONG],
    "text": ["", TOO_LONG],
    "name": ["", "   ", TOO_LONG, "nosuch-thing"],
    "path": ["", "no/such/folder/out.yaml"],
}
#: Options whose text is a table name (or a list of them), and how a duplicate is written for each.
NAMED = {"race", "race_attempts", "strategy", "archetype", "optional"}
DUPLICATES = {"race_attempts": "elf,elf", "archetype": "fighter,fighter", "race": "elf,elf"}
#: Lawful after all: `tables --export` makes the new folder, parents and all.
LAWFUL = {("tables", "export", "no/such/folder/out.yaml")}


def _kind(option: click.Option) -> str:
    if isinstance(option.type, click.IntRange) or option.type is click.INT:
        return "integer"
    if isinstance(option.type, click.Choice):
        return "choice"
    if isinstance(option.type, click.Path) or option.name in {"jsonl", "csv_path", "out", "pdf", "roster"}:
        return "path"
    return "name" if option.name in NAMED else "text"


def _option_cases() -> Iterator[Any]:
    for command_name, command in sorted(cli.commands.items()):
        for option in command.params:
            if not isinstance(option, click.Option) or option.is_flag or option.name in {"help", "tables"}:
                continue
            wrong = list(WRONG[_kind(option)])
            if option.name in DUPLICATES:
                wrong.append(DUPLICATES[option.name])
            for value in wrong:
                if (command_name, option.name, value) in LAWFUL:
                    continue
                shown = value if len(value) < 20 else value[:8] + "..."
                yield pytest.param(
                    command_name,
                    option.opts[-1],
                    value,
                    id=f"{command_name}-{option.name}-{shown}",
                )


def _assert_refused(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    before = sorted(folder.iterdir())
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    captured = capsys.readouterr()
    assert exit_info.value.code == 2, f"{argv}: exit {exit_info.value.code}, stderr {captured.err!r}"
    lines = captured.err.splitlines()  # one line a problem, every problem at once
    assert lines and all(line.startswith("chargen: error: ") for line in lines), captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert sorted(folder.iterdir()) == before
    return captured.err


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hero.yaml").write_text(json.dumps(EXAMPLE), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("command", "option", "value"), list(_option_cases()))
def test_every_option_refuses_a_wrong_value_in_one_line(
    command: str, option: str, value: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    needs = NEEDS_BATCH if command == "batch" else NEEDS.get(command, [])
    if command == "batch" and option in {"--count", "--jobs"}:
        needs = [item for item in NEEDS_BATCH if item not in {"-n", "-j", "1"}] + (
            ["-j", "1"] if option == "--count" else ["-n", "1"]
        )
    _assert_refused([command, *needs, option, value], folder, capsys)


# --- the character file, key by key -------------------------------------------------------------------

#: Key paths of the character file a player writes, with a lawful value from the example to replace.
KEYS: list[tuple[str | int, ...]] = [
    *((key,) for key in CharacterInput.model_fields if key not in {"schema_version"}),
    *(("allocation", code) for code in ("PS", "MD", "AG", "EN", "MA", "WP")),
    *(("rolls", key) for key in EXAMPLE["rolls"]),
    ("weapons", 0, "name"),
    ("weapons", 0, "rank"),
    ("shield", "name"),
    ("shield", "rank"),
    ("points", "total"),
    ("points", "maximum"),
]
#: Wrong values: wrong type, empty, too long, out of range, unknown.
FILE_WRONG: dict[str, Any] = {
    "mapping": {"nosuch": 1},
    "list": [[1, 2]],
    "empty": "",
    "too-long": TOO_LONG,
    "negative": -1,
    "huge": 10**6,
    "unknown": "nosuch",
}
#: Keys that are derived (recomputed on build): a wrong but well-typed value there is rewritten, not refused.
DERIVED = {"characteristics", "modifiers", "tmr", "experience_multiplier", "heritage", "experience_points"}
DERIVED |= {"starting_silver", "silver_pennies", "combat", "notes", "seed", "unarmed_rank", "equipment_given"}
DERIVED |= {"experience_bank", "life_span", "starting_age", "racial_talents"}
#: Free text the player writes: any one line is lawful.
FREE_TEXT = {"name", "player", "campaign"}


def _with(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    data.setdefault("points", {"total": 88, "maximum": 23})
    data.setdefault("weapons", [{"name": "dagger"}])
    node: Any = data
    for part in path[:-1]:
        node = node.setdefault(part, {}) if isinstance(part, str) else node[part]
    node[path[-1]] = value
    return data


def _file_cases() -> Iterator[Any]:
    for path in KEYS:
        for label, value in FILE_WRONG.items():
            lenient = {"negative", "huge", "empty", "unknown", "too-long"}
            if path[0] in {"characteristics", "modifiers", "heritage", "combat"}:
                lenient.add("mapping")  # derived mappings: rewritten on build, reported by validate
            must_refuse = not (path[0] in DERIVED and label in lenient)
            # The Shield chart gives no highest Rank (17.5), so no number here can be too high.
            must_refuse = must_refuse and (path, label) != (("shield", "rank"), "huge")
            # A bare name is a language at Rank 0, as a weapon's is unranked, and 49's list is open.
            must_refuse = must_refuse and (path, label) != (("languages",), "unknown")
            must_refuse = must_refuse and not (
                path[0] in FREE_TEXT and label in {"unknown", "negative", "huge"}
            )
            shown = ".".join(map(str, path))
            yield pytest.param(path, value, must_refuse, id=f"{shown}-{label}")


@pytest.mark.parametrize(("path", "value", "must_refuse"), list(_file_cases()))
def test_every_key_of_the_file_refuses_a_wrong_value(
    path: tuple[str | int, ...],
    value: Any,
    must_refuse: bool,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = json.dumps(_with(path, value))
    try:
        api.build(text, "bad.json")
    except ChargenError as error:
        assert "\n" not in str(error)
        refused = True
    else:
        refused = False
    assert refused or not must_refuse, f"{path} = {value!r} was accepted"
    if refused:
        (folder / "bad.json").write_text(text, encoding="utf-8")
        err = _assert_refused(["build", "bad.json", "-o", "out.yaml"], folder, capsys)
        assert err.startswith("chargen: error: bad.json")


def test_a_key_given_twice_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "twice.yaml").write_text("name: Rolf\nrace: human\nname: Olaf\n", encoding="utf-8")
    err = _assert_refused(["build", "twice.yaml", "-o", "out.yaml"], folder, capsys)
    assert (
        err == "chargen: error: twice.yaml:3:1: name: appears twice (first on line 1); give each key once\n"
    )


# --- chargen.api ---------------------------------------------------------------------------------------

API_WRONG: list[tuple[str, Any]] = [
    ("name", ""),
    ("name", "   "),
    ("name", TOO_LONG),
    ("name", 5),
    ("gender", "x"),
    ("gender", ""),
    ("race", ""),
    ("race", "nosuch"),
    ("race", TOO_LONG),
    ("race", 5),
    ("race_attempts", ["elf", "elf"]),
    ("race_attempts", ["elf", "dwarf", "orc", "halfling"]),
    ("race_attempts", [""]),
    ("race_attempts", ["human"]),
    ("race_attempts", [5]),
    ("strategy", "nosuch"),
    ("strategy", ""),
    ("optional", ["XX"]),
    ("optional", [""]),
    ("optional", [None]),
]


@pytest.mark.parametrize(
    ("key", "value"), API_WRONG, ids=[f"{key}-{value!r}"[:30] for key, value in API_WRONG]
)
def test_api_roll_refuses_with_one_chargen_error(key: str, value: Any) -> None:
    with pytest.raises(ChargenError) as error:
        api.roll(seed=1, **{key: value})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        "5",
        "name: [",
        "{name: Rolf, name: Olaf}",
        "\t",
        "!!python/object:os.system x",
    ],
)
def test_api_build_and_validate_refuse_what_is_no_character_file(text: str) -> None:
    for call in (api.build, api.validate):
        with pytest.raises(ChargenError):
            call(text, "odd.yaml")
