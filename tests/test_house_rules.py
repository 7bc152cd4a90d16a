"""A GM's house rule in an exported table changes the number and the caption printed beside it,
and a table's die is rolled as written or refused when its rows do not cover every result."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from chargen import api
from chargen.dice import Dice, DiceSpec
from chargen.errors import InputError, TableError
from chargen.model import Character
from chargen.paths import tables_dir
from chargen.render import captions
from chargen.render.build import build_sheet
from chargen.render.sheet import Sheet
from chargen.tables import Tables, load_tables

# A female human with a ranked broadsword, a shield that lowers her MD below the broadsword's, and leather.
ARCHER = """
gender: female
race: human
allocation: {PS: 18, MD: 15, AG: 15, EN: 16, MA: 7, WP: 17}
weapons: [{name: long-bow, rank: 2}, {name: broadsword, rank: 1}]
armor: leather
shield: {name: kite-shield, rank: 1}
equipment_given: true
"""


def house(tmp_path: Path, file: str, *edits: str) -> Tables:
    """The book's tables, exported, with text edits (old, new, old, new, ...) in one file."""
    folder = tmp_path / "house"
    shutil.copytree(tables_dir(), folder)
    path = folder / f"{file}.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in zip(edits[::2], edits[1::2], strict=True):
        assert text.count(old) == 1, f"{old!r} should occur once in {file}.yaml"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return load_tables(folder)


def built(tables: Tables) -> tuple[Character, Sheet]:
    character = api.build(ARCHER, "archer.yaml", seed=3, tables=tables)
    return character, build_sheet(character, tables, "test")


def stun_box(sheet: Sheet, label: str) -> tuple[str, str]:
    """The value and its caption (what follows it says how a shield is held, where the record mixes them)."""
    item = next(item for item in sheet.stun if item.label == label)
    return item.value, item.note.split("; ")[0]


def test_breakage_multiplier_changes_value_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, book_sheet = built(tables)
    changed = house(tmp_path, "combat", "manual_dexterity_multiplier: 3", "manual_dexterity_multiplier: 4")
    ruled, sheet = built(changed)
    dexterity = book.combat.modified_manual_dexterity
    assert book.combat.breakage_check == 3 * dexterity
    assert ruled.combat.breakage_check == 4 * dexterity
    assert stun_box(book_sheet, "Breakage / drop") == (str(3 * dexterity), "3 \u00d7 modified MD")
    assert stun_box(sheet, "Breakage / drop") == (str(4 * dexterity), "4 \u00d7 modified MD")


def test_stun_recovery_multiplier_changes_value_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, _ = built(tables)
    changed = house(
        tmp_path, "combat", "recovery_willpower_multiplier: 2", "recovery_willpower_multiplier: 3"
    )
    ruled, sheet = built(changed)
    stats = book.characteristics
    assert book.combat.stun_recovery == 2 * stats.WP + stats.FT
    assert ruled.combat.stun_recovery == 3 * stats.WP + stats.FT
    assert stun_box(sheet, "Stun recovery") == (str(3 * stats.WP + stats.FT), "3 \u00d7 WP + FT")


def test_stun_divisor_changes_value_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, book_sheet = built(tables)
    ruled, sheet = built(house(tmp_path, "combat", "endurance_divisor: 3", "endurance_divisor: 4"))
    endurance = book.characteristics.EN
    assert (book.combat.stun_threshold, ruled.combat.stun_threshold) == (
        endurance // 3 + 1,
        endurance // 4 + 1,
    )
    assert stun_box(book_sheet, "Stun threshold")[1].endswith("(over EN \u00f7 3)")
    assert stun_box(sheet, "Stun threshold") == (
        str(endurance // 4 + 1),
        "damage from one strike that Stuns (over EN \u00f7 4)",
    )


def test_rank_multiplier_changes_strike_chance_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, book_sheet = built(tables)
    ruled, sheet = built(house(tmp_path, "combat", "rank_multiplier: 4", "rank_multiplier: 6"))
    bow, sword = book.combat.weapons
    assert [line.strike_chance for line in ruled.combat.weapons] == [
        bow.strike_chance + 2 * 2,  # Rank 2
        sword.strike_chance + 2 * 1,  # Rank 1
    ]
    assert sheet.weapons[0].strike_chance == str(bow.strike_chance + 4)
    assert "Base Chance + modified MD + 4 \u00d7 Rank (17.1)" in book_sheet.rule_captions[0]
    assert "Base Chance + modified MD + 6 \u00d7 Rank (17.1)" in sheet.rule_captions[0]


def test_md_shortfall_penalty_changes_strike_chance_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, _ = built(tables)
    ruled, sheet = built(house(tmp_path, "combat", "md_shortfall_penalty: 5", "md_shortfall_penalty: 7"))
    short = tables.weapons["broadsword"].md - book.combat.modified_manual_dexterity
    assert short > 0
    assert ruled.combat.weapons[1].strike_chance == book.combat.weapons[1].strike_chance - 2 * short
    assert ruled.combat.weapons[0].strike_chance == book.combat.weapons[0].strike_chance  # the bow: not short
    assert "\u22127 per point of MD below the weapon's" in sheet.rule_captions[0]


def test_female_armor_adjustment_changes_weight_and_caption(tables: Tables, tmp_path: Path) -> None:
    book, book_sheet = built(tables)
    ruled, sheet = built(house(tmp_path, "armor", "female: -0.5", "female: -1"))
    size = tables.races["human"].size
    leather = tables.armor["leather"].weight
    assert book.combat.armor is not None and ruled.combat.armor is not None
    assert (book.combat.armor.weight, ruled.combat.armor.weight) == (
        (leather - 0.5) * size,
        (leather - 1) * size,
    )
    assert "Armor weight: (chart multiple \u2212 0.5) \u00d7 size (18.1)." in book_sheet.rule_captions
    assert "Armor weight: (chart multiple \u2212 1) \u00d7 size (18.1)." in sheet.rule_captions


def test_race_attempts_come_from_the_table(tables: Tables, tmp_path: Path) -> None:
    two = house(tmp_path, "races", "attempts: 3", "attempts: 2")
    for seed in range(20):
        attempts = api.roll(seed=seed, tables=two).race_attempts
        assert attempts is not None and len(attempts) <= 2
    with pytest.raises(InputError, match=r"3 attempts, but rule 6\.3 allows 2"):
        api.roll(seed=1, race_attempts=["elf", "dwarf", "orc"], tables=two)


# --- dice notation ------------------------------------------------------------------------------------


def test_dice_notation_is_parsed_once_with_its_range() -> None:
    spec = DiceSpec.parse("4D5+3")
    assert (spec.count, spec.sides, spec.modifier, spec.low, spec.high, str(spec)) == (
        4,
        5,
        3,
        7,
        23,
        "4D5+3",
    )
    assert (DiceSpec.parse("D100").low, DiceSpec.parse("D100").high) == (1, 100)
    with pytest.raises(ValueError, match="not dice notation"):
        DiceSpec.parse("2X50")


def test_a_roll_is_made_as_written_and_a_given_one_checked() -> None:
    dice = Dice(random.Random(1))
    rolls = [dice.roll(f"r{index}", DiceSpec.parse("2D50"), "7.1") for index in range(400)]
    assert min(rolls) >= 2 and max(rolls) > 50
    with pytest.raises(InputError, match=r"rolls.aspect: 1 is not a 2D50 roll \(2-100\); rule 7.1"):
        Dice(random.Random(1), given={"aspect": 1}).roll("aspect", DiceSpec.parse("2D50"), "7.1")


def test_aspect_die_changed_to_2d50_keeps_its_rows_and_is_rolled_as_written(tmp_path: Path) -> None:
    # `dice: 2D50` on the aspects, the rows as the book prints them (1-20 first): every result
    # of 2D50 (2-100) has a row, so the die is rolled as written.
    changed = house(tmp_path, "aspects", "dice: D100", "dice: 2D50")
    rolls = [api.roll(seed=seed, tables=changed).rolls.get("aspect") for seed in range(40)]
    rolled = [roll for roll in rolls if isinstance(roll, int)]
    assert rolled and all(2 <= roll <= 100 for roll in rolled)


def test_aspect_die_changed_to_2d50_is_rolled_as_2d50(tmp_path: Path) -> None:
    # The first aspect row starts at 2, so the rows cover every result of 2D50 (2-100).
    first_row = '    low: 1\n    high: 20\n    kind: seasonal\n    rule: "7.2"\n    season: winter'
    changed = house(
        tmp_path, "aspects", "dice: D100", "dice: 2D50", first_row, first_row.replace("1", "2", 1)
    )
    rolls = [api.roll(seed=seed, tables=changed).rolls.get("aspect") for seed in (77, *range(60))]
    rolled = [roll for roll in rolls if roll is not None]  # a shape-changer rolls no aspect (6.9)
    assert len(rolled) > 40
    assert all(isinstance(roll, int) and 2 <= roll <= 100 for roll in rolled)
    assert any(isinstance(roll, int) and roll > 50 for roll in rolled)


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        (
            "heritage",
            "dice: D10\n",
            "dice: D12\n",
            "heritage.yaml:46:5: sibling_rank.rows: rows end at 10, not 12; D12 rolls 1-12",
        ),
        ("aspects", "dice: D100", "dice: 2X50", "aspects.yaml:6:7: dice: '2X50' is not dice"),
    ],
)
def test_a_die_that_does_not_fit_its_table_is_a_one_line_table_error(
    tmp_path: Path, file: str, old: str, new: str, expected: str
) -> None:
    with pytest.raises(TableError) as refused:
        house(tmp_path, file, old, new)
    message = str(refused.value)
    assert "\n" not in message and expected in message


# --- problems as data ---------------------------------------------------------------------------------


def test_a_problem_carries_its_key_path_rule_and_value(tables: Tables) -> None:
    text = ARCHER.replace("{name: broadsword, rank: 1}", "{name: broadsword, rank: 9}")
    with pytest.raises(InputError) as refused:
        api.build(text, "archer.yaml", seed=3, tables=tables)
    (problem,) = refused.value.items
    assert problem.path == ("weapons", 1, "rank") and problem.value == 9
    line = 5  # ARCHER starts with a blank line; `rank: 9` is the 63rd character of the weapons line
    assert (line, 63) == (
        text.splitlines().index(next(x for x in text.splitlines() if "rank: 9" in x)) + 1,
        63,
    )
    assert problem.place == f"archer.yaml:{line}:63"  # the line and column of that key, from the path
    assert str(refused.value) == f"archer.yaml:{line}:63: weapons[1].rank: {problem.message}"


def test_a_given_roll_out_of_range_names_its_key_and_rule(tables: Tables) -> None:
    with pytest.raises(InputError) as refused:
        api.build(ARCHER + "rolls: {aspect: 101}\n", "archer.yaml", seed=3, tables=tables)
    (problem,) = refused.value.items
    assert (problem.path, problem.rule, problem.value) == (("rolls", "aspect"), "7.1", 101)
    assert str(refused.value) == "archer.yaml:9:17: rolls.aspect: 101 is not a D100 roll (1-100); rule 7.1"


def test_plain_messages_still_make_an_input_error() -> None:
    assert str(InputError("one line")) == "one line"
    assert InputError(["a", "b"]).problems == ["a", "b"]


def test_hand_and_race_dice_come_from_the_tables(tables: Tables, tmp_path: Path) -> None:
    given = ARCHER + "rolls: {hand: [3, 15]}\n"
    with pytest.raises(InputError, match=r"rolls\.hand\[1\]: 15 is not a D10 roll"):
        api.build(given, "archer.yaml", seed=3, tables=tables)
    twenty = house(tmp_path, "birthrights", "right_die: D10", "right_die: D20")
    assert api.build(given, "archer.yaml", seed=3, tables=twenty).hand == "right"
    with pytest.raises(TableError, match="is not a single die"):
        house(tmp_path / "again", "races", "attempt_die: D100", "attempt_die: 2D50")


def test_the_dice_draw_what_random_random_draws() -> None:
    dice, plain = Dice(random.Random(5)), random.Random(5)
    for sides in (1, 2, 5, 10, 20, 50, 100, 1000):
        rolled = [dice.roll(f"d{sides}", DiceSpec(3, sides, 2), "1.0") for _ in range(20)]
        assert rolled == [sum(plain.randint(1, sides) for _ in range(3)) + 2 for _ in range(20)]
    assert dice.each("hand", [5, 10], "6.2") == [plain.randint(1, 5), plain.randint(1, 10)]
    assert [dice.choice("abcdefg") for _ in range(30)] == [plain.choice("abcdefg") for _ in range(30)]
    assert dice.rng.sample(range(40), 5) == plain.sample(range(40), 5)
    shapes = [(size, count) for size in range(30) for count in range(min(size, 7) + 1)]
    for size, count in shapes * 3:
        population = [f"race-{number}" for number in range(size)]
        assert dice.sample(population, count) == plain.sample(population, count)
    sampled = Dice(random.Random(1))
    sampled.sample(["elf"], 0)
    assert sampled.used_rng  # as random.Random's own sample, which 6.3 drew through before
    given = Dice(random.Random(1), given={"aspect": 5})
    given.roll("aspect", DiceSpec.parse("D100"), "7.1")
    assert not given.used_rng  # a given roll draws nothing: the seed stays out of the file
    given.roll("silver", DiceSpec.parse("D100"), "8.5")
    assert given.used_rng
    taken = Dice(random.Random(1))
    taken.rng.uniform(0.75, 1.33)
    assert taken.used_rng  # a step drawing in its own way marks the RNG used too


# A human with PS 15, two short of the Hand & Half's 17 (20.2: chart modifier +5, hands 1-2).
SWORDSMAN = """
gender: male
race: human
allocation: {PS: 15, MD: 18, AG: 15, EN: 16, MA: 7, WP: 17}
weapons: [{name: hand-and-a-half}]
equipment_given: true
"""


def test_20_2_strength_shortfall_and_two_handed_bonus(tables: Tables, tmp_path: Path) -> None:
    book = api.build(SWORDSMAN, "sword.yaml", seed=3, tables=tables)
    (line,) = book.combat.weapons
    shortfall = tables.weapons["hand-and-a-half"].ps - book.characteristics.PS
    assert shortfall == 2
    assert (line.damage_modifier, line.damage, line.two_handed_damage) == (5 - 2, "D10+3", "D10+4")
    ruled = house(
        tmp_path,
        "combat",
        "penalty_per_strength_point_short: 1",
        "penalty_per_strength_point_short: 2",
        "two_handed_bonus: 1",
        "two_handed_bonus: 3",
    )
    (house_line,) = api.build(SWORDSMAN, "sword.yaml", seed=3, tables=ruled).combat.weapons
    assert (house_line.damage, house_line.two_handed_damage) == ("D10+1", "D10+4")
    caption = captions.damage(ruled.combat)
    assert caption == "Damage: \u22122 per point of PS below the weapon's; +3 two-handed (20.2)."


@pytest.mark.parametrize(
    ("bands", "expected"),
    [
        ([(1, 4), (5, 10)], None),
        ([(1, 4), (6, 10)], "no row holds 5 (the next row starts at 6); D10 rolls 1-10"),
        ([(1, 5), (5, 10)], "two rows hold 5; D10 rolls 1-10"),
        ([(0, 4), (5, 10)], None),  # a row may start below the die's lowest roll
        ([(1, 4), (5, 12)], None),  # or end above its highest
        ([(-3, 0), (1, 10)], None),  # a row no result reaches is harmless
        ([(0, 4), (4, 10)], "two rows hold 4; D10 rolls 1-10"),
        ([(1, 4), (5, 9)], "rows end at 9, not 10; D10 rolls 1-10"),
    ],
)
def test_covers_names_the_gap_the_overlap_or_the_unreachable_row(
    bands: list[tuple[int, int]], expected: str | None
) -> None:
    from chargen.tables.base import Band
    from chargen.tables.loader import covers

    rows = [Band.model_validate({"low": low, "high": high}) for low, high in bands]
    assert covers(rows, 1, 10, "D10") == expected
