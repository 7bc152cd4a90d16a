"""The names chargen draws for rolled characters and NPCs (tables/names.yaml) are its own: none borrowed
from published fiction, and each list as long as it was, so every seed still draws the same character
(only its name differs)."""

from __future__ import annotations

from chargen import api
from chargen.tables import Tables

#: Names of published fiction the lists once held (Tolkien's, above all), which no list may hold again.
BORROWED = {
    "Elrond", "Evenstar", "Nimrodel", "Tinuviel", "Elanor", "Tobold", "Tunnelly", "Bilbo", "Thorin", "Balin",
    "Kili", "Luthien", "Idril", "Elwing", "Legolin", "Haldir", "Gamgee", "Brandybuck", "Proudfoot",
    "Bracegirdle", "Lobelia", "Hamfast", "Fortinbras", "Shagrat", "Gorbag", "Grishnak", "Ugluk", "Azog",
    "Golfimbul", "Snaga", "Beorn", "Conan",
}  # fmt: skip
#: How many names each list holds (a list of another length would give every seed another character).
LENGTHS = {
    "human": {"male": 40, "female": 40, "family": 40, "epithets": 25},
    "dwarf": {"male": 20, "female": 20, "family": 16, "epithets": 10},
    "elf": {"male": 20, "female": 20, "family": 14, "epithets": 8},
    "giant": {"male": 16, "female": 16, "family": 10, "epithets": 6},
    "halfling": {"male": 20, "female": 20, "family": 20, "epithets": 6},
    "orc": {"male": 20, "female": 16, "family": 12, "epithets": 8},
    "shape-changer": {"male": 16, "female": 16, "family": 12, "epithets": 6},
}


def _lists(tables: Tables) -> dict[str, dict[str, list[str]]]:
    return {
        race: {part: list(getattr(parts, part)) for part in ("male", "female", "family", "epithets")}
        for race, parts in tables.names.items()
    }


def test_no_name_is_borrowed_from_published_fiction(tables: Tables) -> None:
    found = {name for lists in _lists(tables).values() for names in lists.values() for name in names}
    words = {word for name in found for word in name.replace("-", " ").split()}
    assert not (found | words) & BORROWED


def test_each_names_list_keeps_its_length(tables: Tables) -> None:
    lengths = {
        race: {part: len(names) for part, names in lists.items()} for race, lists in _lists(tables).items()
    }
    assert lengths == LENGTHS


def test_a_seed_draws_the_same_character_with_its_new_name() -> None:
    halfling = api.roll(seed=7)  # the README's record picture
    assert (halfling.name, halfling.race, halfling.characteristics.PS) == (
        "Tolliver Tumbledown",
        "halfling",
        16,
    )
