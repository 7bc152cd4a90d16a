"""A guided walk through the book's steps (5.1 to 8.8), one question at a time: the player's own dice, or
Enter to let chargen roll. Plain Python, testable without a terminal; `chargen new` is its front end.

    walk = new_walk(load_tables(), seed=7)
    while (question := walk.current) is not None:
        print(question.explain(walk))
        walk.answer(input(question.ask(walk) + ": "))
    document = walk.document()
"""

from __future__ import annotations

from chargen.tables import Tables
from chargen.walkthrough.steps import questions
from chargen.walkthrough.walk import PAGE, TERMINAL, Face, Question, Walk

__all__ = ["PAGE", "TERMINAL", "Face", "Question", "Walk", "new_walk"]


def new_walk(tables: Tables, seed: int, face: Face = TERMINAL) -> Walk:
    """A walk at its first step; `seed` rolls whatever the player leaves to chargen; `face`: where it is
    shown (the terminal's prompt, or a page)."""
    return Walk(tables=tables, seed=seed, questions=questions(tables), face=face)
