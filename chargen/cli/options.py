"""Options shared by several commands, and writing what a command produced."""

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


def tables_from(context: click.Context) -> Any:
    from chargen.tables import load_tables

    return load_tables(context.obj.get("tables_dir") if context.obj else None)


@dataclass(frozen=True)
class Outputs:
    """Where a command's character file and Character Record go."""

    fmt: str = "yaml"
    output: str | None = None
    html: str | None = None
    pdf: str | None = None
    paper: str = "letter"
    template: str | None = None


def output_options(function: F) -> F:
    """--format, -o/--output and the Character Record options, handed to the command as `outputs`."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> Any:
        names = ("fmt", "output", "html", "pdf", "paper", "template")
        kwargs["outputs"] = Outputs(**{name: kwargs.pop(name) for name in names})
        return function(*args, **kwargs)

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
        command = decorator(command)
    return command  # type: ignore[return-value]


def emit(document: Character, tables: Tables, outputs: Outputs, *, print_default: bool = True) -> None:
    """Produce every requested output first, then write each one aside and rename it into place."""
    from chargen.character_file import dump_document
    from chargen.output import write_atomic

    text = dump_document(document, outputs.fmt)
    files: list[tuple[Path, str | bytes]] = []
    if outputs.html or outputs.pdf:
        from chargen.render import render_html, render_pdf

        template = Path(outputs.template) if outputs.template else None
        if outputs.html:
            files.append(
                (Path(outputs.html), render_html(document, tables, paper=outputs.paper, template=template))
            )
        if outputs.pdf:
            files.append(
                (Path(outputs.pdf), render_pdf(document, tables, paper=outputs.paper, template=template))
            )
    record = bool(outputs.html or outputs.pdf)
    to_stdout = outputs.output == "-" or (outputs.output is None and print_default and not record)
    if outputs.output and outputs.output != "-":
        files.insert(0, (Path(outputs.output), text))
    for path, content in files:
        write_atomic(path, content)
    if to_stdout:
        click.echo(text, nl=False)
