"""The value graph: weapon lines are nodes found by their place (any id a GM writes works, and an override
lands on the row it names), a ruleset's own values reach every door, and every value's working evaluates
again to the value the character carries."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.character_file import dump_document
from chargen.cli import cli
from chargen.errors import ChargenError
from chargen.export.foundry import actor_json
from chargen.export.roll20 import character_json
from chargen.formulas import MAX_FORMULA
from chargen.model import Character
from chargen.render import render_html
from chargen.tables import Tables, load_tables
from tests.test_explain import check, npcs

EXAMPLES = Path(__file__).parent / "examples"
CARRYING = Path(__file__).parent / "rulesets" / "carrying.yaml"
ROLF = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8")

#: A GM's weapons: one whose id is another's plus `-2`, and one whose id has dots.
GM_WEAPONS = """
add:
  weapons:
    weapons:
      dagger-2: {name: Long Dagger, group: sword, weight: 1, ps: 8, md: 10, base_chance: 45, damage_modifier: 1, range: null, class: A, use: M, cost: 15, max_rank: 9, hands: "1"}
      war.pick.v2: {name: War Pick, group: hafted, weight: 3, ps: 12, md: 10, base_chance: 50, damage_modifier: 3, range: null, class: B, use: M, cost: 30, max_rank: 6, hands: "1"}
"""


def _ruleset(tmp_path: Path, text: str, name: str = "gm.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _rolf_with(weapons: str, overrides: str) -> str:
    start, end = ROLF.index("weapons:"), ROLF.index("armor:")
    return ROLF[:start] + weapons + ROLF[end:] + "overrides:\n" + overrides


def test_an_override_of_dagger_2_beside_two_daggers_lands_on_its_own_row(tmp_path: Path) -> None:
    tables = load_tables(None, [str(_ruleset(tmp_path, GM_WEAPONS))])
    text = _rolf_with(
        "weapons: [{name: dagger}, {name: dagger}, {name: dagger-2, rank: 2}]\n",
        "  weapons.dagger-2.strike_chance: {value: 77, reason: a lucky blade}\n"
        "  weapons.dagger-3.initiative: {value: 31, reason: drawn first}\n",
    )
    plain = api.build(
        _rolf_with("weapons: [{name: dagger}, {name: dagger}, {name: dagger-2, rank: 2}]\n", ""),
        tables=tables,
    )
    character = api.build(text, tables=tables)
    first, second, gm = character.combat.weapons
    assert [line.name for line in character.combat.weapons] == ["dagger", "dagger", "dagger-2"]
    assert gm.strike_chance == 77 and (first, second.strike_chance) == (
        plain.combat.weapons[0],
        plain.combat.weapons[1].strike_chance,
    )
    assert second.initiative == 31 and gm.initiative == plain.combat.weapons[2].initiative
    ruled = character.overrides or {}
    assert ruled["weapons.dagger-2.strike_chance"].computed == plain.combat.weapons[2].strike_chance
    assert ruled["weapons.dagger-3.initiative"].computed == plain.combat.weapons[1].initiative
    keys = [working.key for working in api.explain(text, tables=tables, names=["weapons"])]
    assert "weapons.dagger-2.strike_chance" in keys and "weapons.dagger-3.strike_chance" in keys
    assert check(character, tables) > 25
    page = render_html(character, tables, explain=True)
    assert 'id="working-weapons-dagger-2-strike-chance"' in page
    assert 'id="working-weapons-dagger-3-strike-chance"' in page
    assert _weapon_chances(page)[:3] == [str(line.strike_chance) for line in character.combat.weapons]


def test_a_dotted_weapon_id_with_an_override_builds_explains_and_renders(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path, GM_WEAPONS)
    text = _rolf_with(
        "weapons: [{name: war.pick.v2, rank: 2}, {name: dagger}]\n",
        "  weapons.war.pick.v2.strike_chance: {value: 66, reason: the GM's pick}\n",
    )
    (tmp_path / "rolf.yaml").write_text(text, encoding="utf-8")
    tables = load_tables(None, [str(ruleset)])
    character = api.build(text, tables=tables)
    assert character.combat.weapons[0].strike_chance == 66
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        explained = runner.invoke(
            cli, ["--rules", str(ruleset), "explain", "rolf.yaml", "weapons.war.pick.v2.strike_chance"]
        )
        rendered = runner.invoke(
            cli, ["--rules", str(ruleset), "render", "rolf.yaml", "--explain", "--html", "-"]
        )
    assert explained.exit_code == 0 and explained.exception is None, explained.output
    assert explained.output.startswith("War Pick Strike Chance 66 (the GM's: the GM's pick); the rules give ")
    assert rendered.exit_code == 0 and rendered.exception is None, rendered.output
    assert _weapon_chances(rendered.output)[0].startswith("66")


class _Stats(HTMLParser):
    """The record's stat boxes as (label, value), read from the DOM's text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._in: str | None = None
        self._value = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        self._in = "value" if "value" in classes else "label" if "label" in classes else None

    def handle_data(self, data: str) -> None:
        if self._in == "value":
            self._value = data.strip()
        elif self._in == "label":
            self.found.append((data.strip(), self._value))
        self._in = None


def _stats(page: str) -> dict[str, str]:
    parser = _Stats()
    parser.feed(page)
    return dict(parser.found)


class _Chances(HTMLParser):
    """The text of each Strike Chance cell of the record's weapon lines."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "td" and dict(attrs).get("data-label") == "Strike Chance":
            self.found.append("")
            self._depth = 1
        elif self._depth and tag == "span":  # a note after the number
            self._depth = 0

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._depth = 0

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.found[-1] += data.strip()


def _weapon_chances(page: str) -> list[str]:
    parser = _Chances()
    parser.feed(page)
    return parser.found


@pytest.fixture(scope="module")
def carrying() -> tuple[Character, Tables]:
    tables = load_tables(None, [str(CARRYING)])
    return api.build(ROLF, "rolf.yaml", tables=tables), tables


def test_a_gms_value_shows_at_every_door(carrying: tuple[Character, Tables], tmp_path: Path) -> None:
    character, tables = carrying
    expected = 22 * 10 + 20  # Rolf's Physical Strength x 10 + Endurance, as the GM's formula says
    assert (character.characteristics.PS, character.characteristics.EN) == (22, 20)
    assert character.combat.values == {"carrying-capacity": expected}
    assert _stats(render_html(character, tables))["Carrying capacity"] == str(expected)
    document = json.loads(dump_document(character, "json"))
    assert document["combat"]["values"] == {"carrying-capacity": expected}
    notes = character_json(character, tables)["character"]["gmnotes"]  # type: ignore[index]
    assert f"Carrying capacity {expected} (house)." in notes
    derived = actor_json(character, tables)["system"]["attributes"]["derived"]  # type: ignore[index]
    assert derived["carrying_capacity"] == {
        "value": expected,
        "label": "Carrying capacity (house)",
        "dtype": "Number",
        "group": "derived",
    }
    (tmp_path / "rolf.yaml").write_text(ROLF, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        result = CliRunner().invoke(
            cli, ["--rules", str(CARRYING), "explain", "rolf.yaml", "carrying capacity"]
        )
    assert result.output == (
        f"Carrying capacity {expected} = 22 \u00d7 10 + 20 (house)\n"
        "  formula: physical strength \u00d7 10 + endurance\n"
        "  physical strength 22: Physical Strength\n"
        "  endurance 20: Endurance\n"
    )


def test_house_combats_sprint_lives_in_its_ruleset_alone() -> None:
    package = Path(__file__).parent.parent / "chargen"
    mentions = [
        path
        for path in package.rglob("*.py")
        if re.search(r"(?<![a-z])sprint", path.read_text(encoding="utf-8"))
    ]
    assert mentions == []
    tables = load_tables(None, ["house-combat"])
    assert tables.combat.values["sprint_tmr"].formula == "floor(tmr_armored * 1.5)"


def _values(*entries: str) -> str:
    return "add:\n  combat:\n    values:\n" + "".join(f"      {entry}\n" for entry in entries)


def test_a_cycle_between_values_is_refused_at_load_naming_them(tmp_path: Path) -> None:
    ruleset = _ruleset(
        tmp_path,
        _values(
            "reach: {label: Reach, formula: 'stride + 1', rule: house}",
            "stride: {label: Stride, formula: 'reach * 2', rule: house}",
        ),
    )
    with pytest.raises(ChargenError) as caught:
        load_tables(None, [str(ruleset)])
    assert "a cycle between values" in str(caught.value)
    assert "reach" in str(caught.value) and "stride" in str(caught.value)


def test_a_value_reading_itself_is_a_cycle(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path, _values("reach: {label: Reach, formula: 'reach + 1', rule: house}"))
    with pytest.raises(ChargenError, match="a cycle between values"):
        load_tables(None, [str(ruleset)])


def test_a_value_may_name_only_values_of_the_graph(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path, _values("reach: {label: Reach, formula: 'weapon_defense + 1', rule: house}"))
    with pytest.raises(ChargenError, match="unknown input `weapon_defense`"):
        load_tables(None, [str(ruleset)])


def test_a_values_key_may_not_take_a_graph_name(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path, _values("defense: {label: Mine, formula: '1', rule: house}"))
    with pytest.raises(ChargenError, match="a new name"):
        load_tables(None, [str(ruleset)])


def test_a_values_formula_is_bounded_at_its_edge(tmp_path: Path) -> None:
    # max(1, 1, ..., 1) is flat: only its length counts, MAX_FORMULA characters allowed, one more refused
    longest = (
        "max("
        + "1, " * ((MAX_FORMULA - 6) // 3)
        + "1" * (MAX_FORMULA - 5 - 3 * ((MAX_FORMULA - 6) // 3))
        + ")"
    )
    assert len(longest) == MAX_FORMULA
    allowed = _ruleset(
        tmp_path, _values(f"long: {{label: Long, formula: '{longest}', rule: house}}"), "a.yaml"
    )
    load_tables(None, [str(allowed)])
    too_long = longest.replace("max(", "max(1")
    refused = _ruleset(
        tmp_path, _values(f"long: {{label: Long, formula: '{too_long}', rule: house}}"), "b.yaml"
    )
    with pytest.raises(ChargenError):
        load_tables(None, [str(refused)])


def test_a_values_result_past_what_a_file_holds_is_one_error(tmp_path: Path) -> None:
    ruleset = _ruleset(
        tmp_path, _values("huge: {label: Huge, formula: 'physical_strength * 1000000000000000', rule: house}")
    )
    tables = load_tables(None, [str(ruleset)])
    with pytest.raises(ChargenError, match="not a whole number within"):
        api.build(ROLF, tables=tables)


def test_a_pinned_value_is_read_by_the_values_that_depend_on_it(tmp_path: Path) -> None:
    ruleset = _ruleset(
        tmp_path,
        _values(
            "stride: {label: Stride, formula: 'tmr_armored + agility', rule: house}",
            "reach: {label: Reach, formula: 'stride * 2', rule: house}",
        ),
    )
    tables = load_tables(None, [str(ruleset)])
    rolf = api.build(ROLF, tables=tables)
    values = rolf.combat.values or {}
    assert values["reach"] == 2 * values["stride"] == 2 * (rolf.combat.tmr + rolf.characteristics.AG)
    ruled = api.build(ROLF + "overrides:\n  stride: {value: 40, reason: long legs}\n", tables=tables)
    assert ruled.combat.values == {"stride": 40, "reach": 80}
    assert (ruled.overrides or {})["stride"].computed == values["stride"]
    tmr = api.build(ROLF + "overrides:\n  combat.tmr: {value: 9, reason: fleet}\n", tables=tables)
    assert tmr.combat.values == {"stride": 9 + 13, "reach": 2 * (9 + 13)}
    assert check(ruled, tables) > 25 and check(tmr, tables) > 25


@pytest.mark.parametrize(
    ("rules", "count"),
    [((), 200), (("house-combat",), 150), ((str(CARRYING),), 150)],
    ids=["book", "house-combat", "gm-value"],
)
def test_every_working_evaluates_again_to_its_value(rules: tuple[str, ...], count: int) -> None:
    # 500 characters in all: each value's working, evaluated again from its own formula on its stated
    # inputs, gives the value the character carries.
    tables = load_tables(None, list(rules))
    assert sum(check(character, tables) for character in npcs(tables, count)) > count * 25


def test_a_changed_one_formula_value_prints_its_own_caption(tmp_path: Path) -> None:
    from chargen.render import captions

    ruleset = _ruleset(
        tmp_path,
        "change:\n  combat:\n    stun:\n      threshold: 'endurance // 2'\n    breakage:\n      check: '2 * modified_md'\n",
    )
    combat = load_tables(None, [str(ruleset)]).combat
    assert captions.stun_threshold(combat) == "Stun (house rule, 19): endurance div 2."
    assert captions.stun_recovery(combat) == "2 \u00d7 WP + FT"  # the book's, unchanged
    assert captions.breakage_check(combat) == "Breakage (house rule, 17.3): 2 \u00d7 modified md."
    book = load_tables().combat
    assert captions.stun_threshold(book) == "damage from one strike that Stuns (over EN \u00f7 3)"


@pytest.mark.parametrize(
    ("first", "second", "told"),
    [
        ("defense", "combat.defense", "'defense'"),
        ("tmr", "TMR", "'tmr'"),
        ("experience_bank", "experience-bank", "'experience_bank'"),
        (
            "Weapons.Broadsword.Initiative",
            "weapons.broadsword.initiative",
            "'Weapons.Broadsword.Initiative' (weapons.broadsword.initiative)",
        ),
    ],
)
def test_two_rulings_of_one_value_are_refused_naming_both(first: str, second: str, told: str) -> None:
    text = ROLF + f"overrides:\n  {first}: {{value: 3, reason: a}}\n  {second}: {{value: 4, reason: b}}\n"
    with pytest.raises(ChargenError) as error:
        api.build(text, "rolf.yaml")
    line = text.count("\n")
    assert str(error.value) == (
        f"rolf.yaml:{line}:{len(second) + 5}: overrides.{second}: rules the same value as {told}: give one "
        "ruling"
    )


def test_the_armored_and_unarmored_tmr_are_two_values_a_gm_may_rule_apart() -> None:
    text = ROLF + "overrides:\n  combat.tmr: {value: 3, reason: a}\n  tmr: {value: 4, reason: b}\n"
    made = api.build(text, "rolf.yaml")
    assert (made.combat.tmr, made.tmr) == (3, 4)
