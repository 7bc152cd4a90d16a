"""Step 8.6: skills and languages bought at Rank 0 with the starting Experience, before the first adventure;
and a college of magic (34-47) with the talents and spells the tables name for it."""

from __future__ import annotations

from typing import Any, get_args

from chargen.errors import InputError
from chargen.generation.abilities import unlisted_refused
from chargen.messages import unlisted_kept
from chargen.names import resolve, resolved
from chargen.rules.magic import may_cast, opposed_to_element
from chargen.tables.abilities_schema import College, MagicKind
from chargen.walkthrough.walk import Choice, Question, Walk


def bank(walk: Walk) -> int:
    """The Experience Points left after what the walk has bought so far (8.6)."""
    character = walk.preview()
    bank = character.experience_bank if character.experience_bank is not None else character.experience_points
    return bank or 0


def _left(walk: Walk) -> str:
    left = bank(walk)
    return f"{left} Experience Point{'' if left == 1 else 's'} left"


def _or_none(walk: Walk) -> str:
    return walk.face.says(", or Enter for none")


def _rule_told(rule: str | None) -> str:
    """A rule number as a note gives it; a section the book numbers in Roman (I, its Introduction) as such."""
    if not rule:
        return "no rule number"
    return f"rule {rule}" if rule[:1].isdigit() else f"section {rule} of the book"


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _within_bank(walk: Walk, key: str) -> None:
    """8.6: what is bought fits the Experience, else the step is refused in the walk's words."""
    try:
        walk.preview()
    except InputError as error:
        over = next((item for item in error.items if item.path == ("skills",) and item.rule == "8.6"), None)
        if over is None:
            raise
        flat = walk.tables.abilities.experience.rank_zero_skill.cost
        chosen = walk.data.pop(key)
        left = bank(walk)
        walk.data[key] = chosen  # the walk puts the step back as it was (Walk.answer)
        count = len(chosen)
        what = ("skill" if key == "skills" else "language") + ("" if count == 1 else "s")
        raise InputError(
            f"{key}: {count} {what} at {flat} Experience Points each cost {count * flat}, more than the "
            f"{left} left; choose fewer (rule 8.6)"
        ) from None


def skills_question() -> Question:
    def explain(walk: Walk) -> str:
        abilities = walk.tables.abilities
        cost = abilities.experience.rank_zero_skill.cost
        names = ", ".join(skill.name for skill in abilities.skills.values())
        return (
            f"{abilities.experience.rank_zero_skill.rule} Skills: before the first adventure any skill may be "
            f"bought at Rank 0 for {cost} Experience Points; you have {bank(walk)}. Skills (48-62): {names}."
        )

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("skills", None)
        skills = walk.tables.abilities.skills
        chosen = [
            resolved(("skills", index, "name"), name, skills, "a skill (48-62)")
            for index, name in enumerate(_names(text))
        ]
        if chosen:
            walk.data["skills"] = [{"name": skill, "rank": 0} for skill in chosen]
        _within_bank(walk, "skills")
        shown = ", ".join(skills[skill].name for skill in chosen) or "none"
        return f"{shown}; {_left(walk)}"

    return Question(
        "skills",
        explain,
        lambda walk: f"Skills to buy at Rank 0, separated by commas (e.g. Healer){_or_none(walk)}",
        take,
        accepts=lambda walk: (
            "names of skills (48-62) in any case, separated by commas, each once, within your Experience"
            + walk.face.says("; Enter buys none")
        ),
        choices=lambda walk: _bought_at_rank_zero(walk, walk.tables.abilities.skills, "skills"),
        many=True,
        empty="None",
    )


def _bought_at_rank_zero(walk: Walk, entries: dict[str, Any], key: str) -> list[Choice]:
    """8.6: each skill or language at its Rank 0 price; one the Experience left cannot pay for on its own is
    refused (what this step bought before is counted as not bought: the step replaces it)."""
    cost = walk.tables.abilities.experience.rank_zero_skill.cost
    chosen = walk.data.pop(key, None)
    try:
        left = bank(walk)
    finally:
        if chosen is not None:
            walk.data[key] = chosen
    refused = f"costs {cost} Experience Points; {left} left (8.6)" if cost > left else ""
    return [
        Choice(entry_id, str(getattr(entry, "name", entry_id)), f"{cost} Experience Points", refused)
        for entry_id, entry in entries.items()
    ]


def languages_question() -> Question:
    def explain(walk: Walk) -> str:
        abilities = walk.tables.abilities
        cost = abilities.experience.rank_zero_skill.cost
        return (
            f"{abilities.languages.rule} Languages: a language is a skill (49), bought at Rank 0 for {cost} "
            f"Experience Points before the first adventure; you have {bank(walk)}."
        )

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("languages", None)
        languages = walk.tables.abilities.languages
        chosen = []
        for index, name in enumerate(_names(text)):
            known = languages.entries
            if known and not languages.open:
                name = resolved(("languages", index, "name"), name, known, "a language (49)")
            chosen.append(name)
        if chosen:
            walk.data["languages"] = [{"name": language, "rank": 0} for language in chosen]
        _within_bank(walk, "languages")
        return f"{', '.join(chosen) or 'none'}; {_left(walk)}"

    def accepts(walk: Walk) -> str:
        languages = walk.tables.abilities.languages
        which = "any language your GM allows" if languages.open else "the languages the tables list"
        return f"{which}, separated by commas, each once, within your Experience{walk.face.says('; Enter buys none')}"

    return Question(
        "languages",
        explain,
        lambda walk: f"Languages to buy at Rank 0, separated by commas (e.g. Elvish){_or_none(walk)}",
        take,
        accepts=accepts,
        choices=_language_choices,
        many=True,
        empty="None",
    )


def _language_choices(walk: Walk) -> list[Choice]:
    languages = walk.tables.abilities.languages
    return [] if languages.open else _bought_at_rank_zero(walk, dict(languages.entries), "languages")


def _colleges(walk: Walk) -> dict[str, College]:
    """The colleges this character may join (6.6: never the one opposed to a giant's element), id -> name."""
    character = walk.preview()
    race = walk.tables.races[character.race]
    element = race.types[character.race_type].element if character.race_type in race.types else None
    abilities = walk.tables.abilities
    return {
        key: college
        for key, college in abilities.colleges.items()
        if not opposed_to_element(element, college, abilities.opposed_elements)
    }


def college_question() -> Question:
    def explain(walk: Walk) -> str:
        listed = ", ".join(f"{college.name} ({college.rule})" for college in _colleges(walk).values())
        return (
            "34 College of magic: an adept belongs to one college, whose talents, spells and rituals he may "
            f"learn; most characters join none. Colleges you may join: {listed}."
        )

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("college", None)
        walk.data.pop("spells", None)
        if not text:
            return "none"
        college = resolved("college", text, _colleges(walk), "a college you may join (34-47)")
        walk.data["college"] = college
        return walk.tables.abilities.colleges[college].name

    return Question(
        "college",
        explain,
        lambda walk: f"College to join (e.g. Fire Magics){_or_none(walk)}",
        take,
        accepts=lambda walk: (
            f"one of: {', '.join(college.name for college in _colleges(walk).values())}, in any case"
            + walk.face.says("; Enter joins none")
        ),
        choices=lambda walk: [
            Choice(key, college.name, f"rule {college.rule}") for key, college in _colleges(walk).items()
        ],
        empty="None",
    )


def _castable(walk: Walk) -> dict[str, str]:
    """The talents, spells and rituals the tables name that the college casts (34, 4.2), id -> how the
    record names them; what the race has already (6.5's Witchsight) is not bought."""
    race = walk.preview().race
    college = walk.data.get("college")
    return {
        key: f"{entry.name} (a {entry.kind}, {_rule_told(entry.rule)})"
        for key, entry in walk.tables.abilities.magic.entries.items()
        if may_cast(entry, college) and race not in entry.granted_to
    }


def _castable_id(walk: Walk, index: int, text: str, offered: dict[str, str]) -> dict[str, Any]:
    """The spells entry of magic the college casts: listed, by its id; not listed, by the name and kind
    typed (`Fireball (spell)`), kept or refused by the one rule files follow (unlisted_refused, 34)."""
    name, kind = _name_and_kind(text)
    if resolve(name, walk.tables.abilities.magic.entries) is None:
        refused = unlisted_refused(("spells", index), name, kind, walk.tables)
        if refused is not None:
            raise InputError(refused)
        return {"name": name, "rank": 0, "kind": kind}
    key = resolved(("spells", index, "name"), name, offered, "magic the college casts (34)")
    return {"name": key, "rank": 0}


MAGIC_KINDS = get_args(MagicKind)


def _name_and_kind(text: str) -> tuple[str, str | None]:
    """`Fireball (spell)` -> ("Fireball", "spell"); a name without a kind in brackets -> (name, None)."""
    name, bracket, rest = text.partition("(")
    kind = rest.removesuffix(")").strip().lower()
    return (name.strip(), kind) if bracket and kind in MAGIC_KINDS else (text.strip(), None)


def magic_question() -> Question:
    def explain(walk: Walk) -> str:
        college = walk.tables.abilities.colleges[walk.data["college"]].name
        granted = [
            entry.name
            for entry in walk.tables.abilities.magic.entries.values()
            if walk.preview().race in entry.granted_to
        ]
        own = f" Your race has {', '.join(granted)} already." if granted else ""
        return (
            f"34 Magic of {college}: the talents and spells the tables name that an adept of it may learn, "
            f"each at Rank 0: {', '.join(_castable(walk).values())}.{own}"
        )

    def take(walk: Walk, text: str) -> str:
        walk.data.pop("spells", None)
        offered = _castable(walk)
        chosen: dict[str, dict[str, Any]] = {}
        for index, name in enumerate(_names(text)):
            entry = _castable_id(walk, index, name, offered)
            chosen.setdefault(entry["name"], entry)
        if chosen:
            walk.data["spells"] = list(chosen.values())
        entries = walk.tables.abilities.magic.entries
        names = [
            entries[key].name if key in entries else f"{key} ({entry['kind']})"
            for key, entry in chosen.items()
        ]
        unlisted = [entry["name"] for entry in chosen.values() if "kind" in entry]
        note = f" ({unlisted_kept(unlisted)})" if unlisted else ""
        return f"{', '.join(names) or 'none'}{note}; {_left(walk)}"

    return Question(
        "spells",
        explain,
        lambda walk: f"Talents and spells to learn, separated by commas{_or_none(walk)}",
        take,
        lambda walk: bool(walk.data.get("college")) and bool(_castable(walk)),
        accepts=lambda walk: (
            f"names from: {', '.join(_castable(walk).values())}; one the tables do not list with its kind, "
            "e.g. Fireball (spell)" + walk.face.says("; Enter learns none")
        ),
        choices=lambda walk: [
            Choice(key, walk.tables.abilities.magic.entries[key].name, told.partition(" (")[2].rstrip(")"))
            for key, told in _castable(walk).items()
        ],
        many=True,
        empty="None",
    )
