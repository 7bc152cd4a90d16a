"""The rules text's charts and numbers, transcribed by hand for the independent checks (tests/rules_checker.py,
tests/test_rules_*.py): Book One, 2nd edition, sections 5.1-5.6, 6.1-6.9, 17-21. Not read from chargen's
tables, so a changed table entry shows up as a disagreement.
"""

from __future__ import annotations

from typing import NamedTuple

# 6.1: a female character has PS -2, MD +1, FT +1.
FEMALE = {"PS": -2, "MD": 1, "FT": 1}
# 5.4: Perception begins at 8.
PERCEPTION = 8
# 6.3 chance (D100, equal or under) and experience multiplier; 6.4-6.9 modifiers; 6.6 the giant's PS and
# EN by type (Fire, Frost, Cloud, Stone).
RACES = {
    "human": (100, 1.0, {}),
    "dwarf": (25, 1.1, {"PS": 2, "AG": -2, "EN": 1, "MA": -2, "WP": 2, "PC": 1, "TMR": -1}),
    "elf": (30, 1.2, {"PS": -1, "AG": 1, "EN": -1, "MA": 1, "WP": 1, "FT": 2, "PC": 1, "TMR": 1}),
    "giant": (6, 1.5, {"MD": -1, "AG": -2, "MA": -1, "WP": -1, "FT": 1}),
    "halfling": (15, 1.1, {"PS": -3, "MD": 3, "AG": 2, "EN": -2, "MA": -1, "WP": 1, "TMR": -1}),
    "orc": (20, 0.9, {"PS": 2, "AG": -1, "EN": 1, "MA": -2, "WP": -2, "FT": 2}),
    "shape-changer": (4, 1.4, {}),
}
GIANT_TYPES = {
    "fire": {"PS": 19, "EN": 25},
    "frost": {"PS": 10, "EN": 15},
    "cloud": {"PS": 19, "EN": 20},
    "stone": {"PS": 8, "EN": 10},
}
# 14.1: "a Cloud Giant with a modified Agility of 19 has a TMR of 14 (average TMR of 13 + 1 for Agility)": the
# type's average in place of the human 5. The other types' averages (70.1) are not in the rules text.
GIANT_AVERAGE_TMR = {"cloud": 13}
HUMAN_AVERAGE_TMR = 5
# 5.6: modified Agility -> TMR, (low, high, TMR).
TMR_ROWS = ((3, 4, 2), (5, 8, 3), (9, 12, 4), (13, 17, 5), (18, 21, 6), (22, 25, 7), (26, 27, 8))
# 18.1: size numbers (Halfling 3, Dwarf 4, Elf 5, Orc 5, Human 6, Giant 15); a shape-changer in human form is
# human-sized (our reading, 6.9). A female figure takes 0.5 off the weight multiple; cost is for man-size (6).
SIZES = {"halfling": 3, "dwarf": 4, "elf": 5, "orc": 5, "human": 6, "giant": 15, "shape-changer": 6}
FEMALE_ARMOR_MULTIPLE = 0.5
MAN_SIZE = 6


class ArmorRow(NamedTuple):
    multiple: float
    protection: int
    agility_loss: int
    cost: int
    stealth: int


class ShieldRow(NamedTuple):
    weight: int
    defense_per_rank: int
    manual_dexterity_loss: int
    cost: int


# 18.1 Armor Chart, transcribed.
ARMOR = {
    "cloth": ArmorRow(1, 1, 0, 10, 5),
    "leather": ArmorRow(3, 4, 1, 20, 0),
    "scale": ArmorRow(4, 5, 3, 100, -5),
    "chainmail": ArmorRow(7, 6, 2, 200, -10),
    "partial-plate": ArmorRow(6, 6, 2, 250, -15),
    "full-plate": ArmorRow(8, 7, 3, 300, -20),
    "improved-plate": ArmorRow(7, 8, 3, 350, -20),
}


class WeaponRow(NamedTuple):
    ps: int
    md: int
    base_chance: int
    damage_modifier: int | None  # None: variable (V, *)
    cost: int | None  # None: no fixed price (V)
    max_rank: int | None  # None: no Rank (-)
    hands: str  # "1", "1-2" or "2"


# 20.2 Weapons Chart, transcribed: PS, MD, Base Chance, Damage Modifier ("D" read as 0), cost, max Rank, hands.
WEAPONS = {
    "dagger": WeaponRow(7, 10, 40, 0, 10, 9, "1"),
    "main-gauche": WeaponRow(8, 15, 45, 1, 20, 10, "1"),
    "short-sword": WeaponRow(10, 12, 45, 3, 40, 6, "1"),
    "falchion": WeaponRow(12, 11, 50, 2, 35, 8, "1"),
    "scimitar": WeaponRow(11, 15, 50, 3, 60, 8, "1"),
    "tulwar": WeaponRow(13, 15, 50, 4, 65, 8, "1"),
    "rapier": WeaponRow(11, 18, 45, 3, 35, 10, "1"),
    "sabre": WeaponRow(14, 15, 60, 3, 40, 7, "1"),
    "broadsword": WeaponRow(15, 15, 55, 4, 50, 6, "1"),
    "estoc": WeaponRow(15, 17, 45, 5, 65, 9, "1"),
    "hand-and-a-half": WeaponRow(17, 16, 60, 5, 85, 7, "1-2"),
    "claymore": WeaponRow(16, 13, 50, 4, 80, 7, "1-2"),
    "two-handed-sword": WeaponRow(22, 14, 55, 7, 100, 5, "2"),
    "hand-axe": WeaponRow(8, 11, 40, 1, 15, 4, "1"),
    "battle-axe": WeaponRow(14, 14, 60, 4, 20, 7, "1-2"),
    "great-axe": WeaponRow(19, 17, 65, 6, 30, 7, "2"),
    "giant-axe": WeaponRow(29, 12, 65, 10, 50, 7, "1"),
    "crude-club": WeaponRow(16, 10, 45, 2, 3, 2, "1"),
    "war-club": WeaponRow(14, 10, 50, 2, 5, 5, "1"),
    "giant-club": WeaponRow(25, 9, 50, 7, 10, 5, "1"),
    "torch": WeaponRow(8, 12, 40, 1, 1, None, "1"),
    "mace": WeaponRow(16, 9, 50, 4, 15, 5, "1"),
    "giant-mace": WeaponRow(27, 10, 50, 9, 40, 5, "1"),
    "war-hammer": WeaponRow(15, 13, 45, 3, 14, 5, "1"),
    "war-pick": WeaponRow(17, 13, 45, 4, 20, 5, "1-2"),
    "flail": WeaponRow(14, 15, 50, 2, 15, 5, "1"),
    "morningstar": WeaponRow(18, 15, 60, 4, 20, 5, "1-2"),
    "mattock": WeaponRow(19, 14, 55, 6, 18, 5, "2"),
    "quarterstaff": WeaponRow(12, 16, 55, 2, 3, 9, "2"),
    "sap": WeaponRow(9, 11, 40, 1, 2, 3, "1"),
    "throwing-dart": WeaponRow(9, 15, 40, 0, 1, 10, "1"),
    "boomerang": WeaponRow(11, 15, 40, 0, 2, 7, "1"),
    "grenado": WeaponRow(9, 15, 40, None, None, 4, "1"),
    "javelin": WeaponRow(12, 15, 45, 2, 4, 10, "1"),
    "spear": WeaponRow(15, 14, 50, 3, 10, 5, "1-2"),
    "giant-spear": WeaponRow(22, 16, 55, 7, 20, 5, "1-2"),
    "pike": WeaponRow(18, 16, 45, 5, 15, 5, "2"),
    "lance": WeaponRow(16, 18, 45, 6, 4, 5, "1"),
    "halberd": WeaponRow(16, 16, 55, 3, 15, 5, "2"),
    "poleaxe": WeaponRow(18, 15, 55, 4, 20, 5, "2"),
    "trident": WeaponRow(14, 16, 45, 2, 8, 5, "1-2"),
    "glaive": WeaponRow(16, 18, 55, 5, 15, 9, "2"),
    "giant-glaive": WeaponRow(22, 18, 65, 9, 30, 9, "2"),
    "sling": WeaponRow(7, 15, 40, 1, 1, 8, "2"),
    "short-bow": WeaponRow(14, 15, 45, 2, 20, 8, "2"),
    "long-bow": WeaponRow(16, 15, 55, 4, 25, 8, "2"),
    "composite-bow": WeaponRow(17, 15, 55, 4, 30, 8, "2"),
    "giant-bow": WeaponRow(25, 17, 55, 7, 80, 8, "2"),
    "crossbow": WeaponRow(18, 14, 60, 3, 15, 5, "2"),
    "heavy-crossbow": WeaponRow(20, 14, 60, 4, 20, 5, "2"),
    "spear-thrower": WeaponRow(11, 14, 50, 2, 5, 10, "2"),
    "blowgun": WeaponRow(7, 16, 30, None, 3, 10, "2"),
    "net": WeaponRow(11, 16, 30, -5, 4, 4, "1"),
    "bola": WeaponRow(11, 15, 35, -3, 5, 6, "1"),
    "whip": WeaponRow(10, 16, 40, -3, 6, 10, "1"),
    "rock": WeaponRow(5, 10, 30, -1, 0, 6, "1"),  # cost printed "-": a rock is free (our reading)
    "cestus": WeaponRow(12, 14, 35, -1, 15, 9, "1"),
    "garrote": WeaponRow(12, 15, 30, 3, 3, 3, "2"),
    "shield": WeaponRow(10, 12, 40, -2, None, 4, "1"),
}
# 17.5 Shield Chart, transcribed ("-" for MD loss is 0).
SHIELDS = {
    "buckler": ShieldRow(3, 2, 0, 5),
    "small-round-shield": ShieldRow(5, 3, 2, 8),
    "large-round-shield": ShieldRow(10, 4, 3, 10),
    "kite-shield": ShieldRow(15, 5, 4, 15),
    "tower-shield": ShieldRow(25, 6, 6, 20),
    "main-gauche": ShieldRow(1, 2, 0, 20),
}
# 18.2 Special Damage Chart: (lowest Modified Strike Chance of the row, Grievous Injury high roll or None for
# "-", Endurance damage high roll); a row runs up to the next row's low; the last (130+) has no top.
SPECIAL_DAMAGE = (
    (1, None, 1),
    (10, 1, 2),
    (17, 1, 3),
    (24, 1, 4),
    (29, 2, 5),
    (37, 2, 6),
    (44, 2, 7),
    (50, 3, 8),
    (57, 3, 9),
    (64, 3, 10),
    (70, 4, 11),
    (77, 4, 12),
    (84, 4, 13),
    (90, 5, 14),
    (97, 5, 15),
    (104, 5, 16),
    (110, 6, 17),
    (117, 6, 18),
    (124, 6, 19),
    (130, 7, 20),
)
# 17.1/20.2: -5 Strike Chance per point of MD below the weapon's minimum; a Rank adds modified MD + 4 per Rank.
MD_SHORTFALL_PENALTY = 5
PER_RANK = 4
# 21: unarmed Base Chance = modified AG x 2, +1 per PS above 15; damage D10-4, +1 per 3 full PS above 15.
UNARMED_AGILITY_TIMES = 2
UNARMED_PS_FROM = 15
UNARMED_DAMAGE = -4
UNARMED_PS_PER_DAMAGE = 3
# 19: Stunned by more than a third of Endurance; recovery at 2 x WP + FT. 17.3: breakage at 3 x modified MD.
STUN_FRACTION = 3
RECOVERY_WP_TIMES = 2
BREAKAGE_MD_TIMES = 3
# 20.2: a (1-2) weapon used two-handed does +1 damage.
TWO_HANDED_BONUS = 1
# 8.2/8.5: experience and money factors by order of birth.
BIRTH_FACTORS = {"bastard": (0.5, 1.25), "legitimate": (1, 1), "first-child": (1.5, 0.75)}
# 18.5 (optional): +1 damage per 5 whole points of PS over the weapon's minimum (Broadsword, PS 15, D+4: PS 20-24
# gives D+5); every such +1 makes 6 more rolls under 17.3's 99 able to break the weapon (93-99 at +1), and no
# Modified Strike Chance may reach them (97 becomes 92). Never with Thrown or Missile Weapons. Or, per weapon,
# +1 per 4 Ranks (rounded down), for every weapon, breakage unchanged.
INCREASE_PS_STEP = 5
INCREASE_BREAKAGE_STEP = 6
BREAK_ROLL = 99
INCREASE_RANK_STEP = 4
# 20.2: the chart's Thrown Weapons and Missile Weapons sections, and its list of weapons that "also function
# as Thrown Weapons".
THROWN_OR_MISSILE = {
    "throwing-dart", "boomerang", "grenado", "sling", "short-bow", "long-bow", "composite-bow", "giant-bow",
    "crossbow", "heavy-crossbow", "spear-thrower", "blowgun",
}  # fmt: skip
ALSO_THROWN = {
    "dagger", "hand-axe", "battle-axe", "giant-axe", "crude-club", "war-club", "giant-club", "mace",
    "war-hammer", "javelin", "spear", "giant-spear", "net", "bola", "rock",
}  # fmt: skip
