"""One evaluation: the graph that made a character's values, evaluated again on the finished Character (as
`chargen explain` and the record's workings read it), gives every value the Character carries."""

from __future__ import annotations

import pytest

from chargen import api
from chargen.tables import load_tables
from chargen.values.graph import Sheet, graph


@pytest.mark.parametrize("rules", [(), ("house-combat",)])
@pytest.mark.parametrize("equip", ["buy", "give"])
def test_the_graph_of_a_finished_character_gives_the_values_it_carries(
    rules: tuple[str, ...], equip: str
) -> None:
    tables = load_tables(rules=rules)
    for seed in range(30):
        optional = ["18.5"] if seed % 3 == 0 and not rules else []  # house-combat counts PS in damage
        character = api.roll(seed=seed, tables=tables, equip=equip, optional=optional)  # type: ignore[arg-type]
        again = graph(Sheet.of_character(character), tables)
        assert again.characteristics == character.characteristics, seed
        assert again.tmr == character.tmr, seed
        assert again.combat == character.combat, seed
        assert again.holding.agility == character.combat.modified_agility, seed
