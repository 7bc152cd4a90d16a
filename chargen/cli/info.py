"""tables and schema: what the rules say, and what a character file may hold."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from chargen.cli.options import tables_from
from chargen.cli.shared import Command, complete_table_names


@click.command("tables", cls=Command)
@click.argument("name", required=False, shell_complete=complete_table_names)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["yaml", "json"], case_sensitive=False),
    default="yaml",
    show_default=True,
)
@click.option(
    "--export",
    type=click.Path(file_okay=False),
    help="Copy the tables into this new folder, to edit as house rules.",
)
@click.pass_context
def tables_command(context: click.Context, name: str | None, fmt: str, export: str | None) -> None:
    """List the rules tables, or print table NAME (e.g. weapons, races)."""
    from chargen.errors import InputError
    from chargen.names import unknown_name as unknown
    from chargen.tables.loader import FILES

    tables = tables_from(context)
    if export is not None:
        _export(tables.directory, Path(export), list(FILES))
        click.echo(f"copied {len(FILES)} tables to {export}; use them with: chargen --tables {export} ...")
        return
    if name is None:
        for table in FILES:
            click.echo(f"{table:16} {tables.directory / (table + '.yaml')}")
        return
    if name not in FILES:
        raise unknown("tables", name, FILES, "a rules table")
    if fmt == "json":
        from chargen.jsontext import indented

        click.echo(indented(tables.raw(name)))
    elif tables.rulesets:  # the table as the rulesets left it (the file's comments are the book's)
        from chargen.yamlio import dump_yaml

        click.echo(dump_yaml(tables.raw(name)), nl=False)
    else:
        path = tables.directory / f"{name}.yaml"
        try:
            click.echo(path.read_text(encoding="utf-8"), nl=False)
        except OSError as error:
            raise InputError(f"{path}: cannot read ({error.strerror})") from None


def _export(source: Path, target: Path, names: list[str]) -> None:
    from chargen.errors import InputError

    if target.exists():
        raise InputError(f"--export: {target} already exists; choose a new folder")
    staging = target.with_name(f".{target.name}.part")
    try:
        staging.mkdir(parents=True)
        for name in names:
            shutil.copyfile(source / f"{name}.yaml", staging / f"{name}.yaml")
        staging.rename(target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise InputError(f"--export: cannot write {target} ({error.strerror})") from None


@click.command("schema", cls=Command)
def schema_command() -> None:
    """Print the JSON Schema of a character file (for editors)."""
    from chargen.character_file import json_schema
    from chargen.jsontext import indented

    click.echo(indented(json_schema()))
