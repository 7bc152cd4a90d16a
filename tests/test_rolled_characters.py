"""Properties of rolled characters: every one obeys the rules, and rebuilds to itself."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chargen import api
from chargen.character_file import dump_document
from chargen.character_reading import from_document
from chargen.model import to_document
from chargen.tables import load_tables
from tests.rules_checker import check_character

TABLES = load_tables()
RACES = sorted(TABLES.races)
ARCHETYPES = sorted(TABLES.archetypes)

options = st.fixed_dictionaries(
    {
        "seed": st.integers(min_value=0, max_value=2**31 - 1),
        "gender": st.none() | st.sampled_from(["male", "female"]),
        "race": st.none() | st.sampled_from(RACES),
        "archetype": st.none() | st.sampled_from(ARCHETYPES),
        "equip": st.sampled_from(["buy", "give", "none"]),
    }
)


@pytest.mark.slow  # many rolled characters
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(choice=options)
def test_every_rolled_character_obeys_the_rules(choice: dict[str, object]) -> None:
    character = api.roll(tables=TABLES, **choice)  # type: ignore[arg-type]
    check_character(to_document(character), TABLES)


@pytest.mark.slow  # many rolled characters
@settings(max_examples=150, deadline=None)
@given(choice=options)
def test_build_of_a_rolled_character_gives_it_back(choice: dict[str, object]) -> None:
    character = api.roll(tables=TABLES, **choice)  # type: ignore[arg-type]
    for fmt in ("yaml", "json"):
        text = dump_document(character, fmt)
        rebuilt = api.build(text, f"character.{fmt}", tables=TABLES)
        assert dump_document(rebuilt, fmt) == text
        assert api.validate(text, f"character.{fmt}", tables=TABLES) == []


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), attempts=st.permutations(RACES))
def test_race_attempts_bind_on_the_first_success(seed: int, attempts: list[str]) -> None:
    tried = [race for race in attempts if race != "human"][:3]
    character = api.roll(seed=seed, race_attempts=tried, tables=TABLES)
    check_character(to_document(character), TABLES)
    assert character.race_attempts is not None
    assert character.race_attempts == tried[: len(character.race_attempts)]


def test_no_race_option_tries_three_different_non_human_races() -> None:
    for seed in range(60):
        character = api.roll(seed=seed, tables=TABLES)
        attempts = character.race_attempts
        assert attempts is not None
        assert "human" not in attempts and len(set(attempts)) == len(attempts)
        assert len(attempts) == TABLES.race_file.attempts or character.race == attempts[-1]


def test_giants_endurance_past_the_table_is_noted() -> None:
    giants = [api.roll(seed=seed, race="giant", tables=TABLES) for seed in range(40)]
    past = [giant for giant in giants if giant.characteristics.EN > 27]
    assert past, "some giants should run past the printed 5.3 rows"
    for giant in past:
        assert any("beyond the printed 5.3 table" in note for note in giant.notes)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), optional=st.sampled_from([(), ("PB", "18.5")]))
def test_a_rolled_character_reads_back_as_itself(seed: int, optional: tuple[str, ...]) -> None:
    """derived.character fills 39 fields: a value in the wrong field would fail the file's own validation
    (its type) or differ once read back."""
    character = api.roll(seed=seed, optional=optional, tables=TABLES)
    assert from_document(to_document(character)) == character
