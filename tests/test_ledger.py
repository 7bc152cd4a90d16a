"""The file's advancement ledger (12, 17, 87): a rolled character awarded Experience and raising a weapon and
a characteristic builds as it stands after play; its file carries the character as created and the ledger,
and builds back to itself."""

from __future__ import annotations

import json

import pytest
import yaml

from chargen import api
from chargen.character_file import Award, CharacterInput, Raise, dump_document
from chargen.character_reading import from_document
from chargen.errors import ChargenError
from chargen.jsontext import character_line
from chargen.model import Character, HistoryLine, to_document
from chargen.tables import load_tables
from chargen.values.evaluation import evaluate

SEED = 7


@pytest.fixture(scope="module")
def rolled() -> str:
    """`chargen roll --seed 7` as its file: a halfling with an unranked long bow first, PS 16."""
    return dump_document(api.roll(seed=SEED), "yaml")


def played(text: str, *entries: str) -> str:
    return text + "advancement:\n" + "".join(f"- {entry}\n" for entry in entries)


def first_entry(text: str) -> int:
    """The line of the ledger's first entry in `played(text, ...)`."""
    return text.count("\n") + 2


ISSUE = (
    "{award: 500, note: Adventure 1}",
    "{raise: long bow, to: 2, cost: 300, note: Adventure 1}",
    "{raise: ps, to: 17, cost: 100, note: Adventure 2}",
)


@pytest.fixture(scope="module")
def before(rolled: str) -> Character:
    return api.build(rolled)


@pytest.fixture(scope="module")
def after(rolled: str) -> Character:
    return api.build(played(rolled, *ISSUE))


def test_the_rolled_character_is_as_the_scenario_needs(before: Character) -> None:
    assert before.weapons[0].name == "long-bow" and before.weapons[0].rank is None
    assert before.characteristics.PS == 16 and before.experience_bank == 112
    assert before.history == [] and before.experience_total is None


def test_the_bank_is_100_higher_and_the_total_counts_the_award(before: Character, after: Character) -> None:
    assert after.experience_bank == 112 + 500 - 300 - 100
    assert after.experience_total == before.experience_points + 500


def test_the_weapon_is_rank_2_with_its_strike_chance(before: Character, after: Character) -> None:
    assert after.weapons[0].rank == 2 and after.combat.weapons[0].rank == 2
    assert (before.combat.weapons[0].strike_chance, after.combat.weapons[0].strike_chance) == (55, 82)
    worked = evaluate(after, load_tables()).by_key()["weapons.long-bow.strike_chance"]
    assert worked.value == worked.recomputed() == 82


def test_ps_is_one_higher_and_every_value_reading_it_moved(before: Character, after: Character) -> None:
    assert after.characteristics.PS == before.characteristics.PS + 1
    assert after.allocation == before.allocation  # the allocation is as created (5.2)
    # 21: the unarmed Strike Chance adds one for each point of PS above 15
    assert after.combat.unarmed.strike_chance == before.combat.unarmed.strike_chance + 1
    for worked in evaluate(after, load_tables()).values:
        assert worked.value == worked.recomputed(), worked.key


def test_the_history_names_each_note(after: Character) -> None:
    assert after.history == [
        HistoryLine(kind="award", experience=500, bank=612, note="Adventure 1"),
        HistoryLine(
            kind="raise",
            what="weapon",
            name="long-bow",
            label="Long Bow",
            before=None,
            after=2,
            experience=-300,
            charged="given",
            bank=312,
            note="Adventure 1",
        ),
        HistoryLine(
            kind="raise",
            what="characteristic",
            name="PS",
            label="PS",
            before=16,
            after=17,
            experience=-100,
            charged="given",
            bank=212,
            note="Adventure 2",
        ),
    ]


def test_the_file_carries_the_character_as_created_and_the_ledger(rolled: str, after: Character) -> None:
    written = dump_document(after, "yaml")
    assert "- {name: long-bow}\n" in written  # as created: the raise is in the ledger
    assert "history" not in written
    assert written.endswith(
        "experience_bank: 212\n"
        "advancement:\n"
        "- {award: 500, note: Adventure 1}\n"
        "- {raise: long-bow, to: 2, cost: 300, note: Adventure 1}\n"
        "- {raise: PS, to: 17, cost: 100, note: Adventure 2}\n"
        "experience_total: 712\n"
    )
    again = api.build(written)
    assert again == after
    assert dump_document(again, "yaml") == written
    assert api.validate(written) == []


def test_an_over_spend_is_refused_naming_the_shortfall(rolled: str) -> None:
    with pytest.raises(ChargenError) as error:
        api.build(played(rolled, "{award: 100}", "{raise: spear, to: 1, cost: 250}"))
    assert str(error.value) == (
        f"<input>:{first_entry(rolled) + 1}:31: advancement[1].cost: Spear to 1 costs 250 Experience Points but the bank holds "
        "212: 38 short; rule 17"
    )


def test_a_raise_with_no_cost_known_is_refused_saying_how_to_give_one(rolled: str) -> None:
    with pytest.raises(ChargenError) as error:
        api.build(played(rolled, "{raise: PS, to: 17}"))
    assert str(error.value) == (
        f"<input>:{first_entry(rolled)}:3: advancement[0]: no cost known for PS to 17: the GM's chart prices no value 17 of "
        "abilities.experience.cost_chart.characteristics.PS; give the GM's figure as `cost:` or a "
        "ruleset's chart (the Experience Cost Chart, 87.7, is not in the seeds); rule 17, 87"
    )


def test_skills_learned_and_raised_are_written_as_created(rolled: str) -> None:
    text = played(
        rolled,
        "{award: 900, date: 2026-12-06}",
        "{raise: ranger, to: 1, cost: 300}",
        "{raise: Healer, to: 0, cost: 100, note: taught by the abbess}",
        "{raise: healer, to: 1, cost: 200}",
        "{raise: unarmed combat, to: 1, cost: 50}",
    )
    made = api.build(text)
    assert [(skill.name, skill.rank) for skill in made.skills] == [("ranger", 1), ("healer", 1)]
    assert made.unarmed_rank == made.combat.unarmed.rank == 1
    assert made.experience_bank == 112 + 900 - 650
    assert [(line.what, line.before, line.after) for line in made.history[1:]] == [
        ("skill", 0, 1),
        ("skill", None, 0),
        ("skill", 0, 1),
        ("unarmed", None, 1),
    ]
    written = dump_document(made, "yaml")
    assert "skills:\n- {name: ranger, rank: 0}\ncharacteristics:" in written  # as 8.6 bought it
    assert "unarmed_rank" not in written
    assert "- {raise: healer, to: 0, cost: 100, note: taught by the abbess}\n" in written
    assert api.build(written) == made
    assert api.validate(written) == []


def test_validate_names_a_bank_the_ledger_gives_otherwise(after: Character) -> None:
    written = dump_document(after, "yaml").replace("experience_bank: 212\n", "experience_bank: 312\n")
    line = written.splitlines().index("experience_bank: 312") + 1
    assert api.validate(written) == [
        f"<input>:{line}:18: experience_bank: file says 312 but the rules give 212; leave it out and build works "
        "it out, or keep a GM's value under overrides: with a reason"
    ]


def test_a_ledger_of_typed_entries_builds_as_the_files(rolled: str, after: Character) -> None:
    """chargen.api.build_spec takes the entries as the models they are read into (chargen.character_file)."""
    read = CharacterInput.model_validate(yaml.safe_load(rolled))
    entries = [Award(award=500, note="Adventure 1")] + [
        Raise.model_validate({"raise": name, "to": to, "cost": cost, "note": note})
        for name, to, cost, note in (("long bow", 2, 300, "Adventure 1"), ("ps", 17, 100, "Adventure 2"))
    ]
    assert api.build_spec(read.model_copy(update={"advancement": entries})) == after


def test_a_batch_line_carries_the_ledger_as_the_file_does(after: Character) -> None:
    line = json.loads(character_line(after))
    assert line == json.loads(dump_document(after, "json"))
    assert "history" not in line and line["advancement"][2] == {
        "raise": "PS",
        "to": 17,
        "cost": 100,
        "note": "Adventure 2",
    }


def test_a_played_characters_mapping_reads_as_it_stands(after: Character) -> None:
    """The renderer's mapping (chargen.render.build.as_character) holds the character as created and its
    ledger: read back, it is the character after the ledger."""
    assert from_document(to_document(after)) == after
    assert from_document(json.loads(dump_document(after, "json"))) == after


def test_a_played_characters_bank_is_ruled_through_its_ledger_not_an_override(rolled: str) -> None:
    """12, 17: one bank. A GM's override of a played character's bank would leave the ledger paying from
    the rules' bank while the record shows the GM's: refused, the ledger being where a GM awards."""
    ruled = "overrides: {experience_bank: {value: 10, reason: the GM's}}\n"
    assert api.build(rolled + ruled, "<input>").experience_bank == 10  # never played: the GM's as before
    with pytest.raises(ChargenError) as error:
        api.build(played(rolled + ruled, "{award: 40}"), "<input>")
    assert str(error.value).endswith(
        "overrides.experience_bank: a played character's bank is its ledger's: record the GM's award or cost "
        "there instead; rule 12, 17"
    )
