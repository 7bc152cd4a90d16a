"""Encounter groups (`chargen batch --group`): a leader and the members it leads, from tables/groups.yaml
or written out as `bandit=5,bandit-chief=1`.

A run of N groups is N x (group size) NPCs, numbered on from group to group, the leader first in each: NPC
i is still a pure function of (seed, i), so groups are the same for any number of jobs. A leader's 5.1
roll is the best of `best_of` (groups.yaml): that many whole characters from seeds derived for the
leader's number, keeping the one with the most Characteristic Points (the generation itself is unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen.errors import InputError
from chargen.names import resolve, unknown_name
from chargen.tables import Tables

OPTION = "--group"


@dataclass(frozen=True, slots=True)
class GroupPlan:
    """One group as every worker sees it: who stands where in it, and how the leader is chosen."""

    name: str  # "Bandit band", or "Group" for a mix
    leader: str  # archetype id
    members: tuple[tuple[str, int], ...]  # (archetype id, count), the leader not among them
    best_of: int
    count: int = 1  # how many such groups the run makes

    @property
    def size(self) -> int:
        return 1 + sum(count for _, count in self.members)

    def archetype_of(self, number: int) -> str:
        """The archetype at NPC `number`'s place in its group: the leader, then the members as listed."""
        place = (number - 1) % self.size
        if place == 0:
            return self.leader
        for archetype, count in self.members:
            if place <= count:
                return archetype
            place -= count
        raise AssertionError("a place past the group's size")  # size is 1 + the counts: never reached

    def is_leader(self, number: int) -> bool:
        return (number - 1) % self.size == 0

    def index_of(self, number: int) -> int:
        """Which group (1-based) NPC `number` belongs to."""
        return (number - 1) // self.size + 1

    def title(self, index: int) -> str:
        return self.name if self.count == 1 else f"{self.name} {index} of {self.count}"

    def described(self, tables: Tables) -> str:
        """`Bandit Chief (leader), Bandit x5, Archer`: in display names."""

        def shown(archetype: str) -> str:
            return tables.archetypes[archetype].name

        parts = [f"{shown(self.leader)} (leader)"]
        parts.extend(
            shown(name) if count == 1 else f"{shown(name)} \u00d7{count}" for name, count in self.members
        )
        return ", ".join(parts)


def parse_group(text: str, tables: Tables, count: int = 1) -> GroupPlan:
    """A named group of tables/groups.yaml (by id or name), or a mix `bandit=5,bandit-chief=1` with
    exactly one of groups.yaml's leaders, once."""
    best_of = tables.group_file.best_of
    named = resolve(text.strip(), tables.groups) if "=" not in text and "," not in text else None
    if named is not None:
        group = tables.groups[named]
        assert group.leader is not None  # the table's checks refuse a group without one
        return GroupPlan(group.name, group.leader, tuple(group.members.items()), best_of, count)
    members = _counts(text, tables)
    leaders = [name for name, _ in members if name in tables.group_file.leaders]
    if len(leaders) != 1:
        found = f"it names {len(leaders)} ({', '.join(leaders)})" if leaders else "it names none"
        raise InputError(
            f"{OPTION}: {text!r} needs exactly one leader, one of "
            f"{', '.join(tables.group_file.leaders)} (tables/groups.yaml); {found}"
        )
    leader = leaders[0]
    if dict(members)[leader] != 1:
        raise InputError(f"{OPTION}: {text!r}: a group has one leader, not {dict(members)[leader]} {leader}")
    rest = tuple((name, number) for name, number in members if name != leader)
    return GroupPlan("Group", leader, rest, best_of, count)


def _counts(text: str, tables: Tables) -> list[tuple[str, int]]:
    """`bandit=5,bandit-chief=1` as (archetype id, count), each named once, each count a whole number >= 1;
    a name alone counts 1."""
    found: list[tuple[str, int]] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        written, equals, count_text = (side.strip() for side in part.partition("="))
        name = resolve(written, tables.archetypes)
        if name is None:
            what = "an archetype (tables/archetypes.yaml) or a group (tables/groups.yaml)"
            raise unknown_name(OPTION, written, {**tables.archetypes, **tables.groups}, what)
        if name in dict(found):
            raise InputError(f"{OPTION}: {name!r} is given twice in {text!r}")
        found.append((name, _count(name, count_text) if equals else 1))
    if not found:
        raise InputError(
            f"{OPTION}: give a group of tables/groups.yaml, or members such as bandit=5,bandit-chief=1"
        )
    return found


def _count(name: str, text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise InputError(f"{OPTION}: count of {name!r} must be a whole number of at least 1, not {text!r}")
    return int(text)
