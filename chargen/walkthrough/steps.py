"""The book's steps, in its order (5.1 to 8.8), as questions a walk asks one at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chargen.errors import InputError
from chargen.model import Character, Points
from chargen.rules.allocation import allocation_problems
from chargen.walkthrough.birth_steps import (
    aspect_question,
    gender_question,
    hand_question,
    heritage_questions,
    name_question,
    race_type_question,
)
from chargen.walkthrough.concept import concept_question
from chargen.walkthrough.dice_steps import dice_question, race_attempt, race_roll, sides_of
from chargen.walkthrough.entries import lawful_values, limits_told
from chargen.walkthrough.increase_step import increase_question, optional_rules, withheld_rules
from chargen.walkthrough.shopping import armor_question, shield_question, weapons_question
from chargen.walkthrough.skills_step import (
    college_question,
    languages_question,
    magic_question,
    skills_question,
)
from chargen.walkthrough.walk import Choice, Die, Question, Walk


def questions(walk_tables: Any) -> list[Question]:
    """Every step, in the book's order; each applies only where the character so far needs it."""
    codes = list(walk_tables.characteristics.primaries)
    return [
        concept_question(),
        _points(),
        *(_allocate(code, codes) for code in codes),
        _optional(),
        *(_optional_dice(item.code) for item in walk_tables.characteristics.optional),
        gender_question(),
        hand_question(),
        *(step for index in range(3) for step in (race_attempt(index), race_roll(index))),
        race_type_question(),
        aspect_question(),
        *heritage_questions(),
        weapons_question(),
        increase_question(),  # 18.5, when chosen
        armor_question(),
        shield_question(),
        skills_question(),  # 8.6
        languages_question(),  # 49, bought as 8.6's skills
        college_question(),  # 34
        magic_question(),  # 34-47, for an adept
        name_question(),
    ]


def _points() -> Question:
    def explain(walk: Walk) -> str:
        generation = walk.tables.characteristics.point_generation
        return (
            f"{generation.rule} Characteristic Points: roll {generation.dice}; the Point Generation table "
            "turns it into the points you spend and the highest value any characteristic may have."
        )

    def result(walk: Walk, character: Character) -> str:
        points = _rolled_points(character)
        return f"{points.total} points, maximum {points.maximum}"

    return dice_question(
        "points",
        lambda walk: sides_of(walk.tables.characteristics.point_generation.dice),
        lambda walk: walk.tables.characteristics.point_generation.rule,
        explain,
        result,
        total=True,
    )


def _row(walk: Walk) -> tuple[int, int]:
    points = _rolled_points(walk.preview())
    return points.total, points.maximum


def _allocation_explain(walk: Walk) -> str:
    total, maximum = _row(walk)
    minimum = walk.tables.characteristics.minimum_value
    return (
        f"5.2 Allocation: spend all {total} points on the six, each {minimum} to {maximum}; "
        f"{limits_told(walk.tables.characteristics.allocation_limits, maximum)}."
    )


def _allowed(walk: Walk, slots: int) -> tuple[list[int], int]:
    """The values the next characteristic may take (5.2), and the points left, with `slots` to fill."""
    total, maximum = _row(walk)
    characteristics = walk.tables.characteristics
    left = total - sum(walk.allocation.values())
    values = lawful_values(
        walk.allocation,
        total,
        slots,
        maximum,
        characteristics.minimum_value,
        characteristics.allocation_limits,
    )
    return values, left


def _even(values: list[int], left: int, slots: int) -> int:
    """Enter's value: the allowed one nearest an even share of the points left."""
    share = left / slots
    return min(values, key=lambda value: (abs(value - share), -value))


def _allocate(code: str, codes: list[str]) -> Question:
    """5.2, one characteristic at a time, with the points left and the values the rule still allows."""
    slots = len(codes) - codes.index(code)

    def ask(walk: Walk) -> str:
        values, left = _allowed(walk, slots)
        even = walk.face.says(f"; Enter for {_even(values, left, slots)}")
        return f"{code} ({_spans(values)} allowed; {left} points left for {slots}{even})"

    def take(walk: Walk, text: str) -> str:
        values, left = _allowed(walk, slots)
        if not text:
            value = _even(values, left, slots)
        elif text.isdigit():
            value = int(text)
        else:
            raise InputError(f"allocation.{code}: {text[:40]!r} is not a number; rule 5.2")
        if value not in values:
            raise InputError(f"allocation.{code}: {_why_not(walk, code, value, values)}")
        walk.allocation[code] = value
        walk.data["allocation"] = _completed(walk, codes)
        return f"{code} {value}; {left - value} points left"

    def accepts(walk: Walk) -> str:
        values, left = _allowed(walk, slots)
        return (
            f"a whole number among those 5.2 still allows ({_spans(values)}), so the rest can be spent; "
            + walk.face.says("Enter takes", "Near an even share takes")
            + f" {_even(values, left, slots)}, near an even share"
        )

    numbers = _allocation_field(code, slots)
    key = f"allocation.{code}"
    return Question(
        key, _allocation_explain, ask, take, accepts=accepts, numbers=numbers, empty="Near an even share"
    )


def _allocation_field(code: str, slots: int) -> Callable[[Walk], list[Die]]:
    """5.2: the one number of this step, from the lowest to the highest value the rule still allows."""

    def numbers(walk: Walk) -> list[Die]:
        values, _ = _allowed(walk, slots)
        return [Die(code, values[0], values[-1])] if values else []

    return numbers


def _completed(walk: Walk, codes: list[str]) -> dict[str, int]:
    """The values placed so far, the rest as Enter would place them (5.2): a lawful allocation, so the
    preview shows what the player placed until all six are; each later step replaces its own value."""
    placed = dict(walk.allocation)
    try:
        for index, code in enumerate(codes):
            if code not in walk.allocation:
                values, left = _allowed(walk, len(codes) - index)
                walk.allocation[code] = _even(values, left, len(codes) - index)
        return dict(walk.allocation)
    finally:
        walk.allocation = placed


def _why_not(walk: Walk, code: str, value: int, values: list[int]) -> str:
    """The 5.2 reason a value is refused, after the values the prompt showed: out of range, too many near
    the maximum, or no room left."""
    return f"{value} is not among the values 5.2 allows now ({_spans(values)}): {_reason(walk, code, value)}"


def _reason(walk: Walk, code: str, value: int) -> str:
    characteristics = walk.tables.characteristics
    _, maximum = _row(walk)
    placed = {**walk.allocation, code: value}
    problems = allocation_problems(
        placed,
        sum(placed.values()),
        maximum,
        characteristics.minimum_value,
        characteristics.allocation_limits,
    )
    if problems:
        return problems[0]
    return f"{code} {value} leaves no lawful way to spend the rest; rule 5.2"


def _spans(values: list[int]) -> str:
    """[5, 6, 7, 9] -> `5-7, 9`."""
    spans: list[list[int]] = []
    for value in values:
        if spans and value == spans[-1][-1] + 1:
            spans[-1].append(value)
        else:
            spans.append([value])
    return ", ".join(f"{span[0]}-{span[-1]}" if len(span) > 1 else str(span[0]) for span in spans)


def _optional() -> Question:
    """5.5's optional characteristics and the optional rules (18.5), all under the file's `optional`."""

    def explain(walk: Walk) -> str:
        listed = ", ".join(
            f"{item.code} ({item.name}, {item.dice}, rule {item.rule})"
            for item in walk.tables.characteristics.optional
        )
        rules = " ".join(
            f"Optional rule {code}: {told}" for code, told in optional_rules(walk.tables).items()
        ) or withheld_rules(walk.tables)
        return f"5.5 Optional characteristics your GM may use: {listed}. {rules}".strip()

    def take(walk: Walk, text: str) -> str:
        wanted = [part.strip().upper() for part in text.replace(",", " ").split() if part.strip()]
        walk.data["optional"] = list(dict.fromkeys(wanted))  # the build refuses an unknown code (5.5)
        return ", ".join(walk.data["optional"]) or "none"

    return Question(
        "optional",
        explain,
        lambda walk: (
            f"Codes to use (e.g. {', '.join(_optional_codes(walk))}){walk.face.says(', or Enter for none')}"
        ),
        take,
        lambda walk: bool(_optional_codes(walk)),
        accepts=lambda walk: (
            f"codes separated by commas or spaces, from: {', '.join(_optional_codes(walk))}"
            + walk.face.says("; Enter for none")
        ),
        choices=lambda walk: [
            *(
                Choice(item.code, item.name, f"{item.dice}, rule {item.rule}")
                for item in walk.tables.characteristics.optional
            ),
            *(
                Choice(code, f"Optional rule {code}", told)
                for code, told in optional_rules(walk.tables).items()
            ),
        ],
        many=True,
        empty="None",
    )


def _optional_codes(walk: Walk) -> list[str]:
    return [item.code for item in walk.tables.characteristics.optional] + list(optional_rules(walk.tables))


def _optional_item(walk: Walk, code: str) -> Any:
    return next(item for item in walk.tables.characteristics.optional if item.code == code)


def _optional_dice(code: str) -> Question:
    def result(walk: Walk, character: Character) -> str:
        return f"{_optional_item(walk, code).name} {character.characteristics.get(code)}"

    return dice_question(
        code,
        lambda walk: sides_of(_optional_item(walk, code).dice),
        lambda walk: _optional_item(walk, code).rule,
        lambda walk: (
            f"{_optional_item(walk, code).rule} {_optional_item(walk, code).name}: roll {_optional_item(walk, code).dice}."
        ),
        result,
        applies=lambda walk: code in (walk.data.get("optional") or []),
        roll_key=lambda walk: _optional_item(walk, code).roll_key,
    )


def _rolled_points(character: Character) -> Points:
    """5.1's row as the walk rolled it (only a file as it stands has none)."""
    assert character.points is not None
    return character.points
