"""Templates that exhaust or reach outside: one line each, for the PDF and the HTML."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.render import bounded, render_html, render_pdf
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
    # folded while compiling, huge numbers, doubling strings, repeated strings
    "power-folded": ("{{ 9**(9**9) }}", "too large a number"),
    "power": ("{{ 10**5000 }}", "too large a number"),
    "doubling-join": (
        "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"
        "{{ ns.s|length }}",
        "template stopped",
    ),
    "doubling-plus": (
        "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}{% endfor %}"
        "{{ ns.s|length }}",
        "too long",
    ),
    "repeat": ("{{ ('x'*3000000000)|length }}", "repeated 3000000000 times"),
    "list-repeat": ("{{ ([0]*3000000000)|length }}", "repeated 3000000000 times"),
    "format-width": ("{{ '%999999999s'|format(1) }}", "format width"),
    "format-operator": ("{{ '%*s' % (999999999, 1) }}", "format width"),
    "center": ("{{ 'x'|center(3000000000)|length }}", "template stopped"),
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("render", [render_html, render_pdf])
def test_a_hostile_template_is_one_line(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, name: str, render: Any
) -> None:
    source, needle = TEMPLATES[name]
    template = tmp_path / f"{name}.j2"
    template.write_text(source, encoding="utf-8")
    with pytest.raises(RenderError) as failure:
        render(rolf, tables, template=template)
    assert needle in str(failure.value)  # stopped, by its budget or the sandbox, and saying which
    assert "\n" not in str(failure.value)


def test_a_template_that_runs_too_long_is_stopped(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bounded, "MAX_SECONDS", 0.2)
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
    with pytest.raises(RenderError, match=r"may not (refer to|reload)"):
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


SCRIPT = """
import resource, sys
from chargen.cli import main
try:
    main(sys.argv[1:])
finally:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
"""


@pytest.mark.slow  # a template run to its memory bound
@pytest.mark.parametrize("name", ["doubling-join", "center", "power-folded"])
def test_a_bomb_ends_in_bounded_memory(tmp_path: Path, name: str) -> None:
    """Run from the command line: one line, exit 2, nothing written, and the render's process never held
    more than its memory budget (once it held 1.6 GB, 3 GB, for ever)."""
    import subprocess
    import sys

    (tmp_path / "rolf.yaml").write_text(ROLF, encoding="utf-8")
    (tmp_path / "t.j2").write_text(TEMPLATES[name][0], encoding="utf-8")
    command = ["render", "rolf.yaml", "--template", "t.j2", "--html", "o.html"]
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *command], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    message, peak = result.stderr.splitlines()
    assert result.returncode == 2 and message.startswith("chargen: error: t.j2: template "), result.stderr
    assert int(peak) * 1024 < bounded.MAX_MEMORY + 400 * 1024 * 1024
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rolf.yaml", "t.j2"]


@pytest.mark.parametrize("kind", ["device", "fifo", "large"])
def test_a_template_file_is_a_regular_file_of_bounded_size(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, kind: str
) -> None:
    import os

    template = tmp_path / "t.j2"
    if kind == "device":
        template = Path("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(template)  # nobody writes: reading it would wait for ever
    else:
        template.write_text("x" * (bounded.MAX_TEMPLATE_BYTES + 1))
    refused: list[BaseException] = []

    def render() -> None:
        try:
            render_html(rolf, tables, template=template)
        except BaseException as error:  # read below
            refused.append(error)

    reading = threading.Thread(target=render, daemon=True)
    reading.start()
    reading.join(timeout=60)  # only against a hang: refused before the file is read, it comes back at once
    if reading.is_alive() and kind == "fifo":
        with open(template, "w"):  # let the reader go
            pass
        reading.join()
        pytest.fail("the named pipe was opened and waited on")
    assert not reading.is_alive(), "the template was read"
    assert len(refused) == 1 and isinstance(refused[0], RenderError), refused
    assert re.search(r"not a regular file|larger than 1024 kB", str(refused[0]))
