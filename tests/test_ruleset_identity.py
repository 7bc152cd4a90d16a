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


def _answered(client: Any) -> None:
    found = re.search(r'name="step" value="([^"]+)"', client.get("/new").get_data(as_text=True))
    assert found is not None
    assert client.post("/new", data={"step": found.group(1), "action": "empty"}).status_code == 303


@pytest.mark.parametrize("tables", [False, True])
def test_a_kept_walk_finds_its_rules_when_the_server_starts_again_from_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: bool
) -> None:
    """Started in A with `--rules house.yaml` (and `--tables tables`), started again from B with
    `--rules ../A/house.yaml` (`--tables ../A/tables`): the same files, and the browser's walk goes on."""
    import shutil

    from chargen.paths import tables_dir
    from chargen.web.context import COOKIE

    (tmp_path / "A").mkdir()
    (tmp_path / "B").mkdir()
    (tmp_path / "A" / "house.yaml").write_text(UNRANKED, encoding="utf-8")
    if tables:
        shutil.copytree(tables_dir(), tmp_path / "A" / "tables", ignore=shutil.ignore_patterns("rulesets"))
    saved = Saved(tmp_path / "walks")
    monkeypatch.chdir(tmp_path / "A")
    first = create_app(RulesChoice("tables" if tables else None, ("house.yaml",)), saved=saved)
    client = first.test_client()
    _answered(client)
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    shared(first).close()
    monkeypatch.chdir(tmp_path / "B")
    again = create_app(RulesChoice("../A/tables" if tables else None, ("../A/house.yaml",)), saved=saved)
    try:
        browser = again.test_client()
        browser.set_cookie(COOKIE, cookie.value)
        for path in ("/new", "/gm"):
            answer = browser.get(path)
            assert answer.status_code == 200, (path, answer.get_data(as_text=True)[-400:])
        assert "House rules: " in browser.get("/new").get_data(as_text=True)
    finally:
        shared(again).close()


def test_a_walk_kept_records_its_ruleset_by_absolute_path_and_digest_and_reads_an_older_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from chargen.tables.overlay import find_ruleset
    from chargen.web.saved import Kept, KeptWalks

    monkeypatch.chdir(tmp_path)
    Path("house.yaml").write_text(UNRANKED, encoding="utf-8")
    saved = Saved(tmp_path / "walks")
    assert None is saved.save(
        "browser", KeptWalks(Kept(5, RulesChoice(".", ("house.yaml", "house-combat")), [""]))
    )
    (written,) = (tmp_path / "walks").glob("*.json")
    rules = json.loads(written.read_text(encoding="utf-8"))["walk"]["rules"]
    assert rules["directory"] == str(tmp_path)
    assert rules["named"] == [
        {"rules": str(tmp_path / "house.yaml"), "sha256": find_ruleset("house.yaml").digest},
        {"rules": "house-combat", "sha256": find_ruleset("house-combat").digest},
    ]
    kept = saved.load("browser")
    assert kept is not None and kept.walk.rules.named == (str(tmp_path / "house.yaml"), "house-combat")
    older = json.loads(written.read_text(encoding="utf-8"))
    older["walk"]["rules"]["named"] = ["house.yaml"]  # as a version before this one kept it: as typed
    written.write_text(json.dumps(older), encoding="utf-8")
    kept = saved.load("browser")
    assert kept is not None and kept.walk.rules.named == ("house.yaml",)


class _Browser:
    """One browser of a live `chargen serve`: its cookie kept across a restart of the server."""

    def __init__(self) -> None:
        import http.cookiejar
        import urllib.request

        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def send(self, url: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        import urllib.error
        import urllib.parse
        import urllib.request

        data = urllib.parse.urlencode(form).encode() if form is not None else None
        origin = "/".join(url.split("/")[:3])
        request = urllib.request.Request(url, data=data, headers={"Origin": origin})
        try:
            with self.opener.open(request, timeout=120) as answer:
                return answer.status, answer.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")


@pytest.mark.slow  # a live `chargen serve`, started twice
def test_chargen_serve_started_again_from_another_folder_goes_on_with_the_walk_under_its_rules(
    tmp_path: Path,
) -> None:
    from tests.serve_support import served

    for folder in ("A", "B", "data"):
        (tmp_path / folder).mkdir()
    (tmp_path / "A" / "house.yaml").write_text(UNRANKED, encoding="utf-8")
    browser = _Browser()
    with served("--rules", "house.yaml", cwd=tmp_path / "A", data=tmp_path / "data") as server:
        status, page = browser.send(server.url + "new")
        found = re.search(r'name="step" value="([^"]+)"', page)
        assert status == 200 and found is not None
        answer = browser.send(server.url + "new", {"step": found.group(1), "action": "empty"})
        assert answer[0] == 200
    rules = "../A/house.yaml"
    with served("--rules", rules, cwd=tmp_path / "B", data=tmp_path / "data") as server:
        for path in ("new", "gm"):
            status, page = browser.send(server.url + path)
            assert status == 200, (path, page[-400:])
        # the same rules as the server's own: choosing them again starts no new walk
        status, page = browser.send(server.url + "rules", {"keep": "yes"})
        assert status == 200 and "tick the box" not in page
        status, page = browser.send(server.url + "new")
        assert found.group(1) not in re.findall(r'name="step" value="([^"]+)"', page)
