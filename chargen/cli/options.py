"""Options shared by several commands, and writing what a command produced (see chargen.output)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

F = TypeVar("F", bound=Callable[..., Any])


def not_empty(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """A file option given an empty name (`-o ''`, often an unset shell variable) is a mistake, never
    "no file": refused rather than silently ignored."""
    if value == "":
        raise click.BadParameter("an empty file name; give a path, or - for standard output")
    return value


def tables_from(context: click.Context) -> Any:
    from chargen.tables import load_tables

    obj = context.find_root().obj or {}
    return load_tables(obj.get("tables_dir"), obj.get("rules", ()))


@dataclass(frozen=True)
class Outputs:
    """Where a command's character file and Character Record go."""

    fmt: str = "yaml"
    output: str | None = None
    html: str | None = None
    pdf: str | None = None
    paper: str = "letter"
    template: str | None = None
    statblock: str | None = None
    fillable: bool = False
    explain: bool = False  # the record with every value's working (chargen.render.working_rows)
    force: bool = False  # an existing file may be replaced (the one policy of chargen.output)


#: The options of `output_options`, in the order `--help` lists them.
_OUTPUT_OPTIONS = (
    click.option(
        "--format",
        "fmt",
        type=click.Choice(["yaml", "json"], case_sensitive=False),
        default="yaml",
        show_default=True,
        help="Format of the character file.",
    ),
    click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, allow_dash=True),
        callback=not_empty,
        help="Write the character file here (default: standard output).",
    ),
    click.option(
        "--html",
        type=click.Path(dir_okay=False, allow_dash=True),
        callback=not_empty,
        help="Also write the Character Record as HTML (- for standard output).",
    ),
    click.option(
        "--pdf",
        type=click.Path(dir_okay=False, allow_dash=True),
        callback=not_empty,
        help="Also write the Character Record as PDF (- for standard output).",
    ),
    click.option(
        "--paper",
        type=click.Choice(["letter", "a4"], case_sensitive=False),
        default="letter",
        show_default=True,
        help="Paper size of the Character Record.",
    ),
    click.option(
        "--fillable",
        is_flag=True,
        help="Make the PDF's values that change in play (Endurance, Fatigue, wounds, Experience, money, "
        "equipment, skills, spells, notes) form fields to fill in on a screen.",
    ),
    click.option(
        "--explain",
        is_flag=True,
        help="Add to the Character Record how each value was worked out: in HTML each value opens its "
        "working; in PDF a last page.",
    ),
    click.option(
        "--template",
        type=click.Path(dir_okay=False, exists=True),
        help="Your own Jinja2 template for the Character Record.",
    ),
    click.option(
        "--statblock",
        type=click.Path(dir_okay=False, allow_dash=True),
        callback=not_empty,
        help="Also write a stat block, as for `chargen batch`: text, Markdown if it ends in .md (- for "
        "standard output).",
    ),
    click.option(
        "--force", is_flag=True, help="Replace output files that exist (without it, they are refused)."
    ),
)


def output_options(function: F) -> F:
    """--format, -o/--output and the Character Record options, handed to the command as `outputs`."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> Any:
        names = [*("fmt", "output", "html", "pdf", "paper", "template", "statblock", "fillable")]
        names += ["explain", "force"]
        kwargs["outputs"] = Outputs(**{name: kwargs.pop(name) for name in names})
        return function(*args, **kwargs)

    for decorator in reversed(_OUTPUT_OPTIONS):
        command = decorator(command)
    return command  # type: ignore[return-value]


def emit(document: Character, tables: Tables, outputs: Outputs, *, print_default: bool = True) -> None:
    """Check where everything goes, produce every requested output, then write them all or none."""
    from chargen.character_file import dump_document
    from chargen.output import check_targets, write_all
    from chargen.output_kinds import KINDS

    if outputs.fillable and not outputs.pdf:  # its fields are the PDF's: alone it would make nothing
        from chargen.render.form import without_pdf

        raise without_pdf()
    output = _character_file_path(outputs, print_default)
    asked = (
        (outputs.fmt, output),
        ("html", outputs.html),
        ("pdf", outputs.pdf),
        ("statblock", outputs.statblock),
    )
    targets = [(KINDS[kind].option, path, kind) for kind, path in asked if path]
    check_targets(targets, force=outputs.force)
    files: list[tuple[str, bytes]] = []
    if output:
        files.append((output, dump_document(document, outputs.fmt).encode("utf-8")))
    files += _record_files(document, tables, outputs)
    if outputs.statblock:
        from chargen.views.statblock import character_block

        block = character_block(document, tables, markdown=outputs.statblock.lower().endswith(".md"))
        files.append((outputs.statblock, block.encode("utf-8")))
    write_all(files, force=outputs.force)


def _character_file_path(outputs: Outputs, print_default: bool) -> str | None:
    """Where the character file goes: standard output unless a record or stat block was asked for."""
    asked_other = outputs.html or outputs.pdf or outputs.statblock
    if outputs.output is None and print_default and not asked_other:
        return "-"
    return outputs.output


def _record_files(document: Character, tables: Tables, outputs: Outputs) -> list[tuple[str, bytes]]:
    """The Character Record as HTML and PDF, each when asked for."""
    if not (outputs.html or outputs.pdf):
        return []
    from chargen.render import render_html, render_pdf

    template = Path(outputs.template) if outputs.template else None
    files: list[tuple[str, bytes]] = []
    if outputs.html:
        page = render_html(document, tables, paper=outputs.paper, template=template, explain=outputs.explain)
        files.append((outputs.html, page.encode("utf-8")))
    if outputs.pdf:
        pdf = render_pdf(
            document,
            tables,
            paper=outputs.paper,
            template=template,
            fillable=outputs.fillable,
            explain=outputs.explain,
        )
        files.append((outputs.pdf, pdf))
    return files
