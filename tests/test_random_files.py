"""Whole random character files: whatever a file holds, chargen.api builds it or raises one ChargenError,
never anything else. Values are drawn near the rules (table ids and names, dice at and past their ends)
and far from them (wrong types, unknown keys), so both the schema and the generation steps are reached.

CHARGEN_HYPOTHESIS_EXAMPLES sets how many files a run tries (default 3000: about 25 s of CPU).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from chargen import api
from chargen.character_file import CharacterInput, dump_document
from chargen.errors import ChargenError
from chargen.model import Character
from chargen.tables import load_tables

pytestmark = pytest.mark.slow  # a property over many random files and choices

TABLES = load_tables()
EXAMPLES = int(os.environ.get("CHARGEN_HYPOTHESIS_EXAMPLES", "3000"))


def _names(entries: dict[str, Any]) -> list[str]:
    return [*entries, *(getattr(entry, "name", key) for key, entry in entries.items())]


RACES = _names(TABLES.races)
WEAPONS = _names(TABLES.weapons)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=130),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from([*RACES, *WEAPONS, "", " ", "00", "human", "male", "PB", "x" * 600]),
)
anything = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
die = st.integers(min_value=-1, max_value=101)
item = st.fixed_dictionaries(
    {"name": st.sampled_from(WEAPONS)}, optional={"rank": st.integers(0, 12)}
) | st.sampled_from(WEAPONS)
#: Values near the rules: ids and display names, dice at and past their ends.
near: dict[str, st.SearchStrategy[Any]] = {
    "name": st.text(min_size=1, max_size=20),
    "seed": st.integers(min_value=0, max_value=2**40),
    "archetype": st.sampled_from(_names(TABLES.archetypes)),
    "gender": st.sampled_from(["male", "female", "Male", ""]),
    "race": st.sampled_from(RACES),
    "race_attempts": st.lists(st.sampled_from(RACES), max_size=4),
    "race_type": st.sampled_from(["stone", "hill", "wolf", "nosuch"]),
    "hand": st.sampled_from(["right", "left", "ambidextrous"]),
    "aspect": st.sampled_from(_names(TABLES.aspects)),
    "points": st.fixed_dictionaries(
        {"total": st.integers(60, 110)}, optional={"maximum": st.integers(15, 25)}
    ),
    "allocation": st.fixed_dictionaries(
        {code: st.integers(3, 25) for code in ("PS", "MD", "AG", "EN", "MA", "WP")}
    ),
    "optional": st.lists(st.sampled_from(["PB", "XX"]), max_size=2),
    "rolls": st.fixed_dictionaries(
        {},
        optional={
            "points": st.integers(1, 21),
            "hand": st.lists(st.integers(0, 11), min_size=2, max_size=2),
            "race": st.lists(die, max_size=4),
            "race_type": st.integers(0, 11),
            **{key: die for key in ("aspect", "social_status", "birth_order", "experience", "silver")},
            "sibling_rank": st.integers(0, 11),
            "beauty": st.lists(st.integers(0, 6), min_size=3, max_size=5),
        },
    ),
    "weapons": st.lists(item, max_size=3),
    "armor": st.sampled_from(_names(TABLES.armor)),
    "shield": item | st.sampled_from(_names(TABLES.shields)),
    "unarmed_rank": st.integers(0, 12),
    "equipment_given": st.booleans(),
}
#: Files a player might write: near values only, so the generation steps are reached.
plausible = st.fixed_dictionaries({}, optional=near)
#: Files no one means to write: any value under any key, unknown keys too.
wild = st.fixed_dictionaries(
    {}, optional={**{key: anything for key in CharacterInput.model_fields}, "nosuch_key": anything}
)
files = st.one_of(plausible, plausible, plausible, wild)


def _fits_schema(document: dict[str, Any]) -> bool:
    try:
        CharacterInput.model_validate(document)
    except ValidationError:
        return False
    return True


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=files, as_yaml=st.booleans())
def test_any_character_file_is_built_or_refused_with_one_chargen_error(
    document: dict[str, Any], as_yaml: bool
) -> None:
    text = yaml.safe_dump(document) if as_yaml else json.dumps(document)
    try:
        built = api.build(text, "random.yaml", seed=1)
    except ChargenError as error:
        assert str(error)
        event("refused by a rule" if _fits_schema(document) else "refused by the schema")
    else:
        event("built")
        assert isinstance(built, Character)
        assert api.build(dump_document(built, "json"), "rebuilt.json") == built


roll_choices = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=30) | anything,
        "gender": st.sampled_from(["male", "female", "Female", "x", ""]) | anything,
        "race": st.sampled_from(RACES) | st.text(max_size=10),
        "race_attempts": st.lists(st.sampled_from(RACES) | st.text(max_size=6), max_size=4),
        "archetype": st.sampled_from(_names(TABLES.archetypes)) | st.text(max_size=10),
        "optional": st.lists(st.sampled_from(["PB", "pb", "XX", ""]), max_size=3),
    },
)


@settings(max_examples=EXAMPLES // 6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=roll_choices, seed=st.integers(min_value=0, max_value=2**31))
def test_any_choices_to_api_roll_give_a_character_or_one_chargen_error(
    choices: dict[str, Any], seed: int
) -> None:
    try:
        rolled = api.roll(seed=seed, tables=TABLES, **choices)
    except ChargenError as error:
        assert str(error)
        event("refused")
    else:
        event("rolled")
        assert api.build(dump_document(rolled, "json"), "rolled.json") == rolled
