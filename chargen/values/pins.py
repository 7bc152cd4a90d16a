"""The GM's rulings as the graph takes them (chargen.values.pinned reads them from a file's `overrides:`):
each pinned value stands in place of the one its formula gives, and what reads it is worked out from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from chargen.model import UnarmedLine, WeaponLine
from chargen.tables import Tables
from chargen.values.lines import special_ranges


@dataclass(frozen=True, slots=True)
class Pins:
    """The pinned values: by the name a formula gives each (chargen.values.names), a ruleset's own by its
    key, and a weapon line's by its place among the weapons and its field."""

    values: Mapping[str, int] = field(default_factory=dict)
    added: Mapping[str, int] = field(default_factory=dict)
    rows: Mapping[tuple[int, str], int] = field(default_factory=dict)

    def value(self, name: str, value: int | None) -> int | None:
        """The GM's value of `name` where pinned, else `value`."""
        return self.values.get(name, value) if self.values else value

    def whole(self, name: str, value: int) -> int:
        return self.values.get(name, value) if self.values else value


NO_PINS = Pins()
Line = TypeVar("Line", WeaponLine, UnarmedLine)


def pinned_line(line: Line, field_name: str, value: int, tables: Tables) -> Line:
    """A weapon (or unarmed) line with its Initiative or Strike Chance ruled; a Strike Chance reads 18.2's
    chart again for the rolls that do Endurance damage and Grievous Injury."""
    if field_name == "initiative":
        return replace(line, initiative=value)
    endurance, grievous = special_ranges(value, tables)
    return replace(line, strike_chance=value, endurance_damage=endurance, grievous_injury=grievous)
