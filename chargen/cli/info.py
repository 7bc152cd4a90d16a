"""tables and schema: what the rules say, and what a character file may hold."""

from __future__ import annotations

import json

import click

from chargen.cli.options import tables_from


@click.command("tables")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@click.pass_context
def tables_command(context: click.Context, name: str | None, fmt: str) -> None:
    """List the rules tables, or print table NAME (e.g. weapons, races)."""
    from chargen.errors import InputError
    from chargen.generation.birthrights import unknown
    from chargen.tables.loader import FILES

    tables = tables_from(context)
    if name is None:
        for table in FILES:
            click.echo(f"{table:16} {tables.directory / (table + '.yaml')}")
        return
    if name not in FILES:
        raise unknown("tables", name, FILES, "a rules table")
    if fmt == "json":
        click.echo(json.dumps(tables.raw(name), indent=2, ensure_ascii=False))
    else:
        path = tables.directory / f"{name}.yaml"
        try:
            click.echo(path.read_text(encoding="utf-8"), nl=False)
        except OSError as error:
            raise InputError(f"{path}: cannot read ({error.strerror})") from None


@click.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of a character file (for editors)."""
    from chargen.character_file import json_schema

    click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))
