"""Who may join a college and cast what (34, 4.2, 6.6): small rules shared by the character file's checks
and the abilities an NPC is given."""

from __future__ import annotations

from collections.abc import Mapping

from chargen.tables.abilities_schema import College, MagicEntry


def opposed_to_element(element: str | None, college: College, opposed_elements: Mapping[str, str]) -> bool:
    """6.6: a giant may not be a caster of the college of the element opposed to his own."""
    opposed = opposed_elements.get(element or "")
    return opposed is not None and college.element == opposed


def may_cast(entry: MagicEntry, college: str | None) -> bool:
    """34: an entry tied to a college is cast by that college's adepts; an untied spell or ritual by an
    adept of any college; a talent, and 4.2's minor magic (open to a caster of any college), by anyone."""
    if entry.college is not None:
        return entry.college == college
    return college is not None or entry.kind == "talent" or entry.minor
