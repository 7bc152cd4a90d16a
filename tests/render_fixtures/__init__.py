"""Characters for the renderer's tests, built by chargen.api from the character files in this folder, and
the one place the tests render them.

    human.yaml    a plain human (the book's Rolf), ranked Broadsword, Leather, Large Round Shield
    giant.yaml    a fire giant: Endurance past 5.3's rows, armor at size 15, (1-2) and (2) weapons, PS short
    crowded.yaml  a very long name, ten weapons, a shape-changer's abilities, Physical Beauty
    caster.yaml   a batch adept (an elf): a college, a talent the race grants, spells (tests/test_export.py)

Every file passes `chargen validate` (tests/test_render_fixtures.py), so the records the tests read are
the records chargen would print for a real character. The tests read a character as its character file's
mapping (what `build_text` returns) and reach the renderer only through `record_html`, `record_pdf` and
`roster_html`. chargen.api.build returns a typed Character: `build_text` and `rolled` dump it to the file's
mapping (chargen.model.to_document), which the renderer reads back (chargen.render.build.as_character).

Imported by tests/test_render_*.py as `tests.render_fixtures`.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from chargen import api
from chargen.model import to_document
from chargen.render import render_html, render_pdf
from chargen.tables import Tables, load_tables

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = ("human", "giant", "crowded")

#: The keys of a character file that chargen derives (the rest are choices and rolls).
DERIVED = (
    "characteristics",
    "tmr",
    "experience_multiplier",
    "experience_points",
    "starting_silver",
    "silver_pennies",
    "combat",
)
#: Names inside the derived keys: they select a chart entry, they are not values to mutate.
NAMES = ("name",)


@cache
def tables() -> Tables:
    return load_tables()


def text(fixture: str) -> str:
    return (HERE / f"{fixture}.yaml").read_text(encoding="utf-8")


def build_text(source_text: str, source: str) -> Any:
    """A character as chargen builds it from a character file's text, as the file's mapping."""
    return to_document(api.build(source_text, source, tables=tables()))


def build(fixture: str) -> Any:
    return build_text(text(fixture), f"{fixture}.yaml")


def human() -> Any:
    return build("human")


def giant() -> Any:
    return build("giant")


def crowded() -> Any:
    return build("crowded")


def named(name: str, fixture: str = "human") -> Any:
    """The fixture under another name (hostile names are given as JSON, which needs no quoting rules)."""
    data = yaml.safe_load(text(fixture))
    data["name"] = name
    return build_text(json.dumps(data), f"{fixture}-named.json")


def rolled(seed: int, **choices: Any) -> Any:
    """A character rolled by the core (chargen.api.roll), as `chargen roll --seed N` writes it."""
    return to_document(api.roll(seed=seed, tables=tables(), **choices))


def record_html(character: Any, **options: Any) -> str:
    """The standalone HTML Character Record of a built character (options: paper, template)."""
    return render_html(character, tables(), **options)


def record_pdf(character: Any, **options: Any) -> bytes:
    """The PDF Character Record of a built character (options: paper, template)."""
    return render_pdf(character, tables(), **options)


def with_derived_values(character: Any, value: int) -> Any:
    """The character with every derived number, and every number inside a derived text such as `D10+4` or
    `01-12`, replaced by `value`: choices, rolls and chart names are left alone."""
    data = copy.deepcopy(character)
    for key in DERIVED:
        if key in data:
            data[key] = _replace_numbers(data[key], value)
    return data


def _replace_numbers(node: Any, value: int) -> Any:
    if isinstance(node, dict):
        return {k: v if k in NAMES else _replace_numbers(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_numbers(item, value) for item in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int | float):
        return value
    if isinstance(node, str):
        return re.sub(r"\d+", str(value), node)
    return node


def roster_html(characters: list[Any], **options: Any) -> str:
    """The batch roster (NPC cards) of built characters, as `chargen batch --roster` prints it."""
    from chargen.render.build import as_character
    from chargen.views.cards import roster_card
    from chargen.views.roster import roster_html as render_roster

    cards = [
        roster_card(number, as_character(character), tables())
        for number, character in enumerate(characters, 1)
    ]
    return render_roster(cards, paper=options.get("paper", "letter"), title=options.get("title", "Test"))
