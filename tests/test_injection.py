"""Names and table entries cannot inject into the other formats: a Markdown stat block
shows a name such as `<img src=...>` or `[l](javascript:...)` as text, and a CSV cell never begins a
formula a spreadsheet would run. Both leave ordinary names as they were."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tinyhtml5
import yaml

from chargen.batch.writers import neutral
from chargen.paths import tables_dir

pytestmark = pytest.mark.slow  # chargen in a process for each case

HOSTILE = [
    "<img src=http://127.0.0.1:9/x>",
    "[l](javascript:alert(1))",
    "![i](http://127.0.0.1:9/i.png)",
    "**Bold** `code` ~~gone~~ a|b",
    "Bob #",
]
HTML = "{http://www.w3.org/1999/xhtml}"


def chargen(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def rendered(markdown: str) -> object:
    from markdown_it import MarkdownIt

    page = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)
    return tinyhtml5.parse(page)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_in_a_markdown_stat_block_is_text(tmp_path: Path, name: str) -> None:
    result = chargen(["roll", "--seed", "1", "--name", name, "--statblock", "x.md"], tmp_path)
    assert result.returncode == 0, result.stderr
    document = rendered((tmp_path / "x.md").read_text(encoding="utf-8"))
    heading = document.find(f".//{HTML}h3")  # type: ignore[attr-defined]
    assert heading is not None and "".join(heading.itertext()) == name and list(heading) == []
    for tag in ("img", "a", "code", "del", "script"):
        assert document.find(f".//{HTML}{tag}") is None, tag  # type: ignore[attr-defined]


def hostile_tables(tmp_path: Path) -> Path:
    """The book's tables with a GM's weapon and names that would be markup or formulas."""
    folder = tmp_path / "tables"
    shutil.copytree(tables_dir(), folder)
    names = yaml.safe_load((folder / "names.yaml").read_text(encoding="utf-8"))
    for parts in names["names"].values():
        parts["male"] = ['=HYPERLINK("http://127.0.0.1:9/","x")']
        parts["female"] = ["@SUM(A1:A2)"]
        parts["family"] = ["<img src=x>"]
        parts["epithets"] = []
    (folder / "names.yaml").write_text(yaml.safe_dump(names, allow_unicode=True), encoding="utf-8")
    return folder


def test_a_gm_names_table_cannot_put_a_formula_in_a_csv_or_markup_in_markdown(tmp_path: Path) -> None:
    folder = hostile_tables(tmp_path)
    command = ["--tables", str(folder), "batch", "-n", "6", "--seed", "3", "--csv", "x.csv"]
    result = chargen([*command, "--statblock", "x.md", "-q"], tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "x.csv").read_text(encoding="utf-8"))))
    assert {row["name"][0] for row in rows} == {"'"}
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row.values())
    document = rendered((tmp_path / "x.md").read_text(encoding="utf-8"))
    assert document.find(f".//{HTML}img") is None  # type: ignore[attr-defined]
    headings = ["".join(h.itertext()) for h in document.iter(f"{HTML}h3")]  # type: ignore[attr-defined]
    assert headings and all("<img src=x>" in heading for heading in headings)


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-3", "-3"),
        ("-2.5", "-2.5"),
        ("Rolf the Barbarian", "Rolf the Barbarian"),
        ("D10-2", "D10-2"),
        ("", ""),
    ],
)
def test_csv_cells_are_neutralised_as_owasp_advises(cell: str, written: str) -> None:
    assert neutral(cell) == written


def test_ordinary_rows_and_blocks_are_unchanged(tmp_path: Path) -> None:
    """A book batch: no cell starts with ', no backslash in the Markdown."""
    result = chargen(
        ["batch", "-n", "40", "--seed", "7", "--csv", "x.csv", "--statblock", "x.md", "-q"], tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "\n'" not in (tmp_path / "x.csv").read_text(encoding="utf-8")
    assert "\\" not in (tmp_path / "x.md").read_text(encoding="utf-8")


def test_a_ruleset_weapon_name_in_a_markdown_stat_block_is_text(tmp_path: Path) -> None:
    name = "<img src=x> [l](javascript:alert(1))"
    (tmp_path / "evil.yaml").write_text(
        f'change:\n  weapons:\n    weapons:\n      dagger:\n        name: "{name}"\n', encoding="utf-8"
    )
    command = ["--rules", "evil.yaml", "batch", "-n", "30", "--seed", "2", "--statblock", "x.md", "-q"]
    assert chargen(command, tmp_path).returncode == 0
    document = rendered((tmp_path / "x.md").read_text(encoding="utf-8"))
    cells = ["".join(cell.itertext()) for cell in document.iter(f"{HTML}td")]  # type: ignore[attr-defined]
    assert name in cells
    assert document.find(f".//{HTML}img") is None and document.find(f".//{HTML}a") is None  # type: ignore[attr-defined]
