"""The walk's first step: the player's concept, an archetype of tables/archetypes.yaml or any. It decides
nothing in the file by itself; it is what `rest` (chargen chooses every step left) rolls for, as
`chargen roll --archetype` does."""

from __future__ import annotations

from chargen.names import resolved
from chargen.walkthrough.walk import Choice, Question, Walk

ANY = "any"


def _offered(walk: Walk) -> dict[str, str]:
    """The archetypes a player character follows (those marked `adventurer`; all when none is), id -> name."""
    archetypes = walk.tables.archetypes
    marked = {key: entry.name for key, entry in archetypes.items() if entry.adventurer}
    return marked or {key: entry.name for key, entry in archetypes.items()}


def concept_question() -> Question:
    def explain(walk: Walk) -> str:
        return (
            "Concept: the kind of character you have in mind. You make every choice yourself either way; "
            "at any step, the rest can be chosen for you: this concept's weapons, armour and abilities "
            "bought within your purse (8.7) and Experience (8.6)"
            + walk.face.says(", as `chargen roll --archetype` does.", ".")
        )

    def take(walk: Walk, text: str) -> str:
        if not text or text.lower() == ANY:
            walk.marks.pop("concept", None)
            return "any"
        chosen = resolved("concept", text, _offered(walk), "a concept")
        walk.marks["concept"] = chosen
        return _offered(walk)[chosen]

    def choices(walk: Walk) -> list[Choice]:
        offered = [Choice(key, name) for key, name in _offered(walk).items()]
        return [*offered, Choice(ANY, "Any", "one is picked when the rest is chosen for you")]

    return Question(
        "concept",
        explain,
        lambda walk: f"Concept ({', '.join(_offered(walk))}){walk.face.says(', or Enter for any')}",
        take,
        accepts=lambda walk: f"one of {', '.join(_offered(walk))}, or any{walk.face.says('; Enter: any')}",
        choices=choices,
        empty="Any concept",
    )
