"""The steps that are a die roll: the player's dice, or Enter to let chargen roll them. Each step's
rule is shown in one line, in our own words, with its number; the numbers come from the tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chargen.dice import DiceSpec
from chargen.errors import InputError
from chargen.model import Character
from chargen.walkthrough.entries import dice_entry, dice_named, listed
from chargen.walkthrough.walk import Choice, Die, Question, Walk

ROLL_FOR_ME = "Roll the dice for me"


def dice_question(
    key: str,
    sides: Callable[[Walk], list[int]],
    rule: Callable[[Walk], str],
    explain: Callable[[Walk], str],
    result: Callable[[Walk, Character], str],
    *,
    total: bool = False,
    applies: Callable[[Walk], bool] = lambda walk: True,
    roll_key: Callable[[Walk], str] | None = None,
) -> Question:
    """A step whose answer is recorded under rolls.KEY, or rolls.ROLL_KEY where the tables name the key
    (a number, or a list for dice kept apart)."""

    def ask(walk: Walk) -> str:
        either = " (or their total)" if total else ""
        return f"Your {dice_named(sides(walk))}{either}{walk.face.says(', or Enter to roll')}"

    def take(walk: Walk, text: str) -> str:
        dice = sides(walk)
        entered = dice_entry(text, dice, rule(walk), walk.face, total=total)
        values = entered if entered is not None else [walk.roll(side)[0] for side in dice]
        recorded: Any = sum(values) if total or len(dice) == 1 else values
        walk.data["rolls"][roll_key(walk) if roll_key else key] = recorded
        rolled = "" if entered is not None else "rolled "
        return f"{rolled}{listed(values) if isinstance(recorded, list) else recorded}: {result(walk, walk.preview())}"

    def accepts(walk: Walk) -> str:
        dice = dice_named(sides(walk))
        either = " or their total" if total else ""
        return (
            f"the {dice} you rolled, one number per die{either}, separated by spaces or commas "
            f"(a D100 showing 00 is 100){walk.face.says('; Enter: chargen rolls them')}"
        )

    numbers = _dice_fields(sides)
    return Question(f"rolls.{key}", explain, ask, take, applies, accepts, numbers=numbers, empty=ROLL_FOR_ME)


def _dice_fields(sides: Callable[[Walk], list[int]]) -> Callable[[Walk], list[Die]]:
    return lambda walk: [Die(f"D{side}", 1, side) for side in sides(walk)]


def sides_of(spec: DiceSpec | str) -> list[int]:
    """`2D10` -> [10, 10]; the modifier is the rule's, not a die. The tables hold parsed dice."""
    if isinstance(spec, str):
        spec = DiceSpec.parse(spec)
    return [spec.sides] * spec.count


def race_roll(index: int) -> Question:
    """6.3: the D100 for the index-th race attempt."""

    def ask(walk: Walk) -> str:
        race = walk.tables.races[walk.data["race_attempts"][index]]
        return f"Your D100 for {race.name} (at or under {race.chance} succeeds){walk.face.says(', or Enter to roll')}"

    def take(walk: Walk, text: str) -> str:
        entered = dice_entry(text, [100], "6.3", walk.face)
        value = entered[0] if entered is not None else walk.roll(100)[0]
        walk.data["rolls"].setdefault("race", []).append(value)
        race_id = walk.data["race_attempts"][index]
        rolled = "" if entered is not None else "rolled "
        if walk.preview().race == race_id:
            return f"{rolled}{value}: you are {_article(walk.tables.races[race_id].name)}"
        return f"{rolled}{value}: not this race"

    def applies(walk: Walk) -> bool:
        return len(walk.data.get("race_attempts") or []) == index + 1

    return Question(
        f"rolls.race[{index}]",
        race_explain,
        ask,
        take,
        applies,
        lambda walk: f"the D100 you rolled, 1-100 (00 is 100){walk.face.says('; Enter: chargen rolls it')}",
        numbers=lambda walk: [Die("D100", 1, 100)],
        empty=ROLL_FOR_ME,
    )


def race_attempt(index: int) -> Question:
    """6.3: which race to try at the index-th attempt (Enter: no more tries)."""
    order = ("first", "second", "third")[index]

    def ask(walk: Walk) -> str:
        enter = f", or Enter to {'be human' if index == 0 else 'stop trying'}"
        return f"Race to try {order} (e.g. Elf){walk.face.says(enter)}"

    def take(walk: Walk, text: str) -> str:
        from chargen.names import resolved

        if not text:
            walk.marks["race_attempts_done"] = True
            if index == 0:
                walk.data["race"] = "human"
            return "human"
        race_id = resolved(f"race_attempts[{index}]", text, walk.tables.races, "a race (6.3)")
        tried = walk.data.setdefault("race_attempts", [])
        if race_id in tried:
            raise InputError(
                f"race_attempts[{index}]: {race_id} was tried already; each try is at a different race (6.3)"
            )
        if walk.tables.races[race_id].chance >= 100:
            raise InputError(
                f"race_attempts[{index}]: anyone may be {race_id}; "
                f"{walk.face.says('press Enter', 'press Stop trying')} to stop trying (6.3)"
            )
        tried.append(race_id)
        return f"trying {walk.tables.races[race_id].name}"

    def applies(walk: Walk) -> bool:
        tried = walk.data.get("race_attempts") or []
        rolls = walk.data["rolls"].get("race") or []
        if walk.marks.get("race_attempts_done") or walk.data.get("race") or len(tried) != index:
            return False
        return index == 0 or (len(rolls) == index and walk.preview().race == "human")

    empty = "Be human" if index == 0 else "Stop trying: human"
    key = f"race_attempts[{index}]"
    return Question(key, race_explain, ask, take, applies, _untried_told, choices=untried, empty=empty)


def _untried_told(walk: Walk) -> str:
    races = [choice.label for choice in untried(walk)]
    return f"a race not tried yet ({', '.join(races)}), in any case{walk.face.says('; Enter: no more tries')}"


def untried(walk: Walk) -> list[Choice]:
    """6.3: the races a next attempt may try, each with its chance and what it changes."""
    tried = set(walk.data.get("race_attempts") or [])
    return [
        Choice(key, race.name, f"{race.chance}% on D100; {modifiers_told(race.modifiers) or 'no changes'}")
        for key, race in walk.tables.races.items()
        if race.chance < 100 and key not in tried
    ]


def modifiers_told(modifiers: dict[str, int]) -> str:
    """`PS -2, AG +1`: what a race or gender adds to the characteristics (6.1, 6.4-6.9)."""
    return ", ".join(f"{code} {value:+d}" for code, value in modifiers.items())


def race_explain(walk: Walk) -> str:
    chances = ", ".join(
        f"{race.name} {race.chance}" for race in walk.tables.races.values() if race.chance < 100
    )
    return (
        "6.3 Race: try up to three races, one D100 each, in the order you choose; at or under the "
        f"chance you are one, else human. Chances: {chances}."
    )


def _article(name: str) -> str:
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
