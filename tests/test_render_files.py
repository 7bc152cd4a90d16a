"""Writing the record to disk, the fetcher's rules, and keeping WeasyPrint out of the CLI's imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.errors import ChargenError
from chargen.output import write_all
from chargen.paths import templates_dir
from chargen.render import RenderError, render_html, render_pdf
from chargen.render.build import Renderable
from chargen.render.fetcher import fetch
from chargen.tables import Tables
from tests.render_fixtures import REPO, human


def write_record(
    character: Renderable, tables: Tables, *, html: Path | None, pdf: Path | None, paper: str = "letter"
) -> None:
    """What `chargen render` does: both made before either is written (chargen.cli.options)."""
    outputs: list[tuple[str, bytes]] = []
    if html is not None:
        outputs.append((str(html), render_html(character, tables, paper=paper).encode("utf-8")))
    if pdf is not None:
        outputs.append((str(pdf), render_pdf(character, tables, paper=paper)))
    write_all(outputs)


def test_write_record_writes_both_files(tables: Tables, tmp_path: Path) -> None:
    html, pdf = tmp_path / "rolf.html", tmp_path / "rolf.pdf"
    write_record(human(), tables, html=html, pdf=pdf, paper="a4")
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rolf.html", "rolf.pdf"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert pdf.stat().st_mode & 0o777 == 0o666 & ~umask


def test_failed_render_leaves_old_files_alone_and_no_leftovers(tables: Tables, tmp_path: Path) -> None:
    html, pdf = tmp_path / "rolf.html", tmp_path / "rolf.pdf"
    html.write_text("old")
    broken = human()
    del broken["combat"]["defense"]
    with pytest.raises(RenderError) as caught:
        write_record(broken, tables, html=html, pdf=pdf)
    assert str(caught.value) == "character file has no combat.defense"
    assert html.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rolf.html"]


def test_unwritable_target_is_a_chargen_error(tables: Tables, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "rolf.html"
    with pytest.raises(ChargenError) as caught:
        write_record(human(), tables, html=target, pdf=None)
    assert str(caught.value) == f"{target}: cannot write (No such file or directory)"


# --- the fetcher ------------------------------------------------------------------------------------


def test_fetcher_serves_package_files_and_data_uris() -> None:
    root = templates_dir()
    font = fetch((root / "fonts" / "EBGaramond12-Regular.woff").as_uri(), root)
    assert font.mime_type == "font/woff"
    assert font.data[:4] == b"wOFF"
    assert fetch("data:text/css;base64,cCB7fQ==", root).data == b"p {}"
    assert fetch("data:,hello%20world", root).data == b"hello world"


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/x.png",
        "https://example.com/x.css",
        "ftp://example.com/x",
        "file:///etc/hostname",
        "file://example.com/etc/hostname",
        "TEMPLATES/../../etc/hostname",
        "TEMPLATES/no-such-file.css",
        "TEMPLATES/fonts",
    ],
)
def test_fetcher_refuses_everything_else(url: str) -> None:
    root = templates_dir()
    with pytest.raises(RenderError) as caught:
        fetch(url.replace("TEMPLATES", root.as_uri()), root)
    assert str(caught.value).startswith("the record may not load ")


def test_fetcher_refuses_a_symlink_out_of_the_root(tmp_path: Path) -> None:
    root = tmp_path / "templates"
    root.mkdir()
    (root / "inside.css").write_text("p {}")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    os.symlink(secret, root / "link.css")
    assert fetch((root / "inside.css").as_uri(), root).data == b"p {}"
    with pytest.raises(RenderError) as caught:
        fetch((root / "link.css").as_uri(), root)
    assert str(caught.value).startswith("the record may not load ")


# --- import cost ------------------------------------------------------------------------------------


def _modules_after(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", code + "; import sys; print(' '.join(sorted(sys.modules)))"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(result.stdout.split())


@pytest.mark.slow  # chargen in a process for each case
def test_html_rendering_never_imports_weasyprint() -> None:
    modules = _modules_after(
        "from chargen.render import render_html; from chargen.tables import load_tables;"
        "from tests.render_fixtures import human; render_html(human(), load_tables())"
    )
    assert "chargen.render.html" in modules
    assert not any(name == "weasyprint" or name.startswith("weasyprint.") for name in modules)
    assert "click" not in modules


def test_cli_imports_neither_weasyprint_nor_the_renderer_until_asked() -> None:
    modules = _modules_after("import chargen.cli")
    assert "chargen.cli" in modules
    assert "weasyprint" not in modules
    assert "chargen.render.pdf" not in modules
