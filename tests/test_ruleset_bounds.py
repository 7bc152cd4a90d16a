"""Every bound on a number a ruleset sets, at its edge: the last value allowed loads, the next one is refused
when the tables load, naming the key path and the bound (docs/hardening.md, "Bounds on what a file or a
ruleset may ask")."""

from __future__ import annotations

from pathlib import Path

import pytest

from chargen.errors import ChargenError
from chargen.tables import load_tables

#: (what is bounded, the ruleset's section with {} for the number, the last allowed, the first refused,
#: what the refusal says)
BOUNDS = [
    ("a characteristic modifier, up", "races:\n    races:\n      dwarf:\n        modifiers: {{PS: {}}}", 10_000, 10_001, "at most 10,000 points"),
    ("a characteristic modifier, down", "races:\n    races:\n      dwarf:\n        modifiers: {{PS: {}}}", -10_000, -10_001, "at most 10,000 points"),
    ("a group's members", "groups:\n    groups:\n      patrol:\n        members: {{soldier: {}}}", 10_000, 10_001, "a count is at most 10,000"),
    ("a weapon's maximum Rank, up", "weapons:\n    weapons:\n      estoc: {{max_rank: {}}}", 100, 101, "a Rank is from 0 to 100"),
    ("a weapon's maximum Rank, down", "weapons:\n    weapons:\n      estoc: {{max_rank: {}}}", 0, -1, "a Rank is from 0 to 100"),
    ("6.3's race attempts, up", "races:\n    attempts: {}", 200, 201, "from 0 to 200"),
    ("6.3's race attempts, down", "races:\n    attempts: {}", 0, -1, "from 0 to 200"),
    ("a leader's rolls, up", "groups:\n    best_of: {}", 100, 101, "from 1 to 100"),
    ("a leader's rolls, down", "groups:\n    best_of: {}", 1, 0, "from 1 to 100"),
]  # fmt: skip


def loaded(tmp_path: Path, section: str, number: int) -> None:
    ruleset = tmp_path / "edge.yaml"
    ruleset.write_text("change:\n  " + section.format(number) + "\n", encoding="utf-8")
    load_tables(None, [str(ruleset)])


@pytest.mark.parametrize(
    ("section", "allowed", "refused", "says"),
    [bound[1:] for bound in BOUNDS],
    ids=[bound[0] for bound in BOUNDS],
)
def test_the_last_value_allowed_loads_and_the_next_is_refused(
    tmp_path: Path, section: str, allowed: int, refused: int, says: str
) -> None:
    loaded(tmp_path, section, allowed)
    with pytest.raises(ChargenError, match=says) as refusal:
        loaded(tmp_path, section, refused)
    assert f"{refused:,}" in str(refusal.value) or str(refused) in str(refusal.value)
