"""The standalone HTML record: self-contained, escaped, strict, and the same every time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.render import render_html
from chargen.render.errors import RenderError
from chargen.tables import Tables
from tests.render_fixtures import REPO, crowded, named, rolled, typical


@pytest.fixture(scope="module")
def page(tables: Tables) -> str:
    return render_html(typical(), tables)


def test_page_shows_the_character(page: str) -> None:
    assert '<h1 class="name">Rolf the Barbarian</h1>' in page
    for value in ("42", "14", "11", "47", "78", "55", "Giant (Fire)", "Winter Stars", "Broadsword"):
        assert value in page


def test_page_is_self_contained(page: str) -> None:
    # No element loads anything from elsewhere: no src/href attributes, every CSS url() is a data: URI.
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "<link" not in page and "<script" not in page
    urls = re.findall(r"url\(\s*['\"]?([^'\")]{0,12})", page)
    assert urls
    assert all(url.startswith("data:") for url in urls)
    assert "font/woff;base64," in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_page_has_print_rules_and_page_size(tables: Tables, page: str) -> None:
    assert "@media print" in page
    assert "@page { size: letter; }" in page
    assert "@page { size: A4; }" in render_html(typical(), tables, paper="a4")


def test_bad_paper_is_a_render_error(tables: Tables) -> None:
    with pytest.raises(RenderError) as caught:
        render_html(typical(), tables, paper="legal")
    assert str(caught.value) == "paper must be letter or a4, not 'legal'"


@pytest.mark.parametrize(
    "name",
    ['<img src="http://example.com/x">', "</style><script>alert(1)</script>", "{{ 7*7 }} & \"quotes\" 'x'"],
)
def test_hostile_names_print_as_text(tables: Tables, name: str) -> None:
    page = render_html(named(name), tables)
    assert "<img" not in page
    assert "<script" not in page
    assert page.count("</style>") == page.count("<style>")
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = escaped.replace('"', "&#34;").replace("'", "&#39;")
    assert f'<h1 class="name">{escaped}</h1>' in page
    assert "49" not in page.split('<h1 class="name">')[1].split("</h1>")[0]


def test_same_character_same_bytes(tables: Tables, page: str) -> None:
    assert render_html(typical(), tables) == page
    code = (
        "import sys, yaml; "
        "from tests.render_fixtures import typical; from chargen.tables import load_tables;"
        "from chargen.render import render_html; sys.stdout.write(render_html(typical(), load_tables()))"
    )
    other = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert other.stdout == page


def test_crowded_character_renders_every_weapon(tables: Tables) -> None:
    page = render_html(crowded(), tables)
    for name in ("Dagger", "Two-Handed Sword", "Short Bow", "Quarterstaff"):
        assert name in page
    assert page.count('<td class="num big">') == 11  # ten weapons and unarmed


def test_user_template_gets_the_same_context(tables: Tables, tmp_path: Path) -> None:
    template = tmp_path / "mine.html"
    template.write_text("<html><body><p>{{ sheet.name }}</p><p>{{ paper.name }}</p></body></html>")
    page = render_html(named("<b>Rolf</b>"), tables, template=template)
    assert "<p>&lt;b&gt;Rolf&lt;/b&gt;</p>" in page
    assert "<p>letter</p>" in page


def test_user_template_may_extend_ours(tables: Tables, tmp_path: Path) -> None:
    template = tmp_path / "mine.html"
    template.write_text(
        '{% import "macros.html.j2" as m %}<html><body>{{ m.items(sheet.identity) }}</body></html>'
    )
    assert "Giant (Fire)" in render_html(typical(), tables, template=template)


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
def test_user_template_errors_are_render_errors(
    tables: Tables, tmp_path: Path, source: str, message: str
) -> None:
    template = tmp_path / "bad.html"
    template.write_text(source)
    with pytest.raises(RenderError) as caught:
        render_html(typical(), tables, template=template)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_template_file_is_a_render_error(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(RenderError) as caught:
        render_html(typical(), tables, template=tmp_path / "nope.html")
    assert str(caught.value).startswith(f"cannot read template {tmp_path / 'nope.html'}")


@pytest.mark.parametrize("seed", range(1, 41))
def test_rolled_characters_render_as_html(tables: Tables, seed: int) -> None:
    character = rolled(seed)
    page = render_html(character, tables)
    assert str(character["combat"]["defense"]) in page
    for weapon in character["combat"]["weapons"]:
        assert tables.weapons[weapon["name"]].name in page
