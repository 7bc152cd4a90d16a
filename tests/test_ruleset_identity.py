"""A ruleset is known by its content, not its file name: two `house` files are two rulesets, the shipped
`house-combat` beside a local `house-combat.yaml` too, and whatever chargen writes under any --rules it
reads back, on the command line and on the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen.cli import main
from chargen.web.app import create_app, shared
from chargen.web.jobs import RulesChoice
from chargen.web.saved import Saved

UNRANKED = (
    'change:\n  combat:\n    strike_chance:\n      unranked: "base + md - md_shortfall_penalty * md_short"\n'
)
INITIATIVE = 'change:\n  combat:\n    initiative:\n      formula: "modified_agility + perception + rank_multiplier * rank + 1"\n'


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


@pytest.fixture
def two_houses(tmp_path: Path) -> list[str]:
    """Two rulesets both named `house`, with different changes."""
    paths = []
    for folder, text in (("a", UNRANKED), ("b", INITIATIVE)):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "house.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _rolled(two_houses: list[str], hero: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """`chargen --rules a/house.yaml --rules b/house.yaml roll -o hero`; its --rules options."""
    rules = [word for path in two_houses for word in ("--rules", path)]
    assert run([*rules, "roll", "--seed", "5", "-o", str(hero)], capsys)[0] == 0
    return rules


def test_two_rulesets_of_one_name_read_back_what_they_wrote(
    two_houses: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hero = tmp_path / "hero.yaml"
    rules = _rolled(two_houses, hero, capsys)
    assert len(re.findall(r"name: house, sha256: \w+", hero.read_text())) == 2
    assert run([*rules, "validate", str(hero)], capsys)[:2] == (0, f"{hero}: valid\n")
    assert run([*rules, "render", str(hero), "--html", "-"], capsys)[0] == 0
    # either one alone is not what the file was made with
    code, _, err = run(["--rules", two_houses[1], "validate", str(hero)], capsys)
    assert code == 2 and "rules[0]: the ruleset 'house'" in err and "has changed since" in err


def test_a_changed_second_house_is_named_at_its_own_place(
    two_houses: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hero = tmp_path / "hero.yaml"
    rules = _rolled(two_houses, hero, capsys)
    Path(two_houses[1]).write_text(INITIATIVE + "# changed\n", encoding="utf-8")
    code, _, err = run([*rules, "validate", str(hero)], capsys)
    assert code == 2 and "rules[1]: the ruleset 'house'" in err and two_houses[1] in err


def test_the_shipped_house_combat_beside_a_local_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("house-combat.yaml").write_text(UNRANKED, encoding="utf-8")
    rules = ["--rules", "house-combat", "--rules", "./house-combat.yaml"]
    assert run([*rules, "roll", "--seed", "5", "-o", "hero.yaml"], capsys)[0] == 0
    assert run([*rules, "validate", "hero.yaml"], capsys)[:2] == (0, "hero.yaml: valid\n")


def _walk_to_the_end(client: Any) -> None:
    while found := re.search(r'name="step" value="([^"]+)"', client.get("/new").get_data(as_text=True)):
        assert client.post("/new", data={"step": found.group(1), "action": "empty"}).status_code == 303


@pytest.fixture
def houses_client(two_houses: list[str], tmp_path: Path) -> Iterator[Any]:
    app = create_app(RulesChoice(named=tuple(two_houses)), saved=Saved(tmp_path / "walks"))
    yield app.test_client()
    shared(app).close()


def test_the_pages_downloads_under_two_houses(houses_client: Any) -> None:
    _walk_to_the_end(houses_client)
    answer = houses_client.get("/new/character.yaml")
    assert answer.status_code == 200, answer.get_data(as_text=True)[-300:]
    assert len(re.findall(r"name: house, sha256: \w+", answer.get_data(as_text=True))) == 2
    record = houses_client.get("/new/character.letter.pdf")  # built again from its file, in a worker
    assert record.status_code == 200 and record.get_data().startswith(b"%PDF"), record.status_code
