"""The standalone HTML record: self-contained, escaped, strict, and the same every time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.render.errors import RenderError
from chargen.tables import Tables
from tests.render_fixtures import REPO, crowded, giant, human, named, record_html, rolled
from tests.render_fixtures.fields import expected_fields, html_fields, parse_html


@pytest.fixture(scope="module")
def page() -> str:
    return record_html(human())


def identity(page: str) -> dict[str, str]:
    who = parse_html(page).find_all("section", "who")[0]
    return {
        item.find_all("dt")[0].text(): item.find_all("dd")[0].text() for item in who.find_all("div", "item")
    }


def weapon_names(page: str) -> list[str]:
    table = parse_html(page).find_all("section", "weapons")[0]
    return [row.find_all("td")[0].text() for row in table.find_all("tbody")[0].find_all("tr")]


def test_page_shows_the_character(page: str) -> None:
    assert '<h1 class="name">Rolf the Barbarian</h1>' in page
    assert identity(page) == {
        "Race": "Human",
        "Gender": "Male",
        "Primary hand": "Right",
        "Aspect": "Winter Stars",
        "Social status": "Craftsman or Adventurer",
        "Order of birth": "Legitimate child, third of the children",
    }
    assert weapon_names(page) == ["Broadsword", "Dagger", "Unarmed"]


def test_giant_page_names_its_type() -> None:
    assert identity(record_html(giant()))["Race"] == "Giant (Fire)"


def test_page_is_self_contained(page: str) -> None:
    # No element loads anything from elsewhere: no src/href attributes, every CSS url() is a data: URI.
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "<link" not in page and "<script" not in page
    urls = re.findall(r"url\(\s*['\"]?([^'\")]{0,12})", page)
    assert urls
    assert all(url.startswith("data:") for url in urls)
    assert "font/woff;base64," in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_page_has_print_rules_and_page_size(page: str) -> None:
    assert "@media print" in page
    assert "@page { size: letter; }" in page
    assert "@page { size: A4; }" in record_html(human(), paper="a4")


def test_bad_paper_is_a_render_error() -> None:
    with pytest.raises(RenderError) as caught:
        record_html(human(), paper="legal")
    assert str(caught.value) == "paper must be letter or a4, not 'legal'"


@pytest.mark.parametrize(
    "name",
    ['<img src="http://example.com/x">', "</style><script>alert(1)</script>", "{{ 7*7 }} & \"quotes\" 'x'"],
)
def test_hostile_names_print_as_text(name: str) -> None:
    page = record_html(named(name))
    assert "<img" not in page
    assert "<script" not in page
    assert page.count("</style>") == page.count("<style>")
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = escaped.replace('"', "&#34;").replace("'", "&#39;")
    assert f'<h1 class="name">{escaped}</h1>' in page
    assert "49" not in page.split('<h1 class="name">')[1].split("</h1>")[0]
    assert [node.text() for node in parse_html(page).find_all("h1", "name")] == [" ".join(name.split())]


@pytest.mark.slow  # chargen in a process
def test_same_character_same_bytes(page: str) -> None:
    assert record_html(human()) == page
    code = "import sys; from tests.render_fixtures import human, record_html; sys.stdout.write(record_html(human()))"
    other = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert other.stdout == page


def test_crowded_character_renders_every_weapon(tables: Tables) -> None:
    character = crowded()
    names = [tables.weapons[line["name"]].name for line in character["combat"]["weapons"]]
    assert weapon_names(record_html(character)) == [*names, "Unarmed"]
    assert len(names) == 10


def test_user_template_gets_the_same_context(tmp_path: Path) -> None:
    template = tmp_path / "mine.html"
    template.write_text("<html><body><p>{{ sheet.name }}</p><p>{{ paper.name }}</p></body></html>")
    page = record_html(named("<b>Rolf</b>"), template=template)
    assert "<p>&lt;b&gt;Rolf&lt;/b&gt;</p>" in page
    assert "<p>letter</p>" in page


def test_user_template_may_extend_ours(tmp_path: Path) -> None:
    template = tmp_path / "mine.html"
    template.write_text(
        '{% import "macros.html.j2" as m %}<html><body>{{ m.items(sheet.identity) }}</body></html>'
    )
    assert "Giant (Fire)" in record_html(giant(), template=template)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "{{ sheet.nonsense }}",
            "template error: 'chargen.render.sheet.Sheet object' has no attribute 'nonsense'",
        ),
        ("{{ undefined_name }}", "template error: 'undefined_name' is undefined"),
        ("{% for %}", "template syntax error"),
        ('{% include "../../../etc/passwd" %}', "not found"),
        ("{{ sheet.__class__.__mro__ }}", "template error"),
    ],
)
def test_user_template_errors_are_render_errors(tmp_path: Path, source: str, message: str) -> None:
    template = tmp_path / "bad.html"
    template.write_text(source)
    with pytest.raises(RenderError) as caught:
        record_html(human(), template=template)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_template_file_is_a_render_error(tmp_path: Path) -> None:
    with pytest.raises(RenderError) as caught:
        record_html(human(), template=tmp_path / "nope.html")
    assert str(caught.value).startswith(f"cannot read template {tmp_path / 'nope.html'}")


@pytest.mark.parametrize("seed", range(1, 41))
def test_rolled_characters_show_each_value_in_its_box(tables: Tables, seed: int) -> None:
    character = rolled(seed)
    wanted = expected_fields(character, tables)
    found = html_fields(record_html(character))
    assert {key: found.get(key) for key in wanted} == wanted
