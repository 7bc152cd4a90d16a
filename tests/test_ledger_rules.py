"""The ledger's costs and limits (17, 87, 6.x, 20.2): a GM's chart (tests/rulesets/experience-chart.yaml, its
numbers the test's own, not the book's) times the race multiplier, rounded up; a weapon's maximum Rank;
every refusal at its key path, all told at once; explain's term for a raise; the CLI's one-line refusal."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from chargen import api
from chargen.character_file import dump_document
from chargen.cli import main
from chargen.errors import ChargenError, InputError
from chargen.tables import Tables, load_tables
from tests.test_explain import explain
from tests.test_ledger import first_entry, played

CHART = Path(__file__).parent / "rulesets" / "experience-chart.yaml"


@pytest.fixture(scope="module")
def charted() -> Tables:
    return load_tables(None, [str(CHART)])


@pytest.fixture(scope="module")
def halfling() -> str:
    """Seed 7: a halfling (multiplier 1.1), PS 16, an unranked long bow first, ranger at Rank 0, bank 112."""
    return dump_document(api.roll(seed=7), "yaml")


@pytest.fixture(scope="module")
def elf() -> str:
    """Seed 1 as an elf (multiplier 1.2): PS 18, no skills bought (its bank the 8.5 Experience)."""
    return dump_document(api.roll(seed=1, race="elf"), "yaml")


def raises(text: str, tables: Tables | None = None) -> str:
    with pytest.raises(ChargenError) as error:
        api.build(text, tables=tables)
    return str(error.value)


def test_the_chart_times_the_halflings_multiplier(halfling: str, charted: Tables) -> None:
    text = played(
        halfling, "{award: 1000}", "{raise: PS, to: 17}", "{raise: long bow, to: 2}", "{raise: ranger, to: 1}"
    )
    made = api.build(text, tables=charted)
    # 100 x 1.1 is 110 (the float 110.00000000000001 would round up to 111); (50 + 100 + 200) x 1.1 = 385
    assert [(line.experience, line.charged) for line in made.history] == [
        (1000, None),
        (-110, "chart"),
        (-385, "chart"),
        (-330, "chart"),
    ]
    assert made.experience_bank == 112 + 1000 - 110 - 385 - 330
    written = dump_document(made, "yaml")
    assert "- {raise: PS, to: 17, cost: 110}\n" in written  # the chart's cost written in
    rebuilt = api.build(written, tables=charted)
    assert rebuilt == made  # each cost written in is the chart's, and told so
    assert dump_document(rebuilt, "yaml") == written
    assert (
        api.build(written.replace("cost: 110}", "cost: 111}"), tables=charted).history[1].charged == "given"
    )


def test_the_elfs_multiplier_is_rounded_up(elf: str, charted: Tables) -> None:
    made = api.build(played(elf, "{award: 200}", "{raise: PS, to: 19}"), tables=charted)
    assert made.characteristics.PS == 19
    assert made.history[1].experience == -122  # 101 x 1.2 = 121.2, rounded up (the character pays it all)


def test_no_chart_entry_names_the_missing_step(halfling: str, charted: Tables) -> None:
    message = raises(played(halfling, "{award: 5000}", "{raise: long bow, to: 3}"), charted)
    assert message == (
        f"<input>:{first_entry(halfling) + 1}:3: advancement[1]: no cost known for Long Bow to 3: the GM's "
        "chart prices no Rank 3 of abilities.experience.cost_chart.weapons.long-bow; give the GM's figure "
        "as `cost:` or a ruleset's chart (the Experience Cost Chart, 87.7, is not in the seeds); rule 17, 87"
    )


def test_a_weapons_maximum_rank_is_its_last(halfling: str) -> None:
    # 20.2: the Long Bow's maximum Rank is 8
    made = api.build(played(halfling, "{award: 9000}", "{raise: long bow, to: 8, cost: 9000}"))
    assert made.weapons[0].rank == 8
    message = raises(played(halfling, "{award: 9000}", "{raise: long bow, to: 9, cost: 9000}"))
    assert message == (
        f"<input>:{first_entry(halfling) + 1}:25: advancement[1].to: Rank 9 is above the Long Bow's "
        "maximum Rank 8; rule 20.2"
    )


def test_every_problem_of_the_ledger_is_told_at_once(halfling: str) -> None:
    text = played(
        halfling,
        "{raise: PB, to: 20, cost: 1}",
        "{raise: PS, to: 16, cost: 1}",
        "{raise: lute, to: 1, cost: 1}",
        "{raise: spear, to: 2, cost: 500}",
    )
    with pytest.raises(InputError) as error:
        api.build(text)
    line = first_entry(halfling)
    unknown = (
        "is not a characteristic, a weapon or shield held, a skill, a language or a spell (17, 87); one of: "
        "AG, EN, FT, MA, MD, PC, PS, WP, alchemist, assassin, astrologer, beast-master, cantrip, courtesan, "
        "glamour, hand-axe, healer, long-bow, mechanician, merchant, military-scientist, navigator, ranger, "
        "sensitivity-to-danger, spear, spy-and-thief, starfire, trance, troubador, witchsight"
    )
    assert error.value.problems == [
        f"<input>:{line}:11: advancement[0].raise: 'PB' {unknown}",  # not rolled (5.5): none to raise
        f"<input>:{line + 1}:19: advancement[1].to: PS is 16 already; `to` is what it is raised to; rule 17",
        f"<input>:{line + 2}:11: advancement[2].raise: 'lute' {unknown}",
        f"<input>:{line + 3}:31: advancement[3].cost: Spear to 2 costs 500 Experience Points but the bank "
        "holds 112: 388 short; rule 17",
    ]


def test_physical_beauty_is_not_raised_with_experience() -> None:
    rolled = dump_document(api.roll(seed=7, optional=["PB"]), "yaml")
    with pytest.raises(InputError) as error:
        api.build(played(rolled, "{raise: pb, to: 20, cost: 1}"))
    assert error.value.problems == [
        f"<input>:{first_entry(rolled)}:11: advancement[0].raise: PB is not raised with Experience; rule 3.9"
    ]


def test_explain_tells_each_raise(tmp_path: Path, halfling: str) -> None:
    text = played(halfling, "{award: 500}", "{raise: PS, to: 17, cost: 100, note: Adventure 2}")
    text += "- {raise: PS, to: 18, cost: 100, date: 2026-12-06}\n"
    assert explain(tmp_path, text, "PS") == (
        "PS 18 = 19 \u2212 3 + 1 + 1 (5.2, 6.1)\n"
        "  allocated 19: 5.2's allocation\n"
        "  race \u22123: 6.4-6.9\n"
        "  raised 1: to 17 — Adventure 2 (17, 87)\n"
        "  raised 1: to 18 — 2026-12-06 (17, 87)\n"
    )


def test_the_cli_refuses_in_one_line_and_writes_nothing(tmp_path: Path, halfling: str) -> None:
    (tmp_path / "played.yaml").write_text(played(halfling, "{raise: PS, to: 17}"), encoding="utf-8")
    runner = CliRunner().isolation()
    with runner as (_, stderr, _), contextlib.chdir(tmp_path), pytest.raises(SystemExit) as exit_info:
        main(["build", "played.yaml", "-o", "out.yaml"])
    assert exit_info.value.code == 2
    assert stderr.getvalue().decode("utf-8") == (
        f"chargen: error: played.yaml:{first_entry(halfling)}:3: advancement[0]: no cost known for PS to 17: "
        "the GM's chart prices no value 17 of abilities.experience.cost_chart.characteristics.PS; give the "
        "GM's figure as `cost:` or a ruleset's chart (the Experience Cost Chart, 87.7, is not in the seeds); "
        "rule 17, 87\n"
    )
    assert not (tmp_path / "out.yaml").exists()


@pytest.mark.parametrize(
    ("entry", "told"),
    [
        ("{raise: PS}", ":3: advancement[0].to: is required"),
        ("{award: 0}", ":11: advancement[0].award: should be 1 or more (got 0)"),
        ("{award: 5, to: 3}", ":18: advancement[0].to: unknown key"),
        ("hello", ":3: advancement[0]: should be a mapping of keys (got 'hello')"),
    ],
)
def test_an_entry_of_the_wrong_shape_is_told_once_as_its_kind(halfling: str, entry: str, told: str) -> None:
    with pytest.raises(InputError) as error:
        api.build(played(halfling, entry))
    assert error.value.problems == [f"<input>:{first_entry(halfling)}{told}"]


def test_endurance_raised_leaves_fatigue_as_created(tmp_path: Path, halfling: str) -> None:
    text = played(halfling, "{raise: EN, to: 19, cost: 30}", "{raise: FT, to: 21, cost: 20}")
    made = api.build(text)
    assert (made.characteristics.EN, made.characteristics.FT) == (19, 21)  # 3.7: Fatigue raised on its own
    assert made.combat.stun_threshold != api.build(halfling).combat.stun_threshold  # 12: it reads EN
    assert explain(tmp_path, text, "FT") == (
        "FT 21 = 20 + 1 (5.3)\n"
        "  chart 20: 5.3's chart at Endurance 16\n"
        "  raised 1: to 21 — the ledger's entry 2 (17, 87)\n"
    )


def test_a_raise_past_what_a_file_holds_is_refused(halfling: str) -> None:
    made = api.build(played(halfling, "{raise: PS, to: 10000, cost: 0}", "{raise: ranger, to: 100, cost: 0}"))
    assert (made.characteristics.PS, made.skills[0].rank) == (10000, 100)
    with pytest.raises(InputError) as error:
        api.build(played(halfling, "{raise: PS, to: 10001, cost: 0}", "{raise: ranger, to: 101, cost: 0}"))
    line = first_entry(halfling)
    assert error.value.problems == [
        f"<input>:{line}:19: advancement[0].to: 10001 is more than a character file holds (10000)",
        f"<input>:{line + 1}:23: advancement[1].to: 101 is more than a character file holds (100)",
    ]


def test_a_shields_rank_raises_defense_to_its_maximum() -> None:
    rolled = dump_document(api.roll(seed=42, archetype="fighter", race="dwarf"), "yaml")  # a Buckler
    made = api.build(played(rolled, "{award: 1000}", "{raise: buckler, to: 4, cost: 10}"))
    assert made.shield is not None and made.shield.rank == 4
    assert made.combat.defense == api.build(rolled).combat.defense + 4 * 2  # 17.5: the Buckler's 2 a Rank
    with pytest.raises(InputError) as error:
        api.build(played(rolled, "{award: 1000}", "{raise: buckler, to: 5, cost: 10}"))
    assert error.value.problems == [
        f"<input>:{first_entry(rolled) + 1}:24: advancement[1].to: Rank 5 is above the maximum Rank 4 with a "
        "shield (Shield on the Weapons Chart); rule 17.5 and 20.2"
    ]


def test_magic_is_learned_as_a_files_own_is(halfling: str, elf: str) -> None:
    made = api.build(played(halfling, "{raise: cantrip, to: 0, cost: 20}"))  # 4.2: minor magic, any caster
    assert [(spell.name, spell.rank, spell.kind) for spell in made.spells] == [("cantrip", 0, "spell")]
    with pytest.raises(InputError) as error:
        api.build(played(halfling, "{raise: starfire, to: 0, cost: 20}"))
    assert error.value.problems == [
        f"<input>:{first_entry(halfling)}:11: advancement[0].raise: Starfire is cast by adepts of Celestial "
        "Magics; the file names no college; rule 34"
    ]
    with pytest.raises(InputError) as error:
        api.build(played(elf, "{raise: witchsight, to: 1, cost: 1}"))
    assert error.value.problems == [
        f"<input>:{first_entry(elf)}:11: advancement[0].raise: Witchsight is the race's own talent, not "
        "learned with Experience; rule 6.5"
    ]


def test_the_bank_pays_to_its_last_point(halfling: str) -> None:
    assert api.build(played(halfling, "{raise: spear, to: 1, cost: 112}")).experience_bank == 0
    with pytest.raises(InputError) as error:
        api.build(played(halfling, "{raise: spear, to: 1, cost: 113}"))
    assert error.value.problems == [
        f"<input>:{first_entry(halfling)}:31: advancement[0].cost: Spear to 1 costs 113 Experience Points but "
        "the bank holds 112: 1 short; rule 17"
    ]


def test_a_played_mapping_is_rendered_with_the_tables_it_is_shown_with(
    halfling: str, charted: Tables
) -> None:
    """The renderer takes a file's mapping too: a played one is built with the renderer's tables, so a
    ledger the GM's chart prices renders (the book's tables know no price)."""
    from chargen.render import render_html

    text = played(halfling, "{award: 1000}", "{raise: PS, to: 17}")
    mapping = yaml.safe_load(text)
    html = render_html(mapping, charted)
    assert "Physical Strength 16 \u2192 17" in " ".join(html.split())
    with pytest.raises(ChargenError, match="no cost known for PS to 17"):
        render_html(mapping, load_tables())
