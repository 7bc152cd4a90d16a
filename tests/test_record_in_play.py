"""What rule 3's record carries beyond the charts, each on the record of a character it
applies to, with its rule: starting age, 15.1-15.3 Agility, stealth (race with armor), magic resistance,
21 kicks, the Secondary hand, 16.5 knockouts, 19's unconscious box."""

from __future__ import annotations

import pytest

from chargen import api
from chargen.model import Character
from chargen.render import render_html
from chargen.render.build import build_sheet
from chargen.render.sheet import Item
from chargen.tables import Tables
from tests.test_skills_record import box_text


def items(character: Character, tables: Tables) -> dict[str, Item]:
    return {item.label: item for item in build_sheet(character, tables, "test").in_play}


def fighter(tables: Tables, **lines: str) -> Character:
    base = {
        "race": "human",
        "gender": "male",
        "hand": "right",
        "seed": "5",
        "allocation": "{PS: 18, MD: 16, AG: 16, EN: 16, MA: 10, WP: 12}",
        "points": "{total: 88, maximum: 23}",
        "weapons": "[broadsword, long-bow, lance]",
        "armor": "chainmail",
        "equipment_given": "true",
    }
    base.update(lines)
    return api.build("".join(f"{key}: {value}\n" for key, value in base.items()), "f.yaml", tables=tables)


def test_starting_age_is_on_every_record(tables: Tables) -> None:
    human = fighter(tables)
    assert build_sheet(human, tables, "t").starting_age == "18"
    assert "Starting age 300 to 1,000 (IV, 8)" in box_text(
        render_html(api.roll(seed=3, race="elf"), tables), "abilities"
    )


def test_agility_bands_of_15(tables: Tables) -> None:
    slow = items(fighter(tables, allocation="{PS: 20, MD: 18, AG: 8, EN: 20, MA: 10, WP: 12}"), tables)
    agility = next(item for label, item in slow.items() if label.startswith("Agility"))
    assert agility.note == "15.1" and "one hex less" in agility.value
    assert not any(label.startswith("Agility") for label in items(fighter(tables), tables))
    quick = fighter(tables, allocation="{PS: 16, MD: 16, AG: 23, EN: 13, MA: 10, WP: 10}", armor="cloth")
    assert [item.note for label, item in items(quick, tables).items() if label.startswith("Agility")] == [
        "15.2"
    ]


def test_stealth_combines_race_and_armor_and_magic_resistance_is_racial(tables: Tables) -> None:
    human = items(fighter(tables), tables)
    assert (human["Stealth"].value, human["Stealth"].note) == ("\u221210%", "\u221210% armor (18.1)")
    assert "Magic resistance" not in human
    elf = items(fighter(tables, race="elf", armor="scale"), tables)
    assert (elf["Stealth"].value, elf["Stealth"].note) == ("+5%", "+10% race (6.5), \u22125% armor (18.1)")
    giant = items(api.roll(seed=7, race="giant"), tables)
    assert (giant["Magic resistance"].value, giant["Magic resistance"].note) == ("+10%", "race (6.6)")
    # A Cloud Giant: 14.1's chart around its average TMR of 13; the other types keep the book's note.
    assert giant["TMR"].note == "5.6 chart around the Cloud (Air) giant's average TMR 13 in place of 5 (14.1)"
    stone = items(fighter(tables, race="giant", race_type="stone"), tables)
    assert stone["TMR"].note.startswith("read off the 5.6 chart") and stone["TMR"].note.endswith("(14.1)")
    assert "TMR" not in human


def test_kicks_from_unarmed_rank_3_and_the_secondary_hand(tables: Tables) -> None:
    assert "Kick" not in items(fighter(tables, unarmed_rank="2"), tables)
    assert items(fighter(tables, unarmed_rank="3"), tables)["Kick"].note == "Unarmed Rank 3 or more (21)"
    hand = items(fighter(tables), tables)["Secondary hand"]
    assert hand.value == "\u221220 Strike Chance; \u221230 in a multiple strike" and hand.note == "6.2, 17.6"
    assert "Secondary hand" not in items(fighter(tables, hand="ambidextrous"), tables)


def test_knockout_names_the_weapons_that_allow_it(tables: Tables) -> None:
    knockout = items(fighter(tables), tables)["Knockout"]
    # not the bow (missile) nor the lance (16.5); the Broadsword's Strike Chance is 55
    assert knockout.value == "Broadsword 01-08"
    assert knockout.note.startswith("16.5: at or under 15% of the Modified Strike Chance")


def test_the_endurance_track_marks_the_unconscious_box(tables: Tables) -> None:
    sheet = build_sheet(fighter(tables), tables, "t")
    endurance = sheet.tracks[0]
    assert endurance.label == "Endurance" and len(endurance.boxes) == 16
    # Each box shows what is left once ticked: 15 down to 0 (dead, 19); the marked one leaves 3, where 19's
    # figure falls unconscious: the 13th point lost, not the 14th (it was once one point late).
    assert [box.number for box in endurance.boxes] == [str(left) for left in range(15, -1, -1)]
    assert [(place, box.number) for place, box in enumerate(endurance.boxes, 1) if box.mark] == [(13, "3")]
    assert endurance.note == "unconscious at 3, dead at 0 (3.4, 19)"
    fatigue = sheet.tracks[1]
    assert len(fatigue.boxes) == fighter(tables).characteristics.FT


@pytest.mark.parametrize(
    ("allocation", "modified_agility", "band"),
    [
        ("{PS: 20, MD: 16, AG: 8, EN: 22, MA: 10, WP: 12}", 8, "15.1"),  # 15.1: 8 or less
        ("{PS: 20, MD: 16, AG: 9, EN: 21, MA: 10, WP: 12}", 9, None),
        ("{PS: 18, MD: 16, AG: 21, EN: 11, MA: 10, WP: 12}", 21, None),
        ("{PS: 18, MD: 16, AG: 22, EN: 10, MA: 10, WP: 12}", 22, "15.2"),  # 15.2: 22 through 25
    ],
)
def test_agility_bands_of_15_at_their_edges(
    tables: Tables, allocation: str, modified_agility: int, band: str | None
) -> None:
    character = fighter(tables, allocation=allocation, armor="cloth")  # cloth costs no Agility (18.1)
    assert character.combat.modified_agility == modified_agility
    found = [item.note for label, item in items(character, tables).items() if label.startswith("Agility")]
    assert found == ([band] if band else [])
