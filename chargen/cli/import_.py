"""import: a character of Roll20's DragonQuest sheet as a character file as it stands."""

from __future__ import annotations

import click

from chargen.cli.options import Outputs, emit, output_options, tables_from
from chargen.cli.shared import Command


@click.command("import", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_options
@click.pass_context
def import_command(context: click.Context, file: str, outputs: Outputs) -> None:
    """Make a character file of FILE.json, a character of Roll20's DragonQuest sheet as the VTT
    Enhancement Suite exports it (chargen's own `export --to roll20` too): the character as it stands,
    its creation unknown. Each value the sheet shows that the rules give otherwise is said (standard error)
    and kept in the file's notes."""
    from chargen import api

    text, source = api.read_source(file)
    tables = tables_from(context)
    made = api.import_roll20(text, source, tables=tables)
    emit(made.character, api.record_tables(made.character, tables), outputs)
    for difference in made.differences:
        click.echo(f"{source}: {difference.text}", err=True)
