"""What a raise costs on the GM's Experience Cost Chart (87.7, not in the seeds: a ruleset fills
`abilities.experience.cost_chart`), times the race multiplier (6.x), rounded up as 8.6's costs are
(chargen.rules.experience.chart_cost)."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.generation.ledger_targets import Target
from chargen.rules.experience import RaceCosts, chart_cost
from chargen.tables import Tables
from chargen.tables.abilities_schema import Prices


@dataclass(frozen=True, slots=True)
class Price:
    """The chart's cost of a raise, or (None) the chart's entry that would give it."""

    cost: int | None
    missing: str = ""


def chart_price(target: Target, to: int, costs: RaceCosts, tables: Tables) -> Price:
    """Each value or Rank above `target.before` up to `to`, priced on the chart. A skill or language not yet
    known starts at 8.6's Rank 0 price, not multiplied as 8.6 charges it (after any adventure, as 8.6
    allows); magic at its chart's Rank 0."""
    prices = chart_entries(tables)[target.kind].get(target.name, {})
    before, flat, first = target.before, 0, 0 if target.before is None else target.before + 1
    if before is None and target.kind in ("skill", "language"):
        flat, first = tables.abilities.experience.rank_zero_skill.cost, 1
    cost = chart_cost(prices, first, to, costs.of(target.kind, target.name))
    if cost is None:
        step = next(value for value in range(first, to + 1) if value not in prices)
        what = "value" if target.kind == "characteristic" else "Rank"
        return Price(None, f"the GM's chart prices no {what} {step} of {chart_key(target)}")
    return Price(flat + cost)


def chart_entries(tables: Tables) -> dict[str, dict[str, Prices]]:
    """The chart's lists by the kind of what a raise names."""
    chart = tables.abilities.experience.cost_chart
    return {
        "characteristic": chart.characteristics,
        "weapon": chart.weapons,
        "shield": chart.shields,
        "unarmed": {"unarmed": chart.unarmed},
        "skill": chart.skills,
        "language": chart.languages,
        "spell": chart.magic,
    }


def chart_key(target: Target) -> str:
    """Where the chart would price it, as a ruleset names the key."""
    kind = {
        "characteristic": "characteristics",
        "weapon": "weapons",
        "shield": "shields",
        "skill": "skills",
        "language": "languages",
        "spell": "magic",
    }.get(target.kind)
    base = "abilities.experience.cost_chart"
    return f"{base}.unarmed" if kind is None else f"{base}.{kind}.{target.name}"
