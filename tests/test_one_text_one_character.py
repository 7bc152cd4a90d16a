"""A file means one character: the dice a file leaves out are rolled from a seed its own text gives, so
every read of the same text (validate, build, render, export, the page's check, its record and every
download) is the same character, and each door names the dice chargen rolled and how to keep them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from chargen import api
from chargen.character_file import dump_document
from chargen.character_reading import TEXT_SEEDS, parse_character, text_seed
from chargen.cli import cli as main
from chargen.export import export_json
from chargen.render import render_html
from chargen.tables import load_tables
from chargen.web.app import create_app, shared
from chargen.web.saved import Saved

#: The page's reproduction: a name alone, every die and choice left to chargen.
NAME_ONLY = "name: Test Person\n"
#: A hand-typed dwarf that gives no heritage rolls: its purse is rolled.
DWARF = """\
name: Thrain
gender: male
race: dwarf
allocation: {PS: 18, MD: 15, AG: 14, EN: 18, MA: 8, WP: 15}
rolls: {points: 9}
weapons: [{name: war-hammer, rank: 2}]
armor: leather
"""
READS = 20
#: The page's downloads read as text (the PDFs are the slow tier's, below).
TEXT_DOWNLOADS = ("yaml", "json", "html", "roll20.json", "foundry.json")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(saved=Saved(tmp_path))
    yield app.test_client()
    shared(app).close()


def _expected(text: str) -> dict[str, str]:
    """Each door's bytes of the character `text` gives, made once through the library."""
    tables = load_tables()
    character = api.build(text, "hero.yaml")
    return {
        "yaml": dump_document(character, "yaml"),
        "json": dump_document(character, "json"),
        "html": render_html(character, tables),
        "roll20.json": export_json(character, tables, "roll20"),
        "foundry.json": export_json(character, tables, "foundry"),
    }


@pytest.mark.parametrize("text", [NAME_ONLY, DWARF], ids=["name-only", "dwarf"])
def test_the_same_text_is_the_same_character_at_every_door_twenty_times(
    client: Any, tmp_path: Path, text: str
) -> None:
    expected = _expected(text)
    (tmp_path / "hero.yaml").write_text(text, encoding="utf-8")
    runner = CliRunner()
    for _ in range(READS):
        checked = api.checked(text, "hero.yaml")
        assert checked[0] == [] and len(checked[1]) == 1  # valid, with the note naming the dice
        assert dump_document(api.build(text, "hero.yaml"), "yaml") == expected["yaml"]
        built = runner.invoke(main, ["build", str(tmp_path / "hero.yaml")])
        assert (built.exit_code, built.stdout) == (0, expected["yaml"])
        assert client.post("/open", data={"text": text, "name": "hero.yaml"}).status_code == 303
        assert client.get("/open").status_code == 200
        for kind in TEXT_DOWNLOADS:
            answer = client.get(f"/open/character.{kind}")
            assert (answer.status_code, answer.get_data(as_text=True)) == (200, expected[kind]), kind


def test_the_page_builds_an_opened_file_once(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = api.built

    def counted(text: str, source: str = "<input>", **options: Any) -> api.Built:
        built.append(source)
        return real(text, source, **options)

    monkeypatch.setattr(api, "built", counted)
    client.post("/open", data={"text": DWARF, "name": "dwarf.yaml"})
    answers = [client.get("/open"), client.get("/open/record.html")]
    answers += [client.get(f"/open/character.{kind}") for kind in TEXT_DOWNLOADS]
    assert [answer.status_code for answer in answers] == [200] * (2 + len(TEXT_DOWNLOADS))
    assert built == ["dwarf.yaml"]


def test_the_seed_is_the_files_content_not_its_spelling() -> None:
    """Key order, spacing, quoting and comments change nothing; a value changes the dice."""
    same = [
        "name: Thrain\nrace: dwarf\n",
        "# my dwarf\nrace:   'dwarf'\n\"name\": Thrain  # him\n",
        '{"race": "dwarf", "name": "Thrain"}',
    ]
    seeds = {text_seed(parse_character(text, "x")) for text in same}
    assert len(seeds) == 1 and 0 <= next(iter(seeds)) < TEXT_SEEDS
    assert text_seed(parse_character("name: Thrain\nrace: elf\n", "x")) not in seeds
    assert api.build(same[0]).seed == api.build(same[1]).seed == api.build(same[2]).seed


def test_a_seed_named_by_the_file_or_the_caller_is_kept_and_no_note_is_said() -> None:
    assert api.build(NAME_ONLY + "seed: 5\n").seed == 5
    assert api.build(NAME_ONLY, seed=5).seed == 5
    assert api.built(NAME_ONLY + "seed: 5\n").note("x.yaml") is None
    assert api.built(NAME_ONLY, seed=5).note("x.yaml") is None
    whole = dump_document(api.build(NAME_ONLY), "yaml")
    assert api.built(whole, "whole.yaml").note("whole.yaml") is None  # the completed file keeps them


def test_every_door_of_the_command_line_names_the_dice_it_rolled(tmp_path: Path) -> None:
    (tmp_path / "dwarf.yaml").write_text(DWARF, encoding="utf-8")
    seed = api.build(DWARF).seed
    note = (
        f"note: {tmp_path / 'dwarf.yaml'} gives no seed: chargen rolled rolls.hand, rolls.aspect, "
        "rolls.social_status, rolls.birth_order, rolls.sibling_rank, rolls.experience, rolls.silver with "
        f"seed {seed}, which the file's own text gives (the same text, the same character); `chargen build "
        f"{tmp_path / 'dwarf.yaml'} -o FILE` writes them into FILE\n"
    )
    runner = CliRunner()
    file = str(tmp_path / "dwarf.yaml")
    for args in (
        ["build", file, "-o", str(tmp_path / "out.yaml")],
        ["render", file, "--html", str(tmp_path / "out.html")],
        ["export", file, "--to", "roll20", "-o", str(tmp_path / "out.json")],
    ):
        result = runner.invoke(main, args)
        assert (result.exit_code, result.stderr) == (0, note), args
    validated = runner.invoke(main, ["validate", file])
    assert (validated.exit_code, validated.stdout) == (0, f"{file}: valid\n{note}")
    kept = runner.invoke(main, ["validate", str(tmp_path / "out.yaml")])
    assert (kept.exit_code, kept.stdout) == (0, f"{tmp_path / 'out.yaml'}: valid\n")


def test_the_page_offers_the_completed_file_when_it_rolled_dice(client: Any) -> None:
    from html.parser import HTMLParser

    class Paragraph(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.inside, self.text = False, ""

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.inside = self.inside or ("id", "rolled") in attrs

        def handle_endtag(self, tag: str) -> None:
            self.inside = self.inside and tag != "p"

        def handle_data(self, data: str) -> None:
            self.text += data if self.inside else ""

    client.post("/open", data={"text": DWARF, "name": "dwarf.yaml"})
    shown = Paragraph()
    shown.feed(client.get("/open").get_data(as_text=True))
    assert " ".join(shown.text.split()) == (
        "The file leaves out some dice, so chargen rolled them: hand, aspect, social status, birth order, "
        "sibling rank, experience, silver. The same text always gives the same rolls. To keep them in the "
        "file, download the completed file and open that one from now on."
    )
    whole = client.get("/open/character.yaml").get_data(as_text=True)
    client.post("/open", data={"text": whole, "name": "thrain.yaml"})
    nothing = Paragraph()
    nothing.feed(client.get("/open").get_data(as_text=True))
    assert nothing.text == ""


@pytest.mark.slow
def test_the_pages_pdfs_are_the_same_character(client: Any) -> None:
    client.post("/open", data={"text": DWARF, "name": "dwarf.yaml"})
    first = client.get("/open/character.a4.pdf").get_data()
    assert client.get("/open/character.a4.pdf").get_data() == first
    client.post("/open", data={"text": DWARF, "name": "dwarf.yaml"})
    assert client.get("/open/character.a4.pdf").get_data() == first


def test_a_file_that_does_not_build_is_refused_alike_at_every_door(client: Any) -> None:
    client.post("/open", data={"text": "race: elfe\n", "name": "elfe.yaml"})
    answers = [client.get(address) for address in ("/open", "/open/record.html", "/open/character.yaml")]
    answers.append(client.get("/open/character.yaml"))
    assert [answer.status_code for answer in answers] == [422] * 4
    assert all("is not a race (6.3)" in answer.get_data(as_text=True) for answer in answers)
