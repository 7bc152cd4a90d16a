"""8.6: what the skills, languages and magic a character starts with cost in Experience Points."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from chargen.tables.abilities_schema import Experience
from chargen.tables.schema import Race


@dataclass(frozen=True, slots=True)
class RaceCosts:
    """What a race multiplies the Cost Chart's prices by: the Race Multiplier (6.3) for every ability, and
    for a skill it advances in for less (6.4-6.9: the elf's Healer, the halfling's Spy and Thief) that
    skill's factor too. Each is read as the table writes it (1.1 is 11/10), so a cost rounds up once."""

    multiplier: Fraction
    skills: Mapping[str, Fraction]

    def of(self, kind: str, name: str) -> Fraction:
        """The multiplier of one entry's price, by its kind (`skill`, `language`, `spell`, ...)."""
        factor = self.skills.get(name) if kind == "skill" else None
        return self.multiplier * factor if factor is not None else self.multiplier


def race_costs(race: Race) -> RaceCosts:
    """The race's multipliers of Experience costs, from its table entry."""
    skills = {key: Fraction(str(cost.factor)) for key, cost in race.skill_costs.items()}
    return RaceCosts(Fraction(str(race.experience_multiplier)), skills)


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
    costs: RaceCosts,
    experience: Experience,
) -> Spending:
    """8.6: a skill (or language, 49) at Rank 0 costs the flat price; a higher Rank adds the Cost Chart's
    Ranks 1..n, and magic its Ranks 0..n, times the race's multiplier (6.3) and a skill's own factor
    (6.4-6.9). An entry the chart does not price is not charged."""
    chart = experience.cost_chart
    flat = experience.rank_zero_skill.cost
    spent, uncharged = 0, []
    for kind, listed, entries, first in (
        ("skill", chart.skills, skills, 1),
        ("language", chart.languages, languages, 1),
        ("spell", chart.magic, magic, 0),
    ):
        for name, rank in entries:
            base = flat if first else 0
            if first and rank == 0:
                spent += base
                continue
            cost = chart_cost(listed.get(name, {}), first, rank, costs.of(kind, name))
            if cost is None:
                uncharged.append(name)
            else:
                spent += base + cost
    return Spending(spent, uncharged)


def chart_cost(ranks: Mapping[int, int], first: int, rank: int, multiplier: Fraction) -> int | None:
    """The chart's points for Ranks first..rank times the race's multiplier (RaceCosts.of), rounded up (the
    seeds give no rounding: the character pays at least the multiplied cost); None when a Rank is missing.
    An exact fraction: 100 x 1.1 is 110, not the float's 110.00000000000001."""
    needed = range(first, rank + 1)
    if any(step not in ranks for step in needed):
        return None
    return math.ceil(sum(ranks[step] for step in needed) * multiplier)
