"""What the new-character page shows of a walk: the sections with where the player is, the steps taken as
one line each under their section, the current step's controls. Only the walk's own words and numbers
(chargen.walkthrough): the page adds no rule of its own."""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen.walkthrough import Walk
from chargen.walkthrough.entries import limits_told, near_places
from chargen.walkthrough.sections import SECTIONS, one_line, titled
from chargen.walkthrough.walk import Choice, Die, Question

#: The walk's 5.2 steps are keyed `allocation.PS` and so on, one a characteristic.
ALLOCATION = "allocation."


@dataclass(frozen=True)
class Taken:
    """A step already answered, as the walk told it."""

    key: str
    shown: str


@dataclass(frozen=True)
class Line:
    """A step taken, as the summary shows it: its title, one line, the rest folded."""

    index: int
    title: str
    line: str
    details: str


@dataclass
class SectionView:
    key: str
    title: str
    state: str  # "done", "current" or "to come"
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True)
class StepView:
    """The current step: its section and title, the rule in one line, and its controls."""

    key: str
    section: str
    title: str
    explain: str
    ask: str
    help: str
    choices: list[Choice]
    many: bool
    numbers: list[Die]
    empty: str
    allocation: Allocation | None = None


@dataclass(frozen=True)
class Place:
    """A value at or just below the maximum: how many characteristics 5.2 lets sit at it, how many do."""

    value: int
    allowed: int
    placed: int


@dataclass(frozen=True)
class Allocation:
    """5.2 as one control: a field for each characteristic not placed yet (each answered as its own step
    of the walk, in the walk's order), the values placed, the points and the maximum of 5.1's row, and
    5.2's places near the maximum with the limit told in words."""

    fields: list[Die]
    placed: dict[str, int]
    total: int
    maximum: int
    places: list[Place]
    limit: str

    @property
    def left(self) -> int:
        return self.total - sum(self.placed.values())


def sections(walk: Walk, taken: list[Taken]) -> list[SectionView]:
    """Every section in the walk's order: done, the current one, or to come; with the steps taken in it."""
    question = walk.current
    current = titled(walk, question.key).section if question is not None else None
    found = {key: SectionView(key, title, "done") for key, title in SECTIONS.items()}
    for index, step in enumerate(taken):
        place = titled(walk, step.key)
        line, details = one_line(step.shown)
        found[place.section].lines.append(Line(index, place.title, line, details))
    state = "done"
    for key, view in found.items():
        if key == current:
            state = "current"
        view.state = state
        if state == "current":
            state = "to come"
    return list(found.values())


def step_view(walk: Walk, question: Question) -> StepView:
    place = titled(walk, question.key)
    return StepView(
        key=question.key,
        section=SECTIONS[place.section],
        title=place.title,
        explain=question.explain(walk),
        ask=question.ask(walk),
        help=question.accepts(walk) if question.accepts is not None else "",
        choices=question.choices(walk) if question.choices is not None else [],
        many=question.many,
        numbers=question.numbers(walk) if question.numbers is not None else [],
        empty=question.empty,
        allocation=allocation(walk, question),
    )


def allocation(walk: Walk, question: Question) -> Allocation | None:
    """At a 5.2 step, the characteristics still to place, each from the minimum to the maximum (the walk
    tells which value it refuses and why, as at the terminal); None at any other step."""
    if not question.key.startswith(ALLOCATION):
        return None
    characteristics = walk.tables.characteristics
    points = walk.preview().points
    assert points is not None  # a walk rolls 5.1
    fields = [
        Die(code, characteristics.minimum_value, points.maximum)
        for code in characteristics.primaries
        if code not in walk.allocation
    ]
    limits = characteristics.allocation_limits
    places = [
        Place(value, allowed, sum(1 for placed in walk.allocation.values() if placed == value))
        for value, allowed in near_places(limits, points.maximum)
    ]
    told = limits_told(limits, points.maximum)
    return Allocation(fields, dict(walk.allocation), points.total, points.maximum, places, told)


def warnings(taken: list[Taken]) -> list[str]:
    """What the last step taken warned of (a weapon above the character's PS, 20.2), for the next page."""
    if not taken:
        return []
    return [line.strip() for line in taken[-1].shown.splitlines() if line.strip().startswith("warning:")]
