"""explain: how each derived value of a character was worked out, from the rules' own formulas."""

from __future__ import annotations

import click

from chargen.cli.options import tables_from
from chargen.cli.shared import Command


@click.command("explain", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("values", nargs=-1)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one object per value, for scripts.",
)
@click.pass_context
def explain_command(context: click.Context, file: str, values: tuple[str, ...], fmt: str) -> None:
    """Show how each derived value of FILE was worked out (or only the VALUES named, e.g. defense,
    weapons.broadsword.strike_chance, unarmed): the formula as the tables state it, its inputs with their
    values and where each came from, the rule, and what the character holds when the value is read."""
    from chargen import api
    from chargen.jsontext import indented
    from chargen.rules.working import as_document

    tables = tables_from(context)
    text, source = api.read_source(file)
    found = api.explain(text, source, values, tables=tables)
    if fmt == "json":
        click.echo(indented([as_document(item) for item in found]))
        return
    for item in found:
        click.echo("\n".join(item.lines()))
