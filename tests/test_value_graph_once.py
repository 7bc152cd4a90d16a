"""One evaluation: the graph that made a character's values, evaluated again on the finished Character (as
`chargen explain` and the record's workings read it), gives every value the Character carries."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chargen import api
from chargen.errors import ChargenError
from chargen.export.foundry import actor_json
from chargen.export.roll20 import character_json
from chargen.render import render_html
from chargen.tables import Tables, load_tables
from chargen.values.graph import Sheet, graph
from tests.test_explain import check, npcs

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("rules", [(), ("house-combat",)])
@pytest.mark.parametrize("equip", ["buy", "give"])
def test_the_graph_of_a_finished_character_gives_the_values_it_carries(
    rules: tuple[str, ...], equip: str
) -> None:
    tables = load_tables(rules=rules)
    for seed in range(30):
        optional = ["18.5"] if seed % 3 == 0 and not rules else []  # house-combat counts PS in damage
        character = api.roll(seed=seed, tables=tables, equip=equip, optional=optional)  # type: ignore[arg-type]
        again = graph(Sheet.of_character(character), tables)
        assert again.characteristics == character.characteristics, seed
        assert again.tmr == character.tmr, seed
        assert again.combat == character.combat, seed
        assert again.holding.agility == character.combat.modified_agility, seed


#: A house rule's formulas naming values of the graph: Defense reads the Stun threshold and Fatigue, a
#: ranked Strike Chance reads Defense, Initiative reads Willpower.
NAMING = """
change:
  combat:
    defense:
      formula: "modified_agility + shield_defense_per_rank * shield_rank + stun_threshold + fatigue // 10"
    strike_chance:
      ranked: "base - md_shortfall_penalty * md_short + adds_modified_manual_dexterity * modified_md + rank_multiplier * rank + defense // 10"
    initiative:
      formula: "modified_agility + perception + rank_multiplier * rank + willpower // 5"
"""


def _tables(tmp_path: Path, text: str) -> Tables:
    ruleset = tmp_path / "naming.yaml"
    ruleset.write_text(text, encoding="utf-8")
    return load_tables(None, [str(ruleset)])


def test_a_book_formula_may_name_values_of_the_graph(tmp_path: Path) -> None:
    """The same NPCs under the book and under formulas that name the Stun threshold, Fatigue, Defense and
    Willpower: each value moves by what its formula adds, and every working evaluates again to its value."""
    tables = _tables(tmp_path, NAMING)
    for book, named in zip(npcs(load_tables(), 60), npcs(tables, 60), strict=True):
        combat, stats, plain = named.combat, named.characteristics, book.combat
        assert combat.defense == (plain.defense or 0) + combat.stun_threshold + stats.FT // 10, named.name
        lines = zip(plain.weapons, combat.weapons, strict=True)
        for line, moved in lines:
            added = combat.defense // 10 if line.rank is not None else 0
            assert moved.strike_chance == line.strike_chance + added, (named.name, line.name)
        unarmed = combat.unarmed.strike_chance - plain.unarmed.strike_chance
        assert unarmed == (combat.defense // 10 if combat.unarmed.rank is not None else 0)
        initiatives = [line.initiative for line in (*combat.weapons, combat.unarmed)] + [combat.initiative]
        book = [line.initiative for line in (*plain.weapons, plain.unarmed)] + [plain.initiative]
        assert [value - stats.WP // 5 for value in initiatives] == book
        assert check(named, tables) > 20  # each working evaluates again to its value


def test_chargen_explain_names_a_value_of_the_graph_a_formula_reads(tmp_path: Path) -> None:
    tables = _tables(tmp_path, NAMING)
    rolf = api.build(ROLF, tables=tables)
    (defense,) = api.explain(ROLF, names=["defense"], tables=tables)
    terms = {term.name: term for term in defense.terms}
    assert (terms["stun_threshold"].value, terms["stun_threshold"].source) == (
        rolf.combat.stun_threshold,
        "Stun threshold",
    )
    assert (terms["fatigue"].value, terms["fatigue"].source) == (rolf.characteristics.FT, "Fatigue")
    assert defense.recomputed() == rolf.combat.defense == defense.value


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            "defense: {formula: 'modified_agility + stun_threshold'}\n    stun: {threshold: 'defense // 3'}",
            "defense",
        ),
        ("initiative: {formula: 'modified_agility + perception + unarmed_initiative'}", "unarmed"),
    ],
    ids=["defense-stun", "initiative-itself"],
)
def test_a_cycle_between_the_books_values_is_refused_at_load(tmp_path: Path, change: str, named: str) -> None:
    with pytest.raises(ChargenError, match="a cycle between values") as caught:
        _tables(tmp_path, f"change:\n  combat:\n    {change}\n")
    assert named in str(caught.value)
    # told at the ruleset's change, its first line, not at the book's combat.yaml (which has no cycle)
    told = str(caught.value).split(": 1 problem: ")[-1]
    on_cycle = r"(defense\.formula|stun\.threshold|initiative\.formula)"
    assert re.match(rf"\S+\.yaml:[34]:\d+: change\.combat\.{on_cycle}: a cycle", told), told
    assert "tables/combat.yaml" not in told


def test_the_unarmed_formulas_name_only_their_own_inputs(tmp_path: Path) -> None:
    with pytest.raises(ChargenError, match="unknown input `willpower`"):
        _tables(tmp_path, "change:\n  combat:\n    unarmed: {damage: 'ps // 3 + willpower'}\n")


def test_a_book_formula_may_not_name_a_weapons_value(tmp_path: Path) -> None:
    with pytest.raises(ChargenError, match="unknown input `strike_chance`"):
        _tables(tmp_path, "change:\n  combat:\n    defense: {formula: 'modified_agility + strike_chance'}\n")


def test_a_weapon_line_is_kept_by_the_values_of_the_graph_it_names(tmp_path: Path) -> None:
    """Two Rolfs alike in all a weapon line reads but Defense (the shield's Rank, 17.5): a Strike Chance
    that names Defense is each one's own, not the line kept for the first."""
    text = "change:\n  combat:\n    strike_chance:\n      ranked: 'base + modified_md + 4 * rank + defense'\n"
    tables = _tables(tmp_path, text)
    shield = "{name: large-round-shield, rank: 3}"
    one, three = (
        api.build(ROLF.replace(shield, shield.replace("3", str(rank))), tables=tables) for rank in (1, 3)
    )
    assert one.combat.defense is not None and three.combat.defense == one.combat.defense + 2 * 4
    swords = one.combat.weapons[0], three.combat.weapons[0]
    assert swords[1].strike_chance - swords[0].strike_chance == 8


def test_every_door_takes_a_character_whose_formulas_name_values(tmp_path: Path) -> None:
    """The record (with its workings), Roll20's and Foundry's exports of a character under formulas that
    name values of the graph: each shows Defense as the graph worked it out."""
    tables = _tables(tmp_path, NAMING)
    rolf = api.build(ROLF, tables=tables)
    defense = str(rolf.combat.defense)
    assert f">{defense}<" in render_html(rolf, tables, explain=True)
    assert defense in json.dumps(character_json(rolf, tables)) and defense in json.dumps(
        actor_json(rolf, tables)
    )


def test_a_pinned_value_is_read_by_the_book_formulas_that_name_it(tmp_path: Path) -> None:
    """A GM's Stun threshold is the one Defense reads when its formula names it: Defense moves with it,
    and its working evaluates again to the Defense printed; the weapon's ruled Strike Chance reads 18.2
    again (90: 01-14 and 01-05)."""
    tables = _tables(tmp_path, NAMING)
    rolf = api.build(ROLF, tables=tables)
    ruled_text = (
        ROLF + "overrides:\n  stun_threshold: {value: 20, reason: tough}\n"
        "  weapons.dagger.strike_chance: {value: 90, reason: blessed}\n"
    )
    ruled = api.build(ruled_text, tables=tables)
    moved = 20 - rolf.combat.stun_threshold
    assert ruled.combat.stun_threshold == 20 and ruled.combat.defense == (rolf.combat.defense or 0) + moved
    assert (ruled.overrides or {})["stun_threshold"].computed == rolf.combat.stun_threshold
    dagger = ruled.combat.weapons[1]
    assert (dagger.strike_chance, dagger.endurance_damage, dagger.grievous_injury) == (90, "01-14", "01-05")
    assert check(ruled, tables) > 25


def _listed(text: str, heading: str) -> list[str]:
    """The names `chargen rules inputs` lists under the line starting with `heading`."""
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(heading)) + 1
    names = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        names.append(line.split()[0])
    return names


def test_rules_inputs_says_which_formulas_may_name_which_values(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chargen.cli import cli

    result = CliRunner().invoke(cli, ["--rules", "house-combat", "rules", "inputs"])
    assert result.exit_code == 0, result.output
    book = _listed(result.output, "the formulas above (but combat.unarmed.chance and combat.unarmed.damage)")
    own = _listed(
        result.output, "combat.values.KEY.formula (a value of your own) may name all of those, these"
    )
    assert "stun_threshold" in book and own == [
        "defense_all_out",
        "defense_defensive",
        "defense_evading",
        "sprint_tmr",
    ]
    for name in book:  # each told to the book's formulas is taken by one (Initiative cannot read itself)
        formula = (
            "modified_agility + perception" if name == "initiative" else f"modified_agility + {name} // 100"
        )
        target = "defense" if name == "initiative" else "initiative"
        if name in ("defense", "unarmed_strike_chance", "unarmed_initiative", "unarmed_base_chance"):
            target = "stun"
        body = (
            f"stun: {{threshold: 'endurance + {name} // 100'}}"
            if target == "stun"
            else f"{target}: {{formula: '{formula}'}}"
        )
        _tables(tmp_path, f"change:\n  combat:\n    {body}\n")
    for name in own:  # each told only to values of one's own is refused by a book formula, taken by one's own
        ruleset = tmp_path / "naming.yaml"
        ruleset.write_text(f"change:\n  combat:\n    stun: {{threshold: 'endurance + {name}'}}\n", "utf-8")
        with pytest.raises(ChargenError, match=f"unknown input `{name}`"):
            load_tables(None, ["house-combat", str(ruleset)])
        value = (
            f"add:\n  combat:\n    values:\n      mine: {{label: Mine, formula: '{name} + 1', rule: house}}\n"
        )
        ruleset.write_text(value, "utf-8")
        assert "mine" in load_tables(None, ["house-combat", str(ruleset)]).combat.values


@pytest.mark.parametrize(
    "before",
    [
        ["house-combat"],  # a shipped ruleset that changes other formulas of combat.yaml
        ["stun.yaml"],  # a ruleset of the GM's own that changes another section first
    ],
)
def test_a_cycle_is_told_at_the_change_that_made_it(tmp_path: Path, before: list[str]) -> None:
    (tmp_path / "stun.yaml").write_text(
        "change:\n  combat:\n    stun: {threshold: 'endurance // 3'}\n", "utf-8"
    )
    cycle = tmp_path / "cycle.yaml"
    cycle.write_text(
        "change:\n  combat:\n    stun: {recovery: 'willpower + fatigue'}\n"
        "    initiative: {formula: 'modified_agility + perception + unarmed_initiative'}\n",
        "utf-8",
    )
    rules = [name if name == "house-combat" else str(tmp_path / name) for name in before]
    with pytest.raises(ChargenError) as caught:
        load_tables(None, [*rules, str(cycle)])
    told = str(caught.value).split(": 1 problem: ")[-1]
    assert told == f"{cycle}:4:27: change.combat.initiative.formula: a cycle between values (unarmed)"
