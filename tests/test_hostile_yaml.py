"""Hostile YAML: every reproduction is one line and exit 2, nothing else."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chargen import api
from chargen.errors import ChargenError
from chargen.paths import tables_dir
from chargen.yamlio import TABLE_ALIAS_BUDGET, load_located

pytestmark = pytest.mark.slow  # chargen in a process for each case

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")

LETTERS = "abcdefghi"
#: Nine levels of nine aliases: 342 bytes that expand to 9**9 values.
BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{LETTERS[i + 1]}: &{LETTERS[i + 1]} [{','.join(['*' + LETTERS[i]] * 9)}]\n" for i in range(8)
)


def chargen(
    args: list[str], *, cwd: Path, stdin: bytes | None = b"", memory_mb: int = 400
) -> subprocess.CompletedProcess[bytes]:
    """chargen in a subprocess with its address space capped, so a bomb fails the test instead of the machine."""
    cap = memory_mb * 1024 * 1024
    program = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))\n"
        "from chargen.cli import main\n"
        "sys.argv[0] = 'chargen'\n"
        "main(sys.argv[1:])\n"
    )
    return subprocess.run(
        [sys.executable, "-c", program, *args],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=20,
        check=False,
    )


def one_line_exit_2(result: subprocess.CompletedProcess[bytes], *needles: str) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert result.stdout == b""
    assert err.count("\n") == 1 and err.startswith("chargen: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err
    return err


def test_the_alias_bomb_is_refused_under_a_memory_cap(tmp_path: Path) -> None:
    (tmp_path / "laughs.yaml").write_text(BOMB, encoding="utf-8")
    assert len(BOMB.encode()) < 400
    result = chargen(["build", "laughs.yaml"], cwd=tmp_path, memory_mb=200)
    one_line_exit_2(result, "laughs.yaml:2:", "alias")


def test_the_alias_bomb_in_an_exported_table_is_refused(tmp_path: Path) -> None:
    exported = tmp_path / "house"
    shutil.copytree(tables_dir(), exported)
    names = exported / "names.yaml"
    names.write_text(names.read_text(encoding="utf-8") + "\nbomb:\n" + textwrap.indent(BOMB, "  "), "utf-8")
    result = chargen(["--tables", str(exported), "roll", "--seed", "1"], cwd=tmp_path, memory_mb=200)
    one_line_exit_2(result, "names.yaml:", "aliases expand to too many values")


def test_a_table_may_reuse_a_small_block_through_an_alias() -> None:
    located = load_located("a: &row [1, 2]\nb: *row\n", "t.yaml", alias_budget=TABLE_ALIAS_BUDGET)
    assert located.data == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(ChargenError, match=r"t\.yaml:2:4: aliases"):
        load_located("a: &row [1, 2]\nb: *row\n", "t.yaml")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("a: &a [*a]\n", "<stdin>:1:8: alias *a refers to no finished anchor"),
        ("name: !foo bar\n", "<stdin>:1:7: YAML tags (!foo)"),
        ("<<: {a: 1}\n", "<stdin>:1:1: merge keys"),
        ("!!int\n", "<stdin>:1:1: YAML tags"),
        ("seed: !!int abc\n", "<stdin>:1:7: YAML tags"),
        ("equipment_given: !!bool maybe\n", "<stdin>:1:18: YAML tags"),
        ("name: !!timestamp x\n", "<stdin>:1:7: YAML tags"),
        ("name: !!python/name:os.system\n", "<stdin>:1:7: YAML tags"),
        ("name: &n Rolf\nrace: *n\n", "<stdin>:2:7: aliases (*n) are not allowed"),
        ("seed: 1\n---\nseed: 2\n", "one YAML document"),
        ("seed: .inf\n", "<stdin>:1:7: number .inf is out of range"),
    ],
)
def test_tags_aliases_and_merge_keys_are_one_line(tmp_path: Path, text: str, needle: str) -> None:
    one_line_exit_2(chargen(["build", "-"], cwd=tmp_path, stdin=text.encode()), needle)


def test_undecodable_bytes_on_standard_input_name_their_place(tmp_path: Path) -> None:
    result = chargen(["build", "-"], cwd=tmp_path, stdin=b"name: \xff\n")
    one_line_exit_2(result, "<stdin>:1:7: not UTF-8")


def test_a_closed_standard_input_is_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "chargen", "build", "-"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
        preexec_fn=lambda: os.close(0),
        timeout=20,
    )
    one_line_exit_2(result, "standard input is closed")


def test_an_exported_table_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    exported = tmp_path / "house"
    shutil.copytree(tables_dir(), exported)
    (exported / "races.yaml").write_bytes(b"# caf\xe9\n" + (exported / "races.yaml").read_bytes())
    result = chargen(["--tables", str(exported), "roll", "--seed", "1"], cwd=tmp_path)
    one_line_exit_2(result, "races.yaml:1:6: not UTF-8")


@pytest.mark.parametrize(("value", "needle"), [("1e308", "should be a number"), ("1.0e+308", "out of range")])
def test_a_huge_favour_in_an_exported_archetype_is_one_line(tmp_path: Path, value: str, needle: str) -> None:
    exported = tmp_path / "house"
    shutil.copytree(tables_dir(), exported)
    archetypes = exported / "archetypes.yaml"
    text = archetypes.read_text(encoding="utf-8")
    assert "favours: {PS: 5," in text
    archetypes.write_text(text.replace("favours: {PS: 5,", f"favours: {{PS: {value},", 1), encoding="utf-8")
    result = chargen(
        ["--tables", str(exported), "roll", "--seed", "1", "--strategy", "fighter"], cwd=tmp_path
    )
    one_line_exit_2(result, "archetypes.yaml:", needle)


def test_a_file_over_the_size_limit_is_refused_without_echoing_it(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("name: " + "x" * 50_000_000 + "\n", encoding="utf-8")
    err = one_line_exit_2(chargen(["build", "big.yaml"], cwd=tmp_path), "over the limit")
    assert len(err) < 300


def test_a_long_name_is_quoted_short() -> None:
    with pytest.raises(ChargenError) as failure:
        api.build(ROLF.replace("Rolf the Barbarian", "R" * 100_000))
    assert "500 characters" in str(failure.value)
    assert len(str(failure.value)) < 300


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ('"MA\\n5"', "'MA\\n5': unknown key"),
        ('"tab\\there"', "'tab\\there': unknown key"),
        ('" padded"', "' padded': unknown key"),
        ('? "' + "k" * 5_000 + '"\n', "k" * 37 + "...: unknown key"),
    ],
)
def test_an_unknown_key_is_quoted_on_one_line(key: str, shown: str) -> None:
    """A key with a newline (hypothesis found one) or a huge key is quoted and cut in the key path."""
    with pytest.raises(ChargenError) as failure:
        api.build(f"{key}: 1\n{ROLF}", "rolf.yaml")
    message = str(failure.value)
    assert "\n" not in message
    assert message.startswith("rolf.yaml:") and shown in message
    assert len(message) < 300


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("name: Rolf the Barbarian", "name: Rolf\nunarmed_rank: 1000000000000000000000000", "out of range"),
        ("name: Rolf the Barbarian", "name: Rolf\nunarmed_rank: 1000", "unarmed_rank"),
        ("shield, rank: 3}", "shield, rank: 5}", "shield.rank: Rank 5"),
        ("aspect: 17,", "aspect: 17, beauty: [1, 2, 3, 4],", "optional does not list PB"),
        ("name: Rolf the Barbarian", "name: Rolf\nseed: true", "seed"),
        ("name: Rolf the Barbarian", "name: Rolf\nseed: '5'", "seed"),
        ("PS: 22,", "PS: 22.0,", "allocation.PS"),
        ("name: Rolf the Barbarian", "name: Rolf\nequipment_given: 'yes'", "equipment_given"),
    ],
)
def test_values_the_rules_do_not_allow_are_refused(old: str, new: str, needle: str) -> None:
    assert old in ROLF
    with pytest.raises(ChargenError) as failure:
        api.build(ROLF.replace(old, new, 1), "rolf.yaml")
    assert needle in str(failure.value)
    assert "\n" not in str(failure.value)


def test_rolf_still_builds() -> None:
    assert api.build(ROLF, "rolf.yaml").name == "Rolf the Barbarian"


# The fuzz: YAML-level structure (anchors, aliases, tags, flow and block, odd bytes) spliced into a real
# character file. Whatever comes out, chargen.api raises a ChargenError or builds; nothing else.
PIECES = st.sampled_from(
    [
        "&a ",
        "*a",
        "*b",
        "!!int ",
        "!!str ",
        "!!python/object:os.system ",
        "!x ",
        "<<: ",
        "[",
        "]",
        "{",
        "}",
        ", ",
        ": ",
        "\n",
        "\n  ",
        "- ",
        "? ",
        "---\n",
        "...\n",
        "'",
        '"',
        "\\xff",
        "%YAML 1.1\n",
        "1e308",
        ".nan",
        "0x7f",
        "~",
        "yes",
        "2024-01-01",
        "\t",
        "#",
        "|\n",
        ">-\n",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(ROLF)), st.lists(PIECES, max_size=4)), max_size=4))
def test_fuzz_yaml_structure_gives_chargen_errors_only(
    splices: list[tuple[int, list[str]]],
) -> None:
    text = ROLF
    for position, pieces in sorted(splices, reverse=True):
        text = text[:position] + "".join(pieces) + text[position:]
    try:
        api.build(text, "fuzz.yaml", seed=1)
    except ChargenError as error:
        assert "\n" not in str(error)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes_on_standard_input(data: bytes) -> None:
    import io

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        try:
            text, source = api.read_source("-")
            api.build(text, source, seed=1)
        except ChargenError as error:
            assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("{null: 1, null: 2}", "null: appears twice"),
        ("? \n: 1\n? \n: 2\n", "null: appears twice"),
        ("{true: 1, true: 2}", "true: appears twice"),
        ("{1.5: 1, 1.5: 2}", "1.5: appears twice"),
        ("name: x\nname: y\n", "name: appears twice"),
    ],
)
def test_a_key_given_twice_is_named_whatever_yaml_reads_it_as(text: str, shown: str) -> None:
    """Found by test_fuzz_yaml_structure_gives_chargen_errors_only: a null key given twice raised an
    AttributeError while its key path was written."""
    with pytest.raises(ChargenError, match=shown):
        api.build(text, "twice.yaml", seed=1)
