"""The state of a walk through the book's steps: the character file so far, the RNG that rolls what the
player leaves to chargen, and the history `back` undoes. Plain Python: no terminal, no click."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chargen.errors import ChargenError, InputError
from chargen.model import Character
from chargen.tables import Tables

#: Seed of the previews: what the file does not give yet is filled in only to show the steps done so far.
PREVIEW_SEED = 0


@dataclass(frozen=True)
class Choice:
    """One option of a step, as a control shows it: the entry it stands for, its name, what it costs or
    gives, and, when the rules refuse it as things stand, why (then it is shown but cannot be chosen)."""

    value: str
    label: str
    note: str = ""
    refused: str = ""


@dataclass(frozen=True)
class Die:
    """One number a step asks for (a die, or a 5.2 value), with the values it may take."""

    label: str
    low: int
    high: int


@dataclass(frozen=True)
class Question:
    """One step: its rule in one line, the question, and how an answer changes the walk (returning what to
    show; raising InputError, with the reason, for an entry the rules refuse)."""

    key: str
    explain: Callable[[Walk], str]
    ask: Callable[[Walk], str]
    take: Callable[[Walk, str], str]
    applies: Callable[[Walk], bool] = lambda walk: True
    #: What the step accepts, in full, for `help` (None: the question itself says it).
    accepts: Callable[[Walk], str] | None = None
    #: The options a control offers (None: a typed entry or numbers); `many`: any number of them, the
    #: entry their values joined by commas, else one of them.
    choices: Callable[[Walk], list[Choice]] | None = None
    many: bool = False
    #: The numbers the step asks for, the entry their values joined by spaces (None: not a number step).
    numbers: Callable[[Walk], list[Die]] | None = None
    #: What an empty entry (Enter) does, as a button says it.
    empty: str = "Enter"


@dataclass(frozen=True)
class Face:
    """Where a walk is shown, for the few words that differ between its faces: at the terminal's prompt
    an empty entry is Enter and chargen's commands are named; on a page, each step's buttons say what an
    empty entry does, and the player reads no program words."""

    terminal: bool = True

    def says(self, terminal: str, page: str = "") -> str:
        """The terminal's words, or the page's (none, by default: the page's buttons say it)."""
        return terminal if self.terminal else page


TERMINAL = Face(terminal=True)
PAGE = Face(terminal=False)

#: Words every prompt of a walk understands, whatever the step, with what each does (for `help`).
COMMANDS = {
    "back": "undo the last step",
    "help": "say what this step does and what it accepts",
    "quit": "leave the walk; nothing is written",
    "rest": "let chargen choose every step left, as `chargen roll --archetype` does for your concept",
}


def command_of(text: str) -> str | None:
    """The walk's own command a player typed (`back`, `help`, `quit`, in any case), or None."""
    word = text.strip().lower()
    return word if word in COMMANDS else None


@dataclass
class _Snapshot:
    data: dict[str, Any]
    allocation: dict[str, int]
    marks: dict[str, Any]
    position: int
    rng_state: Any


@dataclass
class Walk:
    """A character being made one step at a time. `data` is the character file as far as it goes; every
    die is in it, whether the player entered it or chargen rolled it, so the file builds to the same
    character."""

    tables: Tables
    seed: int
    questions: list[Question]
    data: dict[str, Any] = field(default_factory=lambda: {"rolls": {}})
    allocation: dict[str, int] = field(default_factory=dict)  # 5.2 so far, until all six are placed
    marks: dict[str, Any] = field(default_factory=dict)  # the walk's own notes, not in the file
    position: int = 0
    face: Face = TERMINAL
    _history: list[_Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def current(self) -> Question | None:
        """The next step that applies to this character (None: the walk is done)."""
        while self.position < len(self.questions) and not self.questions[self.position].applies(self):
            self.position += 1
        return self.questions[self.position] if self.position < len(self.questions) else None

    def answer(self, text: str) -> str:
        """Take the player's entry for the current step; a refused entry leaves the walk as it was."""
        question = self.current
        if question is None:
            raise InputError("the walk is done")
        snapshot = self._snapshot()
        try:
            if command_of(text) == "rest":
                shown = self._choose_rest()
                self._history.append(snapshot)
                return shown
            shown = question.take(self, text.strip())
            self.preview()
        except ChargenError:
            self._restore(snapshot)
            raise
        self._history.append(snapshot)
        self.position += 1
        return shown

    def help(self) -> str:
        """What the current step does and what it accepts, with the words every prompt understands."""
        question = self.current
        if question is None:
            return "The walk is done."
        accepts = question.accepts(self) if question.accepts else question.ask(self)
        commands = "; ".join(f"{word}: {told}" for word, told in COMMANDS.items())
        return f"{question.explain(self)}\nAccepts: {accepts}.\nAt any prompt: {commands}."

    def back(self) -> bool:
        """Undo the last step taken (False when there is none)."""
        if not self._history:
            return False
        self._restore(self._history.pop())
        return True

    def roll(self, sides: int, count: int = 1) -> list[int]:
        """Dice the player left to chargen, from the walk's seeded RNG."""
        return [self.rng.randint(1, sides) for _ in range(count)]

    def preview(self) -> Character:
        """The character as the steps so far make it (later steps filled in with a fixed seed; a whole
        file, as the rest chosen by chargen leaves it, keeps its own)."""
        return self.built(self.data)

    def built(self, data: dict[str, Any]) -> Character:
        """A character file of this walk built as the preview builds it (later steps from a fixed seed)."""
        from chargen.api import build_spec
        from chargen.character_reading import character_input

        seed = data.get("seed", PREVIEW_SEED)
        return build_spec(character_input(copy.deepcopy(data)), seed=seed, tables=self.tables)

    @property
    def concept(self) -> str | None:
        """The archetype the player chose as a concept (tables/archetypes.yaml), or None for any."""
        chosen = self.marks.get("concept")
        return str(chosen) if chosen else None

    def _choose_rest(self) -> str:
        """Every step left chosen as `chargen roll --archetype CONCEPT` would (api.build_spec of a partial
        file: race attempts rolled, the archetype's kit bought within the purse (8.5, 8.7) and its
        abilities within the Experience (8.6)); what the player decided is kept. A 5.2 allocation not yet
        whole is the archetype's (a file holds all six or none)."""
        from chargen.api import build_spec
        from chargen.character_reading import character_input
        from chargen.model import to_document

        data = copy.deepcopy(self.data)
        if len(self.allocation) < len(self.tables.characteristics.primaries):
            data.pop("allocation", None)
        if self.concept:
            data["archetype"] = self.concept
        seed = self.rng.randrange(2**31)
        character = build_spec(character_input(data), seed=seed, tables=self.tables)
        self.data = dict(to_document(character))
        self.position = len(self.questions)
        return self.face.says("chargen chose the rest: ", "the rest chosen for you: ") + character.name

    def document(self) -> Character:
        """The finished character file: every die and choice given, so nothing is left to a seed."""
        return self.preview()

    def _snapshot(self) -> _Snapshot:
        state = self.rng.getstate()
        return _Snapshot(
            copy.deepcopy(self.data), dict(self.allocation), dict(self.marks), self.position, state
        )

    def _restore(self, snapshot: _Snapshot) -> None:
        self.data = snapshot.data
        self.allocation = snapshot.allocation
        self.marks = snapshot.marks
        self.position = snapshot.position
        self.rng.setstate(snapshot.rng_state)
