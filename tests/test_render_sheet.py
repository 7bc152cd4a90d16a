"""The record's view model: what the templates are given to print."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chargen.render.build import build_sheet
from chargen.render.errors import RenderError
from chargen.tables import Tables
from tests.render_fixtures import crowded, giant, human


def with_change(character: Any, **changes: Any) -> Any:
    result = copy.deepcopy(character)
    result.update(changes)
    return result


def test_characteristics_rows_carry_allocation_modifiers_and_final_value(tables: Tables) -> None:
    sheet = build_sheet(giant(), tables, "9.9")
    rows = {row.code: row for row in sheet.characteristics}
    assert list(rows) == ["PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC"]
    # giant.yaml allocates PS 8; a fire giant adds 19 (6.6).
    assert (rows["PS"].allocated, rows["PS"].race, rows["PS"].gender, rows["PS"].final) == (
        "8",
        "+19",
        "\u2014",
        "27",
    )
    assert rows["AG"].race == "\u22122"
    assert rows["FT"].allocated == "\u2014"
    female = {row.code: row for row in build_sheet(crowded(), tables, "1").characteristics}
    assert (female["PS"].gender, female["MD"].gender, female["FT"].gender) == ("\u22122", "+1", "+1")


def test_physical_beauty_appears_only_when_the_character_has_it(tables: Tables) -> None:
    assert "PB" not in [row.code for row in build_sheet(human(), tables, "1").characteristics]
    rows = build_sheet(crowded(), tables, "1").characteristics
    assert rows[-1].code == "PB"
    assert rows[-1].name == "Physical Beauty"
    assert rows[-1].final == "17"  # 4D5 + 3 (5.5) with the file's beauty rolls 2, 3, 4, 5


def test_weapons_show_table_data_and_unranked(tables: Tables) -> None:
    sheet = build_sheet(human(), tables, "1")
    broadsword, dagger = sheet.weapons
    # 17.1/20.2: base 55, -5 for each of the 3 points the modified MD (15 - 3 for the Large Round Shield)
    # is below the Broadsword's 15, + modified MD 12 + 4 x Rank 3 = 64; 18.2 row 64-69.
    assert (broadsword.name, broadsword.rank, broadsword.strike_chance, broadsword.damage_class) == (
        "Broadsword",
        "3",
        "64",
        "B",
    )
    assert broadsword.use == "M"
    assert (broadsword.endurance, broadsword.grievous) == ("01-10", "01-03")
    assert dagger.rank == "unranked"
    assert dagger.range == "8"
    assert dagger.use == "RMC"


def test_identity_uses_display_names(tables: Tables) -> None:
    sheet = build_sheet(giant(), tables, "1")
    identity = {item.label: item.value for item in sheet.identity}
    assert identity["Race"] == "Giant (Fire)"
    assert identity["Aspect"] == "Summer Stars"
    assert identity["Social status"] == "Merchant"
    assert identity["Order of birth"].startswith("Legitimate child, third")
    assert sheet.life_span == "about 500 years"
    assert len(sheet.abilities) == len(tables.races["giant"].abilities)


def test_aspect_effects_are_this_aspects_only_with_blanks_filled(tables: Tables) -> None:
    sheet = build_sheet(human(), tables, "1")
    whens = [row.when for row in sheet.aspect.rows]
    assert "Midnight of the winter solstice" in whens
    assert all("{" not in when for when in whens)
    assert sheet.aspect.rule == "7.2"
    assert [row.effect for row in sheet.aspect.rows] == ["\u221210", "\u221225", "+10", "+25"]


def test_carried_weights_and_total(tables: Tables) -> None:
    sheet = build_sheet(human(), tables, "1")
    carried = {row.name: row.weight for row in sheet.carried}
    assert carried["Dagger"] == "10 oz"
    assert carried["Broadsword"] == "3 lb"
    assert carried["Leather"] == "18 lb"  # 18.1: weight multiple 3 x a human's size 6
    assert sheet.carried_total == f"{round(3 + 0.625 + 18 + 10, 1)} lb"
    giant_carried = {row.name: row.weight for row in build_sheet(giant(), tables, "1").carried}
    assert giant_carried["Chainmail"] == "105 lb"  # 7 x a giant's size 15


def test_footer_has_version_seed_and_rolls(tables: Tables) -> None:
    footer = {item.label: item.value for item in build_sheet(human(), tables, "7.7.7").footer}
    assert footer["chargen"] == "7.7.7"
    assert footer["seed"] == "42"
    assert "points 9" in footer["rolls"]
    assert "hand 2/9" in footer["rolls"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"combat": None}, "character file has no combat"),
        ({"characteristics": {"PS": 1}}, "character file has no characteristics.MD"),
        ({"race": "hobbit"}, "character file field race: unknown race 'hobbit'"),
        ({"aspect": "comet"}, "character file field aspect: unknown aspect 'comet'"),
    ],
)
def test_bad_character_is_a_one_line_render_error(
    tables: Tables, change: dict[str, object], message: str
) -> None:
    with pytest.raises(RenderError) as caught:
        build_sheet(with_change(human(), **change), tables, "1")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_unknown_weapon_names_its_field(tables: Tables) -> None:
    character = human()
    character["combat"]["weapons"][1]["name"] = "lightsaber"
    with pytest.raises(RenderError) as caught:
        build_sheet(character, tables, "1")
    assert "combat.weapons[1].name: unknown weapon 'lightsaber'" in str(caught.value)
