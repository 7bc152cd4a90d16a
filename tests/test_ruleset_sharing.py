"""A ruleset costs what it changes: its tables share every table it does not name with the book's, and a
ruleset already loaded is found by its content's digest without being parsed again, at the command line's
load_tables and on the page's every request."""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.errors import TableError
from chargen.paths import tables_dir
from chargen.tables import Tables, load_tables, loader, overlay
from chargen.tables.overlay import ruleset_from_text
from chargen.web.app import create_app, shared
from chargen.web.saved import Saved

#: The Tables' fields holding one table file's checked model each (after `directory`, in the FILES' order).
MODEL_FIELDS = [item.name for item in fields(Tables)[1 : 1 + len(loader.FILES)]]


def one_formula(number: int) -> str:
    """A distinct ruleset changing one formula (about 110 bytes, as a GM's upload)."""
    return (
        "change:\n  combat:\n    strike_chance:\n"
        f'      unranked: "base + md - md_shortfall_penalty * md_short + {number}"\n'
    )


def models(tables: Tables) -> dict[str, object]:
    return {name: getattr(tables, name) for name in MODEL_FIELDS}


def test_a_ruleset_shares_every_table_it_does_not_name_with_the_books() -> None:
    book = load_tables()
    house = load_tables(rules=[ruleset_from_text(one_formula(1), "one", "one.yaml")])
    changed = [name for name, model in models(house).items() if model is not models(book)[name]]
    assert changed == ["combat"]
    assert house.combat.strike_chance != book.combat.strike_chance
    assert house.raw("weapons") is book.raw("weapons") and house.raw("combat") != book.raw("combat")


def test_a_ruleset_adding_a_weapon_has_its_own_weapons_and_the_books_stay_as_they_were() -> None:
    book = load_tables()
    text = (
        "add:\n  weapons:\n    weapons:\n      cutlass: {name: Cutlass, group: sword, weight: 3, ps: 13,"
        ' md: 12, base_chance: 50, damage_modifier: 3, range: null, class: B, use: M, cost: 45, max_rank: 7, hands: "1"}\n'
    )
    pirates = load_tables(rules=[ruleset_from_text(text, "pirates", "pirates.yaml")])
    changed = [name for name, model in models(pirates).items() if model is not models(book)[name]]
    assert changed == ["weapon_file"]
    assert "cutlass" in pirates.weapons and "cutlass" not in book.weapons
    assert "cutlass" not in book.raw("weapons")["weapons"]


def test_a_folder_a_ruleset_mends_still_loads_with_it(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    shutil.copytree(tables_dir(), folder)
    combat = folder / "combat.yaml"
    combat.write_text(combat.read_text(encoding="utf-8") + "stray: 1\n", encoding="utf-8")
    mend = ruleset_from_text("remove: [combat.stray]\n", "mend", "mend.yaml")
    with pytest.raises(TableError, match="stray"):
        load_tables(folder)
    assert load_tables(folder, [mend]).rulesets == (mend,)


def test_thirty_distinct_rulesets_hold_the_books_tables_once_and_a_combat_each() -> None:
    book = load_tables()
    held = [load_tables(rules=[ruleset_from_text(one_formula(n), f"h{n}", f"h{n}.yaml")]) for n in range(30)]
    distinct = {id(model) for tables in (book, *held) for model in models(tables).values()}
    assert len(distinct) == len(MODEL_FIELDS) + 30


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The source of every ruleset parsed from here on."""
    seen: list[str] = []
    real = overlay.load_located

    def counted(text: str, source: str, **options: Any) -> Any:
        seen.append(source)
        return real(text, source, **options)

    monkeypatch.setattr(overlay, "load_located", counted)
    return seen


def test_a_ruleset_loaded_before_is_found_by_its_digest_unparsed(parses: list[str]) -> None:
    text = one_formula(1000)
    first = load_tables(rules=[ruleset_from_text(text, "heavy", "heavy.yaml")])
    assert parses == ["heavy.yaml"]
    again = load_tables(rules=[ruleset_from_text(text, "heavy", "heavy.yaml")])
    assert again is first and parses == ["heavy.yaml"]
    assert api.roll(seed=3, tables=again).rules == [{"name": "heavy", "sha256": first.rulesets[0].digest}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


def test_the_page_parses_an_uploaded_ruleset_once(client: Any, parses: list[str]) -> None:
    data = {"ruleset": (io.BytesIO(one_formula(2000).encode()), "heavy.yaml")}
    assert client.post("/rules", data=data, content_type="multipart/form-data").status_code == 303
    assert parses == ["heavy.yaml"]
    for path in ("/gm", "/new", "/gm", "/new/record.html", "/rules"):
        assert client.get(path).status_code == 200, path
    assert parses == ["heavy.yaml"]


def test_loaded_tables_hold_no_parse_of_their_ruleset() -> None:
    """A ruleset's parse (with its line marks, many times its text) is let go once its tables are loaded:
    they are found again by its digest."""
    import gc

    from chargen.yamlio import Located

    tables = load_tables(rules=[ruleset_from_text(one_formula(3000), "parsed", "parsed-once.yaml")])
    gc.collect()
    held = [
        item for item in gc.get_objects() if isinstance(item, Located) and item.source == "parsed-once.yaml"
    ]
    assert not held
    assert tables.raw("combat")["strike_chance"]["unranked"].endswith("+ 3000")  # made again when asked
