"""Options shared by several commands, and writing what a command produced."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def tables_from(context: click.Context) -> Any:
    from chargen.tables import load_tables

    return load_tables(context.obj.get("tables_dir") if context.obj else None)


def output_options(function: F) -> F:
    """--format, -o/--output and the Character Record options."""
    decorators = [
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["yaml", "json"]),
            default="yaml",
            show_default=True,
            help="Format of the character file.",
        ),
        click.option(
            "-o",
            "--output",
            type=click.Path(dir_okay=False, allow_dash=True),
            help="Write the character file here (default: standard output).",
        ),
        click.option(
            "--html", type=click.Path(dir_okay=False), help="Also write the Character Record as HTML."
        ),
        click.option(
            "--pdf", type=click.Path(dir_okay=False), help="Also write the Character Record as PDF."
        ),
        click.option(
            "--paper",
            type=click.Choice(["letter", "a4"]),
            default="letter",
            show_default=True,
            help="Paper size of the Character Record.",
        ),
        click.option(
            "--template",
            type=click.Path(dir_okay=False, exists=True),
            help="Your own Jinja2 template for the Character Record.",
        ),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def emit(
    document: dict[str, Any],
    tables: Any,
    *,
    fmt: str,
    output: str | None,
    html: str | None,
    pdf: str | None,
    paper: str,
    template: str | None,
    print_default: bool = True,
) -> None:
    """Produce every requested output first, then write each one aside and rename it into place."""
    from chargen.character_file import dump_document
    from chargen.output import write_atomic

    text = dump_document(document, fmt)
    files: list[tuple[Path, str | bytes]] = []
    if html or pdf:
        from chargen.render import render_html, render_pdf

        template_path = Path(template) if template else None
        if html:
            files.append((Path(html), render_html(document, tables, paper=paper, template=template_path)))
        if pdf:
            files.append((Path(pdf), render_pdf(document, tables, paper=paper, template=template_path)))
    to_stdout = output == "-" or (output is None and print_default and not (html or pdf))
    if output and output != "-":
        files.insert(0, (Path(output), text))
    for path, content in files:
        write_atomic(path, content)
    if to_stdout:
        click.echo(text, nl=False)
