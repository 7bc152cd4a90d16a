"""Templates that exhaust or reach outside (issue 14 item 6): one line each, for the PDF and the HTML."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.render import html, render_html, render_pdf
from chargen.render.errors import RenderError
from chargen.tables import Tables

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rolf() -> dict[str, Any]:
    return api.build(ROLF, "rolf.yaml")


TEMPLATES = {
    "huge-range": ("{% for i in range(10**9) %}x{% endfor %}", "Range too big"),
    "recursive-macro": ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "calls itself too deeply"),
    "growing-page": (
        "{% for i in range(100000) %}{% for j in range(100000) %}xxxxxxxxxx{% endfor %}{% endfor %}",
        "the page grew past",
    ),
    "division": ("<p>{{ 1 / 0 }}</p>", "ZeroDivisionError"),
    "nul-in-url": ('<img src="file:///etc/passwd%00x">', "may not"),
    "http-image": ('<img src="http://example.com/x.png">', "may not"),
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("render", [render_html, render_pdf])
def test_a_hostile_template_is_one_line(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, name: str, render: Any
) -> None:
    source, needle = TEMPLATES[name]
    template = tmp_path / f"{name}.j2"
    template.write_text(source, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(RenderError) as failure:
        render(rolf, tables, template=template)
    assert time.monotonic() - started < 5
    assert needle in str(failure.value)
    assert "\n" not in str(failure.value)


def test_a_template_that_runs_too_long_is_stopped(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html, "MAX_SECONDS", 0.2)
    template = tmp_path / "busy.j2"
    template.write_text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    with pytest.raises(RenderError, match=r"ran past 0\.2 seconds"):
        render_html(rolf, tables, template=template)


@pytest.mark.parametrize(
    "reference",
    [
        '<a href="https://example.com/">home</a>',
        '<link rel="stylesheet" href="file:///etc/passwd">',
        '<p style="background: url(http://example.com/x)">x</p>',
        "<style>@import 'http://example.com/x.css';</style>",
        '<img srcset="data:image/png;base64,AAAA 1x, http://example.com/x.png 2x">',
        '<meta http-equiv="refresh" content="0; url=http://example.com/">',
    ],
)
def test_the_html_of_a_custom_template_refers_to_nothing_outside(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, reference: str
) -> None:
    template = tmp_path / "gm.j2"
    template.write_text(f"<html><body>{reference}<h1>{{{{ sheet.name }}}}</h1></body></html>")
    with pytest.raises(RenderError, match="may not (refer to|reload)"):
        render_html(rolf, tables, template=template)


def test_a_custom_template_with_only_data_and_fragments_is_written(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables
) -> None:
    template = tmp_path / "gm.j2"
    template.write_text(
        '<a href="#top">top</a><img src="data:image/png;base64,AAAA"><h1>{{ sheet.name }}</h1>'
    )
    assert "<h1>Rolf the Barbarian</h1>" in render_html(rolf, tables, template=template)


def test_our_own_record_passes_the_reference_check(rolf: dict[str, Any], tables: Tables) -> None:
    from chargen.render.fetcher import check_standalone

    check_standalone(render_html(rolf, tables), "record.html.j2")
