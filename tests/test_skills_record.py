"""Skills, languages, a college and its magic, equipment, notes, player and campaign in the
character file, checked with their rules, charged under 8.6 and printed on the record."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from chargen import api
from chargen.character_file import dump_document
from chargen.errors import ChargenError, InputError, Problem, TableError
from chargen.model import Character
from chargen.paths import tables_dir
from chargen.render import render_html
from chargen.render.build import build_sheet
from chargen.tables import Tables, load_tables
from chargen.walkthrough import new_walk

# An elf adept: one skill at Rank 0 (8.6's 100 points), two languages and two spells the Cost Chart does
# not price, equipment with weights, notes, player and campaign. Her 8.5 Experience is 150 (seed 7).
ADEPT = """
name: Aelinor Greenleaf
player: Dana
campaign: The Marches
race: elf
gender: female
seed: 7
college: Illusions
skills: [{name: Healer, rank: 0}]
languages: [{name: Elvish, rank: 8}, {name: Common, rank: 5}]
spells:
  - {name: Light, rank: 3, kind: spell}
  - {name: Veil of Shadows, rank: 1, kind: ritual}
equipment: [{name: Rope, weight: 5, count: 2}, {name: Lantern, weight: 2}]
equipment_given: true
notes: [Owes the ferryman a favour.]
"""


def adept(tables: Tables, text: str = ADEPT) -> Character:
    return api.build(text, "adept.yaml", tables=tables)


def refusal(tables: Tables, text: str) -> Problem:
    """The first problem the file is refused with (all are raised at once)."""
    with pytest.raises(InputError) as refused:
        adept(tables, text)
    return refused.value.items[0]


def house_abilities(tmp_path: Path, old: str, new: str) -> Tables:
    """The book's tables with one edit in abilities.yaml, as a GM extends them."""
    folder = tmp_path / "house"
    shutil.copytree(tables_dir(), folder)
    path = folder / "abilities.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_tables(folder)


def box_text(page: str, box: str) -> str:
    """What a person reads in one box of the record: its section's text, tags removed, spaces collapsed."""
    found = re.search(rf'<section class="box[^"]*\b{box}\b.*?</section>', page, re.S)
    assert found, box
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


def test_the_file_keeps_and_rebuilds_everything_the_player_wrote(tables: Tables) -> None:
    character = adept(tables)
    assert (character.player, character.campaign, character.college) == ("Dana", "The Marches", "illusions")
    assert [(item.name, item.rank) for item in character.skills] == [("healer", 0)]
    assert [(item.name, item.rank) for item in character.languages] == [("Elvish", 8), ("Common", 5)]
    assert [(item.name, item.kind) for item in character.spells] == [
        ("Light", "spell"),
        ("Veil of Shadows", "ritual"),
    ]
    assert character.notes == ["Owes the ferryman a favour."]
    written = dump_document(character, "yaml")
    assert api.validate(written, "adept.yaml", tables=tables) == []
    assert dump_document(api.build(written, "adept.yaml", tables=tables), "yaml") == written


def test_the_bank_is_the_experience_less_what_rank_zero_skills_cost(tables: Tables) -> None:
    character = adept(tables)
    assert character.experience_points == 150
    assert character.experience_bank == 150 - 100  # 8.6: Healer at Rank 0; the rest is not charged
    purse = box_text(render_html(character, tables), "purse")
    assert "Experience Point Bank 50 100 spent (8.6)" in purse
    skills = box_text(render_html(character, tables), "skills")
    assert "not charged" in skills and "Elvish, Common, Light, Veil of Shadows" in skills


def test_overspending_is_refused_with_the_figures_and_the_rule(tables: Tables) -> None:
    text = ADEPT.replace("[{name: Healer, rank: 0}]", "[{name: Healer, rank: 0}, {name: ranger, rank: 0}]")
    problem = refusal(tables, text)
    assert problem.rule == "8.6" and problem.path == ("skills",)
    assert "costs 200 Experience Points" in problem.message and "has 150 (8.5)" in problem.message


@pytest.mark.parametrize(
    ("old", "new", "path", "rule", "words"),
    [
        ("{name: Common, rank: 5}", "{name: elvish, rank: 5}", ("languages", 1, "name"), "49", "twice"),
        (
            "{name: Healer, rank: 0}",
            "{name: Healr, rank: 0}",
            ("skills", 0, "name"),
            None,
            "did you mean 'healer'",
        ),
        ("college: Illusions", "college: Ilusions", ("college",), None, "did you mean 'illusions'"),
        (
            "{name: Light, rank: 3, kind: spell}",
            "{name: Light, rank: 3}",
            ("spells", 0, "kind"),
            "34",
            "kind",
        ),
        (
            "{name: Light, rank: 3, kind: spell}",
            "{name: witchsight, rank: 1}",
            ("spells", 0, "name"),
            "6.5",
            "race's own",
        ),
        ("college: Illusions\n", "", ("spells", 0, "name"), "34", "no college"),
    ],
)
def test_each_wrong_entry_is_refused_with_its_path_and_rule(
    tables: Tables, old: str, new: str, path: tuple[str | int, ...], rule: str | None, words: str
) -> None:
    assert old in ADEPT
    problem = refusal(tables, ADEPT.replace(old, new))
    assert (problem.path, problem.rule) == (path, rule)
    assert words in problem.message


def test_a_rank_above_a_gm_maximum_is_refused(tables: Tables, tmp_path: Path) -> None:
    house = house_abilities(tmp_path, '{name: Healer, rule: "55"}', '{name: Healer, rule: "55", max_rank: 0}')
    assert adept(house).skills[0].rank == 0
    problem = refusal(house, ADEPT.replace("{name: Healer, rank: 0}", "{name: Healer, rank: 1}"))
    assert (problem.path, problem.rule) == (("skills", 0, "rank"), "55")
    assert "above the table's maximum of 0" in problem.message


def test_a_fire_giant_may_not_join_the_college_of_water(tables: Tables) -> None:
    giant = "race: giant\nrace_type: fire\ngender: male\nseed: 3\ncollege: {}\n"
    assert api.build(giant.format("Fire Magics"), "g.yaml", tables=tables).college == "fire-magics"
    with pytest.raises(InputError) as refused:
        api.build(giant.format("Water Magics"), "g.yaml", tables=tables)
    (problem,) = refused.value.items
    assert (problem.path, problem.rule) == (("college",), "6.6")
    assert "fire giant may not be a caster of Water Magics" in problem.message


def test_an_elf_has_witchsight_without_typing_it(tables: Tables) -> None:
    magic = build_sheet(adept(tables), tables, "test").magic
    assert [(row.name, row.kind, row.rank) for row in magic.rows] == [
        ("Witchsight", "Talent", "racial"),
        ("Light", "Spell", "3"),
        ("Veil of Shadows", "Ritual", "1"),
    ]
    human = api.build("race: human\ngender: male\nseed: 3\n", "h.yaml", tables=tables)
    assert build_sheet(human, tables, "test").magic.rows == []


def test_the_record_prints_every_box_the_player_filled(tables: Tables) -> None:
    page = render_html(adept(tables), tables)
    assert "Player Dana" in box_text(page, "who") and "Campaign The Marches" in box_text(page, "who")
    assert "Healer (55) 0" in box_text(page, "skills")
    assert "Elvish (49) 8 Common (49) 5" in box_text(page, "languages")
    magic = box_text(page, "magic")
    assert "College Illusions (38)" in magic
    assert "Witchsight Talent (6.5) racial Light Spell 3 Veil of Shadows Ritual 1" in magic
    assert "Owes the ferryman a favour." in box_text(page, "notes")
    carried = box_text(page, "carried")
    assert "10 lb Rope \u00d72" in carried and "2 lb Lantern" in carried and "total 12 lb" in carried


def test_gm_columns_for_a_spell_are_printed_as_given(tables: Tables, tmp_path: Path) -> None:
    light = '    light: {name: Light, kind: spell, college: illusions, columns: {Base chance: "40%", Range: 30 ft}}\n'
    house = house_abilities(tmp_path, "    witchsight:", light + "    witchsight:")
    magic = box_text(render_html(adept(house), house), "magic")
    assert "Base chance Range" in magic and "Light Spell 3 40% 30 ft" in magic


def test_a_character_without_them_is_written_as_before(tables: Tables) -> None:
    # equipment_given: the partial file is not made whole for an archetype, so nothing is bought.
    plain = api.build("race: human\ngender: male\nseed: 3\nequipment_given: true\n", "h.yaml", tables=tables)
    written = dump_document(plain, "yaml")
    for key in (
        "player",
        "campaign",
        "skills",
        "languages",
        "college",
        "spells",
        "equipment",
        "experience_bank",
    ):
        assert f"\n{key}:" not in written


def test_the_walk_buys_skills_at_rank_zero_from_the_bank(tables: Tables) -> None:
    walk = new_walk(tables, seed=5)
    walk.answer("")  # the concept: any
    while walk.current is not None and walk.current.key != "skills":
        walk.answer("")
    experience = walk.preview().experience_points
    assert experience >= 100, "seed 5 should leave enough Experience for one skill"
    assert "for 100 Experience Points; you have" in walk.current.explain(walk)  # type: ignore[union-attr]
    with pytest.raises(ChargenError):
        walk.answer("Heeler")
    too_many = ", ".join(list(tables.abilities.skills)[: experience // 100 + 1])
    with pytest.raises(ChargenError) as refused:
        walk.answer(too_many)
    assert "rule 8.6" in str(refused.value)
    assert walk.answer("healer") == f"Healer; {experience - 100} Experience Points left"
    while walk.current is not None:
        walk.answer("")
    character = walk.document()
    assert [(item.name, item.rank) for item in character.skills] == [("healer", 0)]
    assert character.experience_bank == experience - 100


def test_a_table_naming_an_unknown_race_or_college_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TableError) as refused:
        house_abilities(tmp_path, "granted_to: [elf]", "granted_to: [elfe]")
    assert "magic.entries.witchsight.granted_to[0]: 'elfe' is not a race" in str(refused.value)


def test_the_uncharged_note_names_what_it_lists_as_the_tables_print_it(tables: Tables) -> None:
    """8.6: Ranks the empty Cost Chart cannot charge are named as the record names them, not by table id."""
    character = api.build(
        "race: human\ngender: female\nseed: 4\nskills: [{name: healer, rank: 2}]\n"
        "spells: [{name: glamour, rank: 1, kind: spell}]\n",
        tables=tables,
    )
    uncharged = build_sheet(character, tables, "test").uncharged
    assert uncharged.endswith(": Healer, Glamour."), uncharged
