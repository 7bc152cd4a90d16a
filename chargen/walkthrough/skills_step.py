"""Step 8.6: skills bought at Rank 0 with the starting Experience, before the first adventure."""

from __future__ import annotations

from chargen.names import resolved
from chargen.walkthrough.walk import Question, Walk


def _bank(walk: Walk) -> int:
    character = walk.preview()
    return character.experience_points if character.experience_bank is None else character.experience_bank


def skills_question() -> Question:
    def explain(walk: Walk) -> str:
        abilities = walk.tables.abilities
        cost = abilities.experience.rank_zero_skill.cost
        names = ", ".join(skill.name for skill in abilities.skills.values())
        return (
            f"{abilities.experience.rank_zero_skill.rule} Skills: before the first adventure any skill may be "
            f"bought at Rank 0 for {cost} Experience Points; you have {_bank(walk)}. Skills (48-62): {names}."
        )

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("skills", None)
        names = [part.strip() for part in text.split(",") if part.strip()]
        skills = walk.tables.abilities.skills
        chosen = [
            resolved(("skills", index, "name"), name, skills, "a skill (48-62)")
            for index, name in enumerate(names)
        ]
        if chosen:
            walk.data["skills"] = [{"name": skill, "rank": 0} for skill in chosen]
        shown = ", ".join(skills[skill].name for skill in chosen) or "none"
        return f"{shown}; {_bank(walk)} Experience Points left"

    return Question(
        "skills",
        explain,
        lambda walk: "Skills to buy at Rank 0, separated by commas (e.g. Healer), or Enter for none",
        take,
    )
