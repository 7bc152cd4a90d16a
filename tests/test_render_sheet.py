"""The record's view model: what the templates are given to print."""

from __future__ import annotations

import pytest

from chargen.render.errors import RenderError
from chargen.render.sheet import build_sheet
from chargen.tables import Tables
from tests.render_fixtures import crowded, typical, with_change


def test_characteristics_rows_carry_allocation_modifiers_and_final_value(tables: Tables) -> None:
    sheet = build_sheet(typical(), tables, "9.9")
    rows = {row.code: row for row in sheet.characteristics}
    assert list(rows) == ["PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC"]
    assert (rows["PS"].allocated, rows["PS"].race, rows["PS"].gender, rows["PS"].final) == (
        "23",
        "+19",
        "\u2014",
        "42",
    )
    assert rows["AG"].race == "\u22122"
    assert rows["FT"].allocated == "\u2014"


def test_physical_beauty_appears_only_when_the_character_has_it(tables: Tables) -> None:
    assert "PB" not in [row.code for row in build_sheet(typical(), tables, "1").characteristics]
    rows = build_sheet(crowded(), tables, "1").characteristics
    assert rows[-1].code == "PB"
    assert rows[-1].name == "Physical Beauty"
    assert rows[-1].final == "17"


def test_weapons_show_table_data_and_unranked(tables: Tables) -> None:
    sheet = build_sheet(typical(), tables, "1")
    broadsword, dagger = sheet.weapons
    assert (broadsword.name, broadsword.rank, broadsword.strike_chance, broadsword.damage_class) == (
        "Broadsword",
        "3",
        "78",
        "B",
    )
    assert broadsword.use == "M"
    assert (broadsword.endurance, broadsword.grievous) == ("01-12", "01-04")
    assert dagger.rank == "unranked"
    assert dagger.range == "8"
    assert dagger.use == "RMC"


def test_identity_uses_display_names(tables: Tables) -> None:
    sheet = build_sheet(typical(), tables, "1")
    identity = {item.label: item.value for item in sheet.identity}
    assert identity["Race"] == "Giant (Fire)"
    assert identity["Aspect"] == "Winter Stars"
    assert identity["Social status"] == "Merchant"
    assert identity["Order of birth"].startswith("Legitimate child, third")
    assert sheet.life_span == "about 500 years"
    assert len(sheet.abilities) == len(tables.races["giant"].abilities)


def test_aspect_effects_are_this_aspects_only_with_blanks_filled(tables: Tables) -> None:
    sheet = build_sheet(typical(), tables, "1")
    whens = [row.when for row in sheet.aspect.rows]
    assert "Midnight of the winter solstice" in whens
    assert all("{" not in when for when in whens)
    assert sheet.aspect.rule == "7.2"
    assert [row.effect for row in sheet.aspect.rows] == ["\u221210", "\u221225", "+10", "+25"]


def test_carried_weights_and_total(tables: Tables) -> None:
    sheet = build_sheet(typical(), tables, "1")
    carried = {row.name: row.weight for row in sheet.carried}
    assert carried["Dagger"] == "10 oz"
    assert carried["Broadsword"] == "3 lb"
    assert sheet.carried_total == f"{round(3 + 0.625 + 45 + 10, 1)} lb"


def test_footer_has_version_seed_and_rolls(tables: Tables) -> None:
    footer = {item.label: item.value for item in build_sheet(typical(), tables, "7.7.7").footer}
    assert footer["chargen"] == "7.7.7"
    assert footer["seed"] == "42"
    assert "points 9" in footer["rolls"]
    assert "hand 3/7" in footer["rolls"]


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
        build_sheet(with_change(typical(), **change), tables, "1")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_unknown_weapon_names_its_field(tables: Tables) -> None:
    character = typical()
    character["combat"]["weapons"][1]["name"] = "lightsaber"
    with pytest.raises(RenderError) as caught:
        build_sheet(character, tables, "1")
    assert "combat.weapons[1].name: unknown weapon 'lightsaber'" in str(caught.value)
