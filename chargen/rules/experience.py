"""8.6: what the skills, languages and magic a character starts with cost in Experience Points."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from chargen.tables.abilities_schema import Experience


@dataclass(frozen=True)
class Spending:
    """The Experience charged, and the entries whose Ranks the Cost Chart does not price (recorded as given,
    not charged)."""

    spent: int
    uncharged: list[str]


def experience_spent(
    skills: Iterable[tuple[str, int]],
    languages: Iterable[tuple[str, int]],
    magic: Iterable[tuple[str, int]],
    multiplier: float,
    experience: Experience,
) -> Spending:
    """8.6: a skill (or language, 49) at Rank 0 costs the flat price; a higher Rank adds the Cost Chart's
    Ranks 1..n, and magic its Ranks 0..n, times the race's multiplier (6.3). An entry the chart does not
    price is not charged."""
    chart = experience.cost_chart
    flat = experience.rank_zero_skill.cost
    spent, uncharged = 0, []
    for listed, entries, first in (
        (chart.skills, skills, 1),
        (chart.languages, languages, 1),
        (chart.magic, magic, 0),
    ):
        for name, rank in entries:
            base = flat if first else 0
            if first and rank == 0:
                spent += base
                continue
            cost = chart_cost(listed.get(name, {}), first, rank, multiplier)
            if cost is None:
                uncharged.append(name)
            else:
                spent += base + cost
    return Spending(spent, uncharged)


def chart_cost(ranks: Mapping[int, int], first: int, rank: int, multiplier: float) -> int | None:
    """The chart's points for Ranks first..rank times the race's multiplier, rounded up (the seeds give no
    rounding: the character pays at least the multiplied cost); None when a Rank is missing. The multiplier
    is read as the table writes it (1.1 is 11/10): 100 x 1.1 is 110, not the float's 110.00000000000001."""
    needed = range(first, rank + 1)
    if any(step not in ranks for step in needed):
        return None
    return math.ceil(sum(ranks[step] for step in needed) * Fraction(str(multiplier)))
