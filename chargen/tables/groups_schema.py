"""The shape of tables/groups.yaml (encounter groups for `chargen batch --group`) and its checks against
tables/archetypes.yaml. Groups are our table for a GM, not the book's: no rule number applies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from chargen.tables.base import Entry
from chargen.tables.bounds_schema import Count, DiceCount

if TYPE_CHECKING:
    from chargen.tables.loader import Tables

Problem = tuple[str, tuple[str | int, ...], str]


class Group(Entry):
    name: str
    leader: str | None = None  # checked below, so a missing leader is named as such, not as a schema error
    members: dict[str, Count]  # checked below to be at least 1


class GroupsFile(Entry):
    best_of: DiceCount  # a leader's 5.1 roll: the most points of this many
    leaders: list[str]  # the archetypes that lead a group given as a mix (--group "bandit=5,bandit-chief=1")
    groups: dict[str, Group]


def groups_check(tables: Tables) -> Iterator[Problem]:
    """Every archetype named exists, every group has a leader, every count is at least 1."""
    archetypes = tables.archetypes
    for index, leader in enumerate(tables.group_file.leaders):
        if leader not in archetypes:
            yield "groups", ("leaders", index), f"unknown archetype {leader!r} (tables/archetypes.yaml)"
    for group_id, group in tables.groups.items():
        where = ("groups", group_id)
        if group.leader is None:
            yield "groups", where, "no leader: a group needs one (leader: an archetype)"
        elif group.leader not in archetypes:
            yield "groups", (*where, "leader"), f"unknown archetype {group.leader!r} (tables/archetypes.yaml)"
        if not group.members:
            yield "groups", (*where, "members"), "no members: name at least one archetype and its count"
        for archetype, count in group.members.items():
            if archetype not in archetypes:
                message = f"unknown archetype {archetype!r} (tables/archetypes.yaml)"
                yield "groups", (*where, "members", archetype), message
            if count < 1:
                message = f"count {count} of {archetype!r}: each member's count must be at least 1"
                yield "groups", (*where, "members", archetype), message
