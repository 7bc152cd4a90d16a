"""A GM template's CSS is read as WeasyPrint and browsers read it (tinycss2): a URL spelt with escapes
(`u\\72l(…)`) or inside `image-set()` is refused on --html and on --pdf alike, in one line, nothing written
(on 969dd75 both passed `render --html`, and `image-set` passed `--pdf`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.render import render_html, render_pdf
from chargen.render.errors import RenderError
from chargen.render.fetcher import _css
from chargen.tables import Tables

EXAMPLES = Path(__file__).parent / "examples"
HOST = "http://127.0.0.1:9"
CSS = {
    "escaped url": f'<p style="background: u\\72l({HOST}/a)">x</p>',
    "escaped in a style element": f"<style>p {{ background: \\75 rl({HOST}/a) }}</style><p>x</p>",
    "image-set string": f"<p style='background-image: image-set(\"{HOST}/a\" 1x)'>x</p>",
    "webkit image-set": f"<style>p {{ background: -webkit-image-set('{HOST}/a' 1x) }}</style>",
    "import after a comment": f"<style>@IMPORT/* */'{HOST}/a';</style>",
    "escaped scheme": '<p style="background: url(h\\74tp://127.0.0.1:9/a)">x</p>',
}


def _template(tmp_path: Path, body: str) -> Path:
    template = tmp_path / "gm.html.j2"
    template.write_text(f"<!DOCTYPE html><html><body><h1>{{{{ sheet.name }}}}</h1>{body}</body></html>")
    return template


@pytest.fixture(scope="module")
def rolf() -> Any:
    return api.build((EXAMPLES / "rolf.yaml").read_text(encoding="utf-8"), "rolf.yaml")


@pytest.mark.parametrize("name", sorted(CSS))
@pytest.mark.parametrize("render", [render_html, render_pdf])
def test_a_css_url_however_spelt_is_refused_on_html_and_pdf(
    tmp_path: Path, rolf: Any, tables: Tables, name: str, render: Any
) -> None:
    with pytest.raises(RenderError, match=f"may not (refer to|load) {HOST}/a"):
        render(rolf, tables, template=_template(tmp_path, CSS[name]))


def test_css_that_only_mentions_an_address_is_not_a_url() -> None:
    assert _css(f"p::after {{ content: '{HOST}/a' }} p {{ color: red }}") == []
    assert _css("p { background: url(data:image/png;base64,AA==) }") == ["data:image/png;base64,AA=="]


@pytest.mark.parametrize("option", ["--html", "--pdf"])
def test_the_command_line_refuses_it_in_one_line_and_writes_nothing(tmp_path: Path, option: str) -> None:
    template = _template(tmp_path, CSS["escaped url"])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "chargen",
            "render",
            str(EXAMPLES / "rolf.yaml"),
            option,
            "out",
            "--template",
            str(template),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and f"{HOST}/a" in result.stderr, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["gm.html.j2"]
