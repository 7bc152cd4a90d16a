"""`chargen advance` adds one ledger entry to the file's own text: every byte outside the entry stays as the
player wrote it (comments, blank lines, indentation, quoting, flow lists, CRLF, a byte-order mark, a file
without a last newline, JSON), and the entry goes in the ledger list's own style."""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen import api
from chargen.advancing import entry_fields, entry_of
from chargen.advancing_text import added
from chargen.character_file import dump_document
from chargen.errors import ChargenError
from chargen.tables import Tables
from chargen.yamlio import load_located

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
AWARD = entry_of(award=500, note="after the siege: yes")
RAISE = entry_of(raise_="broadsword", to=4, cost=300, note="Ærwén taught him", date="2026-12-06")
#: The lines an entry adds, as each style writes it.
AWARD_YAML = "{award: 500, note: 'after the siege: yes'}"
RAISE_YAML = "{raise: broadsword, to: 4, cost: 300, note: Ærwén taught him, date: '2026-12-06'}"
AWARD_JSON = '{"award": 500, "note": "after the siege: yes"}'


def test_a_file_without_a_ledger_gets_one_at_the_end_of_its_mapping() -> None:
    made = api.advance(ROLF, "rolf.yaml", award=500, note="after the siege: yes")
    assert made.text == ROLF + f"advancement:\n- {AWARD_YAML}\n"
    assert made.entry == AWARD


def test_an_entry_follows_the_last_one_at_its_indentation_before_trailing_comments() -> None:
    text = (
        "name: x  # mine\n"
        "advancement:\n"
        "  - {award: 100}   # the first adventure\n"
        "  - raise: PS\n"
        "    to: 17\n"
        "\n"
        "# what comes next\n"
        "weapons: [dagger]\n"
    )
    made, index = added(text, "x.yaml", entry_fields(RAISE))
    assert index == 2
    assert made == text.replace("    to: 17\n", f"    to: 17\n  - {RAISE_YAML}\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\nadvancement: [{award: 1}]  # c\nz: 1\n", f"name: x\nadvancement: [{{award: 1}}, {AWARD_YAML}]  # c\nz: 1\n"),
        ("name: x\nadvancement: []\n", f"name: x\nadvancement: [{AWARD_YAML}]\n"),
        ("name: x\nadvancement: null  # none yet\nz: 1\n", f"name: x\nadvancement:  # none yet\n- {AWARD_YAML}\nz: 1\n"),
        ("name: x\nadvancement:\nz: 1\n", f"name: x\nadvancement:\n- {AWARD_YAML}\nz: 1\n"),
        ("name: x\nadvancement:\n- {award: 1}", f"name: x\nadvancement:\n- {{award: 1}}\n- {AWARD_YAML}"),
        ("name: x", f"name: x\nadvancement:\n- {AWARD_YAML}"),
        ("---\nname: x\n...\n", f"---\nname: x\nadvancement:\n- {AWARD_YAML}\n...\n"),
        ("\ufeffname: x\r\nadvancement:\r\n- {award: 1}\r\n", f"\ufeffname: x\r\nadvancement:\r\n- {{award: 1}}\r\n- {AWARD_YAML}\r\n"),
        ("{name: x}", f"{{name: x, advancement: [{AWARD_YAML}]}}"),
    ],
    ids=["flow", "empty-flow", "null", "empty", "no-last-newline", "new-no-last-newline", "document-markers", "crlf-bom", "flow-mapping"],
)  # fmt: skip
def test_each_style_of_ledger_keeps_its_style_and_every_other_byte(text: str, expected: str) -> None:
    assert added(text, "x.yaml", entry_fields(AWARD))[0] == expected


def test_json_files_get_json_in_their_own_layout(tables: Tables) -> None:
    document = dump_document(api.roll(seed=3, tables=tables), "json")
    made, _ = added(document, "x.json", entry_fields(AWARD))
    assert made == document[: -len("\n}\n")] + f',\n  "advancement": [{AWARD_JSON}]\n}}\n'
    again, index = added(made, "x.json", entry_fields(AWARD))
    assert index == 1
    assert again == made.replace(AWARD_JSON, f"{AWARD_JSON}, {AWARD_JSON}")
    listed = '{\n  "name": "x",\n  "advancement": [\n    {"award": 5}\n  ]\n}\n'
    assert added(listed, "x.json", entry_fields(AWARD))[0] == listed.replace(
        '{"award": 5}', f'{{"award": 5}},\n    {AWARD_JSON}'
    )
    assert added('{"name": "x", "advancement": null}', "x.json", entry_fields(AWARD))[0] == (
        f'{{"name": "x", "advancement": [{AWARD_JSON}]}}'
    )


def test_a_whole_file_gets_the_derived_values_it_gives_as_they_then_stand(tables: Tables) -> None:
    """A file chargen wrote whole gives its derived values: the ones the entry moves are written again
    where they stand (so that validate accepts the file), and nothing else changes."""
    document = dump_document(api.roll(seed=7, tables=tables), "yaml")
    awarded = api.advance(document, "c.yaml", award=500, tables=tables).text
    bank = "experience_bank: 112\n"
    assert awarded == document.replace(bank, "experience_bank: 612\n") + "advancement:\n- {award: 500}\n"
    raised = api.advance(awarded, "c.yaml", raise_="PS", to=17, cost=100, tables=tables).text
    assert api.validate(raised, tables=tables) == []
    head, _, rest = raised.partition("characteristics:\n  PS: 17\n")
    assert head == document.partition("characteristics:")[0]
    assert rest.endswith("advancement:\n- {award: 500}\n- {raise: PS, to: 17, cost: 100}\n")
    assert "experience_bank: 512\n" in rest


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_whole_file_in_either_format_stays_valid_through_a_raise(tables: Tables, fmt: str) -> None:
    document = "\ufeff" + dump_document(api.roll(seed=7, tables=tables), fmt).replace("\n", "\r\n")
    made = api.advance(document, "c", raise_="long-bow", to=2, cost=100, tables=tables)
    assert api.validate(made.text, tables=tables) == []
    if fmt == "json":
        assert json.loads(made.text.removeprefix("\ufeff"))["experience_bank"] == 12
    steps = SequenceMatcher(None, document, made.text, autojunk=False).get_opcodes()
    changed = [document[start:end] for kind, start, end, _, _ in steps if kind in ("replace", "delete")]
    assert changed and all(part.strip('0123456789-lnu"') == "" for part in changed), changed  # numbers, null


def test_a_derived_value_the_file_already_gave_otherwise_is_left_as_the_player_wrote_it(
    tables: Tables,
) -> None:
    document = dump_document(api.roll(seed=7, tables=tables), "yaml")
    edited = document.replace("\n  defense: 20\n", "\n  defense: 99  # my own\n", 1)
    assert edited != document
    made = api.advance(edited, "c.yaml", award=500, tables=tables)
    assert "\n  defense: 99  # my own\n" in made.text
    assert "experience_bank: 612\n" in made.text


def test_values_the_reader_would_take_for_others_are_quoted() -> None:
    entry = entry_of(award=1, note="yes", date="12")
    assert (
        added("name: x\n", "x.yaml", entry_fields(entry))[0]
        == "name: x\nadvancement:\n- {award: 1, note: 'yes', date: '12'}\n"
    )


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({}, "give either an award of Experience or a raise, one a call (12, 17)"),
        ({"award": 5, "raise_": "PS", "to": 3}, "give either an award of Experience or a raise"),
        ({"award": 0}, "award: should be 1 or more (got 0)"),
        ({"award": -5}, "award: should be 1 or more (got -5)"),
        ({"award": 10**15 + 1}, "award: should be 1000000000000000 or less"),
        ({"award": "500"}, "award: should be a whole number (got '500')"),
        ({"award": 5, "cost": 3}, "an award takes no to or cost; those go with a raise (87)"),
        ({"raise_": "PS"}, "to: give the Rank or value 'PS' is raised to"),
        ({"raise_": "PS", "to": -1}, "to: should be 0 or more (got -1)"),
        ({"raise_": "PS", "to": 10**15 + 1}, "to: should be 1000000000000000 or less"),
        ({"raise_": "P\x07S", "to": 3}, "raise: holds a control character or line break"),
        ({"award": 5, "note": "a\nb"}, "note: holds a control character or line break"),
    ],
)
def test_an_entry_the_file_could_not_hold_is_refused_before_anything_is_built(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(ChargenError) as refused:
        api.advance(ROLF, "rolf.yaml", **given)  # type: ignore[arg-type]
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- 1\n", "a character file is a mapping of keys"),
        ("name: [1\n", "x.yaml:2:1: broken YAML"),
        ("advancement: {award: 5}\n", "advancement"),
    ],
)
def test_a_file_that_is_no_character_file_is_refused(text: str, message: str) -> None:
    with pytest.raises(ChargenError) as refused:
        api.advance(text, "x.yaml", award=5)
    assert message in str(refused.value)


LEDGERS = {
    "none": "",
    "block": "advancement:\n  - {award: 100}\n  - raise: PS\n    to: 23\n    cost: 10\n",
    "flow": "advancement: [{award: 100}]\n",
    "null": "advancement:\n",
}


@settings(max_examples=150, deadline=None)
@given(
    ledger=st.sampled_from(sorted(LEDGERS)),
    comments=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["# mine", "", "   # indented", "#"]))),
    crlf=st.booleans(),
    last_newline=st.booleans(),
)
def test_whatever_a_player_writes_around_it_every_byte_but_the_entry_is_kept(
    ledger: str, comments: list[tuple[int, str]], crlf: bool, last_newline: bool
) -> None:
    lines = (ROLF + LEDGERS[ledger]).splitlines()
    for at, comment in comments:  # a whole-line comment or a blank line may stand between any two lines
        lines.insert(at % (len(lines) + 1), comment)
    newline = "\r\n" if crlf else "\n"
    text = newline.join(lines) + (newline if last_newline else "")
    made, index = added(text, "rolf.yaml", entry_fields(AWARD))
    read = load_located(made, "rolf.yaml").data
    assert read["advancement"][-1] == {"award": 500, "note": "after the siege: yes"}
    assert index == len(read["advancement"]) - 1
    assert {key: value for key, value in read.items() if key != "advancement"} == {
        key: value for key, value in load_located(text, "rolf.yaml").data.items() if key != "advancement"
    }
    steps = SequenceMatcher(None, text, made, autojunk=False).get_opcodes()
    assert {step[0] for step in steps} <= {"equal", "insert"}  # nothing of the player's changed or lost
    assert AWARD_YAML in "".join(made[start:end] for kind, _, _, start, end in steps if kind == "insert")
