"""Rulesets layered over the book's tables, formulas as data, and a file that remembers its rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chargen import api
from chargen.cli import main
from chargen.errors import ChargenError
from chargen.formulas import FormulaError, compile_formula
from chargen.render import render_html
from chargen.tables import Tables, load_tables
from tests.render_fixtures.fields import parse_html


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


def ruleset(tmp_path: Path, text: str, name: str = "mine.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


def test_house_combat_strike_chance_initiative_and_damage_follow_seed_004(tables: Tables) -> None:
    house = load_tables(rules=["house-combat"])
    rolled, rolf = api.roll(seed=5, tables=house), api.build(ROLF, tables=house)
    assert rolled.rules == [house.rulesets[0].reference]
    ranked = 0
    for character in (rolled, rolf):
        stats, combat = character.characteristics, character.combat
        for line in combat.weapons:
            weapon = house.weapons[line.name]
            short = max(0, weapon.md - combat.modified_manual_dexterity) + max(0, weapon.ps - stats.PS)
            expected = weapon.base_chance + stats.MD - 5 * short  # 004: unranked adds MD
            if line.rank is not None:  # our reading: a Rank then adds modified MD + 4 x Rank to that
                expected += combat.modified_manual_dexterity + 4 * line.rank
                ranked += 1
            assert line.strike_chance == expected
            assert line.initiative == combat.modified_agility + stats.PC + (line.rank or 0)
            if (
                weapon.damage_class in ("B", "C")
                and weapon.damage_modifier is not None
                and weapon.ps <= stats.PS
            ):
                assert line.damage_modifier == weapon.damage_modifier + (stats.PS - weapon.ps) // 5
    assert ranked
    assert (rolled.combat.values or {}).get(
        "sprint_tmr"
    ) == rolled.combat.tmr * 3 // 2  # 004: TMR + 50%, rounded down
    book = api.roll(seed=5, tables=tables)
    assert [line.strike_chance for line in rolled.combat.weapons] != [
        line.strike_chance for line in book.combat.weapons
    ]


def test_house_combat_captions_show_the_changed_formulas(tables: Tables) -> None:
    house = load_tables(rules=["house-combat"])
    html = render_html(api.roll(seed=5, tables=house), house)
    assert "Strike Chance (house rule, 17.1): ranked = base + md \u2212 5 \u00d7" in html
    assert "Initiative (house rule, 12.3): modified agility + perception + rank + weapon master rank" in html
    assert re.search(r'class="label">rules</span> house-combat<', html)
    assert "Trips from Rank 2; kicks from Rank 4." in html
    assert '<span class="value">7</span><span class="label">TMR sprinting</span>' in html  # TMR 5
    book_html = render_html(api.roll(seed=5, tables=tables), tables)
    assert "house rule" not in book_html.partition("<body")[2]  # the page a person reads, not its CSS


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('change:\n  combat:\n    initiative:\n      formula: "perception +"\n', ":4:16", "syntax error"),
        (
            'change:\n  combat:\n    initiative:\n      formula: "perception + luck"\n',
            ":4:16",
            "unknown input `luck`",
        ),
        (
            'change:\n  combat:\n    breakage:\n      check: "modified_md / (manual_dexterity_multiplier - 3)"\n',
            ":4:14",
            "divide by zero",
        ),
        (
            "change:\n  combat:\n    initiative:\n      rank_multiplier: 1\n      speed: 3\n",
            ":5:14",
            "matches nothing",
        ),
        ("add:\n  weapons:\n    weapons:\n      dagger: {name: D}\n", ":4:22", "already in the base tables"),
        ("remove: [weapons.weapons.no-such]\n", ":1:10", "matches nothing"),
        (
            'change:\n  combat:\n    initiative:\n      rank_multiplier: "x"\n',
            ":4:24",
            "should be a whole number",
        ),
    ],
)
def test_a_broken_ruleset_is_one_line_with_its_place_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, message: str
) -> None:
    path = ruleset(tmp_path, text)
    out = tmp_path / "hero.yaml"
    code, _, err = run(["--rules", path, "roll", "--seed", "1", "-o", str(out)], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert f"{path}{where}" in err and message in err, err
    assert not out.exists()


def test_a_file_remembers_its_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ruleset(tmp_path, 'change:\n  combat:\n    strike_chance:\n      unranked: "base + md"\n')
    hero = tmp_path / "hero.yaml"
    assert run(["--rules", path, "roll", "--seed", "3", "-o", str(hero)], capsys)[0] == 0
    assert run(["--rules", path, "validate", str(hero)], capsys)[0] == 0
    code, _, err = run(["validate", str(hero)], capsys)
    assert (
        code == 2
        and "hero.yaml:" in err
        and "rules[0]: made with the ruleset 'mine'" in err
        and "not given" in err
    )
    Path(path).write_text(Path(path).read_text() + "# changed\n", encoding="utf-8")
    code, _, err = run(["--rules", path, "validate", str(hero)], capsys)
    assert code == 2 and "has changed since the file was made" in err


def test_a_shipped_ruleset_is_found_by_name_from_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hero = tmp_path / "hero.yaml"
    assert run(["roll", "--seed", "4", "--rules", "house-combat", "-o", str(hero)], capsys)[0] == 0
    assert "name: house-combat" in hero.read_text()
    assert run(["validate", str(hero)], capsys)[:2] == (0, f"{hero}: valid\n")


def test_rules_new_show_and_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["rules", "new", "table"], capsys)[0] == 0
    code, out, _ = run(["rules", "show", "table.yaml", "--diff"], capsys)
    assert (
        code == 0
        and out
        == "combat.strike_chance.unranked: 'base - md_shortfall_penalty * md_short' -> "
        "'base + md - md_shortfall_penalty * md_short'\n"
    )
    assert run(["rules", "new", "table"], capsys)[0] == 2
    assert run(["rules", "list"], capsys)[1].startswith("house-combat ")
    assert "A: {low: 1, high: 25}" in run(["tables", "combat", "--rules", "house-combat"], capsys)[1]


def test_formulas_refuse_what_is_not_arithmetic() -> None:
    for text in ("__import__('os')", "base.real", "[base]", "base ** 2", "'a'", "min(base, key=1)"):
        with pytest.raises(FormulaError):
            compile_formula(text, ("base",), {})
    assert compile_formula("floor(base / 3) + k", ("base",), {"k": 1})(10) == 4
    with pytest.raises(ChargenError, match="no shipped ruleset"):
        load_tables(rules=["no-such-rules"])


def test_house_defense_reads_the_stated_fallback_until_a_gm_gives_the_defensive_modifiers(
    tmp_path: Path,
) -> None:
    # The shipped ruleset gives every value its formulas need. Seed 004 has no table of defensive
    # modifiers: a weapon counts 0 (house-combat.yaml's defensive_modifier_fallback), a shield its Shield
    # Chart defense per Rank (17.5), one Rank higher.
    house = load_tables(rules=["house-combat"])
    rolf = api.build(ROLF, tables=house).combat  # broadsword Rank 3, large round shield Rank 3
    stated = 3 * 0 + 4 * (3 + 1)
    assert rolf.defense == rolf.modified_agility + stated
    assert rolf.defense_postures == {
        "all_out": 0,
        "defensive": rolf.modified_agility + 2 * stated,
        "evading": rolf.modified_agility + 2 * stated + 10,
    }
    html = render_html(api.build(ROLF, tables=house), house)
    shown = f'<span class="value">{rolf.defense}</span><span class="label">Defense</span>'
    assert shown in html
    assert "Where the tables give none: a weapon's defensive modifier 0" in parse_html(html).text()
    without = ruleset(tmp_path, "remove: [combat.defense.defensive_modifier_fallback]\n")
    dashed = api.build(ROLF, tables=load_tables(rules=["house-combat", without])).combat
    assert dashed.defense is None  # no fallback stated: "—", as before
    filled = ruleset(
        tmp_path,
        "add:\n  weapons:\n    weapons:\n      broadsword: {defensive_modifier: 2}\n"
        "  shields:\n    shields:\n      large-round-shield: {defensive_modifier: 3}\n",
    )
    rolf = api.build(ROLF, tables=load_tables(rules=["house-combat", filled])).combat
    values = 3 * 2 + 3 * (3 + 1)  # Rank x modifier; the shield one Rank higher
    assert rolf.defense == rolf.modified_agility + values
    assert rolf.defense_postures == {
        "all_out": 0,
        "defensive": rolf.modified_agility + 2 * values,
        "evading": rolf.modified_agility + 2 * values + 10,
    }
