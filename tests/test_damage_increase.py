"""18.5 (optional): a weapon's damage increased by Physical Strength or by Rank, chosen in the character file
with `optional: [18.5]` (and `increase: rank` per weapon); and the 16.5 knockout rolls per weapon."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen import api
from chargen.character_file import Item, dump_document
from chargen.errors import InputError, TableError
from chargen.model import Character, Characteristics
from chargen.render import render_html, render_pdf
from chargen.render.build import build_sheet
from chargen.rules.damage_increase import increased_line, lowest_breaking_roll, strike_chance_cap
from chargen.rules.knockout import knockout_high
from chargen.tables import Tables, load_tables
from chargen.values.lines import weapon_line
from tests.rules_checker import check_character, expected_increase, expected_values
from tests.test_record_phone import phone_report
from tests.test_render_browser import chromium  # noqa: F401 (the fixture)
from tests.test_skills_record import box_text

BASE = {
    "name": "Test Strong",
    "race": "human",
    "gender": "male",
    "hand": "right",
    "seed": "5",
    "allocation": "{PS: 20, MD: 16, AG: 16, EN: 16, MA: 10, WP: 10}",
    "points": "{total: 88, maximum: 23}",
    "armor": "leather",
    "equipment_given": "true",
}


def text(**lines: str) -> str:
    return "".join(f"{key}: {value}\n" for key, value in {**BASE, **lines}.items())


def build(tables: Tables, **lines: str) -> Character:
    return api.build(text(**lines), "strong.yaml", tables=tables)


def weapon(character: Character, name: str) -> dict[str, object]:
    line = next(line for line in character.combat.weapons if line.name == name)
    return {"damage": line.damage, "increase": line.increase}


# --- the book's example and the two systems -------------------------------------------------------------


@pytest.mark.parametrize(
    ("race", "allocated", "strength", "damage"),
    [
        ("human", 19, 19, "D10+4"),
        ("human", 20, 20, "D10+5"),
        ("dwarf", 22, 24, "D10+5"),
        ("dwarf", 23, 25, "D10+6"),
    ],
)
def test_the_books_broadsword(tables: Tables, race: str, allocated: int, strength: int, damage: str) -> None:
    """18.5's example: a Broadsword (PS 15, D10+4) does D10+5 at PS 20 through 24 (a dwarf adds 2 PS, 6.4)."""
    allocation = f"{{PS: {allocated}, MD: 16, AG: 16, EN: 16, MA: 10, WP: {30 - allocated}}}"
    character = build(tables, race=race, optional="[18.5]", allocation=allocation, weapons="[broadsword]")
    assert (character.characteristics.PS, character.combat.weapons[0].damage) == (strength, damage)


def test_the_books_breakage_and_strike_chance_figures(tables: Tables) -> None:
    """The example's figure with PS 20 may break the Broadsword on 93 through 99, and a Modified Strike Chance
    of 97 is 92."""
    line = build(tables, optional="[18.5]", weapons="[broadsword]").combat.weapons[0]
    assert line.increase is not None
    assert (line.increase.system, line.increase.bonus) == ("strength", 1)
    assert (line.increase.breaks_on, line.increase.strike_chance_cap) == ("93-99", 92)
    assert line.increase.thrown_damage is None  # a Broadsword is never thrown
    assert line.damage_modifier == 5


def test_the_rank_system_chosen_per_weapon(tables: Tables) -> None:
    weapons = "[{name: dagger, rank: 8, increase: rank}, {name: sabre, rank: 7, increase: rank}, broadsword]"
    character = build(tables, optional="[18.5]", weapons=weapons)
    dagger, sabre, broadsword = character.combat.weapons
    assert (dagger.damage, dagger.increase and dagger.increase.bonus) == ("D10+2", 2)  # 8 Ranks: +2
    assert (sabre.damage, sabre.increase and sabre.increase.bonus) == ("D10+4", 1)  # 7 Ranks: +1
    assert dagger.increase is not None and dagger.increase.breaks_on is None  # no change to breakage
    assert dagger.increase.strike_chance_cap is None
    assert broadsword.damage == "D10+5"  # the Physical Strength system unless the file says rank


def test_thrown_and_missile_weapons(tables: Tables) -> None:
    """Not for Thrown or Missile Weapons: a bow gains nothing by PS; a spear gains in melee but not thrown;
    the Rank system is for every weapon."""
    weapons = "[long-bow, spear, {name: short-bow, rank: 8, increase: rank}]"
    bow, spear, short_bow = build(tables, optional="[18.5]", weapons=weapons).combat.weapons
    assert bow.damage == "D10+4" and bow.increase is not None and bow.increase.bonus == 0
    assert (spear.damage, spear.two_handed_damage) == ("D10+4", "D10+5")
    assert spear.increase is not None and spear.increase.thrown_damage == "D10+3"
    assert short_bow.damage == "D10+4" and short_bow.increase is not None and short_bow.increase.bonus == 2


@pytest.mark.parametrize(
    ("lines", "path", "words"),
    [
        ({"weapons": "[{name: dagger, rank: 4, increase: rank}]"}, "weapons[0].increase", "does not list"),
        (
            {"optional": "[18.5]", "weapons": "[{name: long-bow, increase: strength}]"},
            "weapons[0].increase",
            "not for Thrown or Missile Weapons",
        ),
        ({"optional": "[18.5]", "shield": "{name: buckler, increase: rank}"}, "shield.increase", "weapon's"),
        ({"optional": "[18.6]"}, "optional", "nor an optional rule (18.5)"),
    ],
)
def test_what_the_rule_does_not_allow_is_refused(
    tables: Tables, lines: dict[str, str], path: str, words: str
) -> None:
    with pytest.raises(InputError) as raised:
        build(tables, **lines)
    message = str(raised.value)
    assert path in message and words in message
    assert "rule 18.5" in message or "rule 5.5" in message


# --- the file -------------------------------------------------------------------------------------------


def test_a_file_with_18_5_builds_validates_and_rebuilds(tables: Tables, tmp_path: Path) -> None:
    weapons = "[{name: broadsword, rank: 4}, {name: dagger, rank: 8, increase: rank}, spear]"
    character = build(tables, optional="[PB, 18.5]", weapons=weapons)
    assert character.optional == ["PB", "18.5"]
    written = dump_document(character, "yaml")
    document = yaml.safe_load(written)
    assert document["optional"] == ["PB", "18.5"]
    assert document["weapons"][1] == {"name": "dagger", "rank": 8, "increase": "rank"}
    assert api.validate(written, "strong.yaml", tables=tables) == []
    assert dump_document(api.build(written, "again.yaml", tables=tables), "yaml") == written
    assert expected_values(document, tables)["combat"] == document["combat"]  # the independent reading


def test_without_18_5_nothing_is_written(tables: Tables) -> None:
    plain = dump_document(build(tables, weapons="[broadsword, dagger, spear]"), "yaml")
    assert "increase" not in plain and "18.5" not in plain
    assert "D10+4" in plain  # the Broadsword's own damage


@pytest.mark.parametrize("seed", range(12))
def test_rolled_characters_with_18_5_agree_with_the_independent_reading(tables: Tables, seed: int) -> None:
    character = api.roll(seed=seed, optional=["18.5"], tables=tables)
    document = yaml.safe_load(dump_document(character, "yaml"))
    assert document["optional"] == ["18.5"]
    check_character(document, tables)
    plain = api.roll(seed=seed, tables=tables)  # the rule draws no dice: the same character otherwise
    assert plain.characteristics == character.characteristics and plain.weapons == character.weapons


def test_the_checker_refuses_a_wrong_increase(tables: Tables) -> None:
    document = yaml.safe_load(dump_document(build(tables, optional="[18.5]", weapons="[broadsword]"), "yaml"))
    assert expected_values(document, tables)["combat"] == document["combat"]
    document["combat"]["weapons"][0]["increase"]["strike_chance_cap"] = 93
    assert expected_values(document, tables)["combat"] != document["combat"]


# --- every Physical Strength and Rank -------------------------------------------------------------------


def _characteristics(strength: int) -> Characteristics:
    return Characteristics(PS=strength, MD=30, AG=15, EN=15, MA=10, WP=10, FT=20, PC=8)


BOOK = load_tables()
WEAPON_IDS = sorted(BOOK.weapons)


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(WEAPON_IDS),
    strength=st.integers(min_value=3, max_value=70),
    rank=st.none() | st.integers(min_value=0, max_value=12),
    system=st.sampled_from([None, "rank"]),
)
def test_every_strength_and_rank_agrees_with_the_independent_reading(
    name: str, strength: int, rank: int | None, system: str | None
) -> None:
    entry = BOOK.weapons[name]
    item = Item(name=name, rank=rank, increase=system)
    stats = _characteristics(strength)
    plain = weapon_line(name, rank, stats.MD, stats.PS, stats.PC, stats.MD, stats.AG, (), BOOK)
    line = increased_line(plain, item, entry, strength, BOOK)
    listed = {"name": name, "increase": system} | ({"rank": rank} if rank is not None else {})
    expected = expected_increase({k: v for k, v in listed.items() if v is not None}, strength, plain.damage)
    increase = line.increase
    assert increase is not None
    written = {
        key: value
        for key, value in {
            "system": increase.system,
            "bonus": increase.bonus,
            "breaks_on": increase.breaks_on,
            "strike_chance_cap": increase.strike_chance_cap,
            "thrown_damage": increase.thrown_damage,
        }.items()
        if value is not None
    }
    assert written == expected
    if plain.damage_modifier is not None:
        assert line.damage_modifier == plain.damage_modifier + increase.bonus
    else:
        assert line.damage == plain.damage  # a variable damage stays the chart's word
    # What the rule says in words: +1 per whole 5 PS over the minimum; the cap is just below the breakage.
    if increase.system == "strength" and increase.bonus:
        assert 5 * increase.bonus <= strength - entry.ps < 5 * (increase.bonus + 1)
        assert increase.breaks_on == f"{99 - 6 * increase.bonus:02d}-99"
        assert increase.strike_chance_cap == 98 - 6 * increase.bonus
    assert line.strike_chance == plain.strike_chance and line.initiative == plain.initiative


def test_the_breakage_range_stops_at_the_first_roll() -> None:
    """A bonus so large that every roll may break the weapon leaves no Modified Strike Chance at all."""
    rule = BOOK.combat.damage_increase
    assert [lowest_breaking_roll(bonus, rule) for bonus in (0, 1, 16, 17, 30)] == [99, 93, 3, 1, 1]
    assert strike_chance_cap(17, rule) == 0


# --- the record -----------------------------------------------------------------------------------------


def test_the_record_shows_the_increase_only_when_chosen(tables: Tables) -> None:
    weapons = "[broadsword, {name: dagger, rank: 8, increase: rank}, spear]"
    page = render_html(build(tables, optional="[18.5]", weapons=weapons), tables)
    weapons_box = box_text(page, "weapons")
    assert "Broadsword 4 87 D10+5" not in weapons_box  # unranked here
    assert "D10+5 +1 for PS (18.5); breaks on 93-99; Strike Chance at most 92" in weapons_box
    assert "D10+2 +2 for Rank (18.5)" in weapons_box
    assert "Strike Chance at most 92; thrown D10+3" in weapons_box  # the spear
    assert "Damage increase (18.5, optional): +1 per 5 full points of PS" in weapons_box
    plain = box_text(render_html(build(tables, weapons="[broadsword, dagger, spear]"), tables), "weapons")
    assert "18.5" not in plain and "Damage increase" not in plain


def test_the_sheet_counts_the_notes_as_weapon_lines(tables: Tables) -> None:
    """The front page makes room for the 18.5 lines under the weapons, as for a two-handed damage: two
    weapons with two note lines each (and the rule's caption) leave the Wounds box no room on page 1."""
    plain = build_sheet(build(tables, weapons="[broadsword, estoc, mace]"), tables, "t")
    increased = build_sheet(
        build(tables, optional="[18.5]", weapons="[broadsword, estoc, mace]"), tables, "t"
    )
    notes = [row.damage_increase.replace("\u00a0", " ") for row in increased.weapons]
    assert notes == [
        "+1 for PS (18.5); breaks on 93-99; Strike Chance at most 92",
        "+1 for PS (18.5); breaks on 93-99; Strike Chance at most 92",
        "",  # Mace: PS 16, 4 points under PS 20
    ]
    assert "\u00a0" in increased.weapons[0].damage_increase  # a narrow column breaks between phrases only
    assert (plain.blank_lines["wounds"], plain.page_two_new_page) == (3, True)
    assert increased.page_two_new_page is False


@pytest.mark.slow  # PDFs
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_record_with_18_5_as_a_person_sees_it(tables: Tables, tmp_path: Path, paper: str) -> None:
    from tests.test_record_visual import FIGHTER, pictures

    character = api.build(FIGHTER + "optional: [18.5]\n", "fighter.yaml", tables=tables)
    assert sum(1 for line in character.combat.weapons if line.increase and line.increase.bonus) >= 10
    pages = pictures(render_pdf(character, tables, paper=paper), tmp_path)
    assert len(pages) == 3
    band = round(0.4 * 60)
    for number, page in enumerate(pages, 1):
        assert page.crop((page.width - band, 0, page.width, page.height)).getextrema()[0] > 245
        if number < len(pages):  # no page but the last is mostly empty
            lower = page.crop((0, page.height // 2, page.width, page.height - 36))
            assert lower.getextrema()[0] < 128, f"page {number} is half empty"


@pytest.mark.slow  # PDFs
def test_an_18_5_record_reads_at_phone_width(chromium: str, tables: Tables, tmp_path: Path) -> None:  # noqa: F811
    """No word of the notes under the weapons' damage is broken letter by letter at 420 px."""
    weapons = "[broadsword, {name: dagger, rank: 8, increase: rank}, spear, estoc]"
    page = render_html(build(tables, optional="[18.5]", weapons=weapons), tables)
    report = phone_report(chromium, tmp_path, page)
    assert report["width"] == 420 and report["broken"] == []


# --- 16.5 knockout ---------------------------------------------------------------------------------------


def test_knockout_rolls_per_weapon_on_the_record(tables: Tables) -> None:
    character = build(tables, weapons="[falchion, sap, long-bow, grenado, lance, net]")
    items = {item.label: item for item in build_sheet(character, tables, "t").in_play}
    # Strike Chance 50 (Falchion) and 40 (Sap); the bow, grenado, lance and net allow no knockout (16.5).
    assert items["Knockout"].value == "Falchion 01-08; Sap 01-06"
    assert items["Knockout"].note == (
        "16.5: at or under 15% of the Modified Strike Chance, read off the 18.2 chart; "
        "here at the weapon's Strike Chance, before Defense"
    )
    assert "Falchion 01-08; Sap 01-06" in box_text(render_html(character, tables), "in-play")


def test_the_two_readings_of_15_percent() -> None:
    """`chart`: the 18.2 chart's Endurance column, which rounds (10 gives 01-02); `exact`: every roll at or
    under 15% of the chance, nothing to round (10 gives 01)."""
    knockout, chart = BOOK.record.knockout, BOOK.combat.special_damage
    exact = knockout.model_copy(update={"reading": "exact"})
    assert [knockout_high(chance, knockout, chart) for chance in (0, 1, 9, 10, 50, 56, 130, 200)] == [
        None, 1, 1, 2, 8, 8, 20, 20,
    ]  # fmt: skip
    assert [knockout_high(chance, exact, chart) for chance in (0, 6, 7, 10, 50, 56, 130, 200)] == [
        None, None, 1, 1, 7, 8, 19, 30,
    ]  # fmt: skip
    for chance in range(-5, 220):
        high = knockout_high(chance, exact, chart) or 0
        assert all((roll <= high) == (100 * roll <= 15 * chance) for roll in range(1, 101))


def test_a_ruleset_with_its_own_strength_damage_refuses_18_5() -> None:
    """house-combat (seed 004) revises 18.5 in its damage formula: the optional rule on top would count the
    Physical Strength twice."""
    house = load_tables(None, ["house-combat"])
    with pytest.raises(InputError) as refused:
        api.roll(seed=1, optional=["18.5"], tables=house)
    assert "optional: the damage formula of these rules already adds damage for PS" in str(refused.value)
    assert str(refused.value).endswith("rule 18.5")
    api.roll(seed=1, tables=house)  # without it, as before


def test_a_table_naming_an_unknown_weapon_group_is_refused(tmp_path: Path) -> None:
    ruleset = tmp_path / "groups.yaml"
    ruleset.write_text(
        "change:\n  combat:\n    damage_increase:\n      strength_barred_groups: [thrown, missiles]\n"
    )
    with pytest.raises(TableError) as refused:
        load_tables(None, [str(ruleset)])
    assert "damage_increase.strength_barred_groups[1]: 'missiles' is not a group of the Weapons Chart" in str(
        refused.value
    )
