"""Steps 6.1-6.2, 6.6/6.9, 7.1, 8.1-8.5 and 8.8: gender, hand, race type, aspect, heritage, money, name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chargen.errors import InputError
from chargen.model import Character, Heritage
from chargen.walkthrough.dice_steps import dice_question, modifiers_told, sides_of
from chargen.walkthrough.entries import pennies
from chargen.walkthrough.walk import Choice, Question, Walk


def gender_question() -> Question:
    def explain(walk: Walk) -> str:
        genders = walk.tables.birthrights.genders
        told = "; ".join(
            f"{gender.name}: {modifiers_told(gender.modifiers) or 'no change'}" for gender in genders.values()
        )
        return f"6.1 Gender, your choice. {told}."

    def take(walk: Walk, text: str) -> str:
        options = sorted(walk.tables.birthrights.genders)
        if not text:
            chosen_for_you = walk.rng.choice(options)
            walk.data["gender"] = chosen_for_you
            return walk.face.says("chargen chose ", "chosen for you: ") + chosen_for_you
        chosen = [option for option in options if option.startswith(text.lower())]
        if len(chosen) != 1:
            raise InputError(f"gender: {text[:40]!r}; answer {' or '.join(options)} (6.1)")
        walk.data["gender"] = chosen[0]
        return chosen[0]

    return Question(
        "gender",
        explain,
        lambda walk: f"male or female{walk.face.says(' (Enter: chargen chooses)')}",
        take,
        accepts=lambda walk: (
            f"male or female, or the first letters of either (m, fem){walk.face.says('; Enter: chargen chooses')}"
        ),
        choices=lambda walk: [
            Choice(key, gender.name, modifiers_told(gender.modifiers) or "no change")
            for key, gender in sorted(walk.tables.birthrights.genders.items())
        ],
        empty="Choose for me",
    )


def hand_question() -> Question:
    def explain(walk: Walk) -> str:
        return (
            f"{walk.tables.birthrights.hands.rule} Hand: roll D5 and D10; a higher D10 means right-handed, "
            "a higher D5 left-handed, a tie ambidextrous."
        )

    return dice_question(
        "hand",
        lambda walk: [5, 10],
        lambda walk: walk.tables.birthrights.hands.rule,
        explain,
        lambda walk, character: (
            character.hand if character.hand == "ambidextrous" else f"{character.hand}-handed"
        ),
    )


def _race(walk: Walk) -> Any:
    return walk.tables.races[walk.preview().race]


def race_type_question() -> Question:
    def explain(walk: Walk) -> str:
        race = _race(walk)
        kinds = ", ".join(f"{kind.name} {kind.low}-{kind.high}" for kind in race.types.values())
        return f"{race.type_rule} {race.name} type: roll {race.type_dice}: {kinds}."

    def result(walk: Walk, character: Character) -> str:
        return str(_race(walk).types[str(character.race_type)].name)

    return dice_question(
        "race_type",
        lambda walk: sides_of(_race(walk).type_dice or "D10"),
        lambda walk: _race(walk).type_rule or "6.3",
        explain,
        result,
        applies=lambda walk: bool(_race(walk).types),
    )


def aspect_question() -> Question:
    def explain(walk: Walk) -> str:
        table = walk.tables.aspect_file
        bands = ", ".join(f"{item.name} {item.low}-{item.high}" for item in table.aspects.values())
        return f"{table.rule} Aspect: roll {table.dice}: {bands}."

    def result(walk: Walk, character: Character) -> str:
        assert character.aspect is not None  # a walk rolls or chooses it (7.1)
        aspect = walk.tables.aspects[character.aspect]
        effects = walk.tables.aspect_file.effects[aspect.kind]
        names = {key: getattr(aspect, key) or "" for key in ("season", "named_day", "opposite_season")}
        told = "; ".join(f"{row.effect:+d} {row.when.format_map(names)}" for row in effects.rows)
        return f"{aspect.name} (rule {aspect.rule})\n  on percentile rolls: {told} ({effects.window})"

    return dice_question(
        "aspect",
        lambda walk: sides_of(walk.tables.aspect_file.dice),
        lambda walk: walk.tables.aspect_file.rule,
        explain,
        result,
        applies=lambda walk: _race(walk).fixed_aspect is None,
    )


def _heritage(character: Character) -> Heritage:
    """8.1-8.4 as the walk made them (only a file as it stands has none)."""
    assert character.heritage is not None
    return character.heritage


def _social_status_told(walk: Walk, character: Character) -> str:
    row = walk.tables.heritage.social_status.rows[_heritage(character).social_status]
    return f"{row.name}, money x{row.money_multiplier}"


def _birth_order_told(walk: Walk, character: Character) -> str:
    effects = walk.tables.heritage.birth_order_effects
    effect = next(entry for key, entry in effects.items() if key == _heritage(character).birth_order)
    return f"{effect.name}: money x{effect.money_factor}, Experience x{effect.experience_factor}"


def _sibling_rank_told(walk: Walk, character: Character) -> str:
    return str(walk.tables.heritage.sibling_rank.rows[str(_heritage(character).sibling_rank)].name)


def heritage_questions() -> list[Question]:
    return [
        _table_roll(
            "social_status",
            "social_status",
            "Social status, which sets a money multiplier",
            _social_status_told,
        ),
        _table_roll(
            "birth_order",
            "birth_order",
            "Order of birth: bastard, legitimate or first child change money and Experience (8.3)",
            _birth_order_told,
        ),
        _table_roll(
            "sibling_rank",
            "sibling_rank",
            "Sibling rank, for a legitimate child",
            _sibling_rank_told,
            applies=lambda walk: _heritage(walk.preview()).birth_order == "legitimate",
        ),
        _table_roll(
            "experience",
            "starting_allotment",
            "Starting allotment: first the Experience Points",
            lambda walk, character: f"{character.experience_points} Experience Points",
        ),
        _table_roll(
            "silver",
            "starting_allotment",
            "Starting allotment: then the Silver Pennies",
            lambda walk, character: pennies(character.starting_silver),
        ),
    ]


def _table_roll(
    roll_key: str,
    table_name: str,
    words: str,
    result: Callable[[Walk, Character], str],
    applies: Callable[[Walk], bool] = lambda walk: True,
) -> Question:
    """A step read on one of the heritage tables (8.1-8.5), by that table's own dice and rule."""

    def table(walk: Walk) -> Any:
        return getattr(walk.tables.heritage, table_name)

    return dice_question(
        roll_key,
        lambda walk: sides_of(table(walk).dice),
        lambda walk: str(table(walk).rule),
        lambda walk: f"{table(walk).rule} {words}: roll {table(walk).dice}.",
        result,
        applies=applies,
    )


def offered_name(walk: Walk) -> str:
    """8.8: a name from tables/names.yaml for the race and gender, drawn with the walk's own dice (two walks
    offer different names; a walk given --seed offers the same), once, then kept for the walk."""
    character = walk.preview()
    key = (character.race, character.gender)
    kept = walk.marks.get("offered_name")
    if kept is not None and kept[0] == key:
        return str(kept[1])
    parts = walk.tables.names.get(character.race) or walk.tables.names.get("human")
    name = str(character.name)
    if parts is not None:
        first = walk.rng.choice(parts.male if character.gender == "male" else parts.female)
        name = f"{first} {walk.rng.choice(parts.family)}" if parts.family else first
    walk.marks["offered_name"] = (key, name)
    return name


def name_question() -> Question:
    def take(walk: Walk, text: str) -> str:
        name = " ".join(text.split()) or offered_name(walk)
        walk.data["name"] = name
        return name

    return Question(
        "name",
        lambda walk: "8.8 Name: any name you like, or the one offered.",
        lambda walk: (
            f"Name{walk.face.says(f' (Enter for {offered_name(walk)})', f' ({offered_name(walk)} is offered)')}"
        ),
        take,
        accepts=lambda walk: (
            f"any name of one line, up to 500 characters{walk.face.says('; Enter takes the one offered')}"
        ),
        empty="Take the name offered",
    )
