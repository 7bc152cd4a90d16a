"""chargen export: characters for a virtual tabletop, one JSON each (chargen.export)."""

from __future__ import annotations

from pathlib import Path

import click

from chargen.cli.options import not_empty, tables_from
from chargen.cli.shared import Command, say_rolled


@click.command("export", cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--to",
    "fmt",
    type=click.Choice(["roll20", "foundry"]),
    required=True,
    help="roll20: the DragonQuest sheet's character, for the VTT Enhancement Suite's import; foundry: a "
    "Simple Worldbuilding actor, for the actor's Import Data.",
)
@click.option(
    "-o",
    "--output",
    callback=not_empty,
    help="Where to write: a .json file for one FILE (default: standard output); a folder for several, "
    "each as FOLDER/NAME.json after its file's name.",
)
@click.option("--force", is_flag=True, help="Replace output files that exist (without it, they are refused).")
@click.pass_context
def export_command(
    context: click.Context, files: tuple[str, ...], fmt: str, output: str | None, force: bool
) -> None:
    """Export each character FILE (- for standard input) for Roll20 or Foundry VTT: one JSON each."""
    from chargen import api
    from chargen.errors import InputError
    from chargen.export import export_json
    from chargen.output import check_targets, write_all

    tables = tables_from(context)
    if len(files) > 1 and (output is None or not Path(output).is_dir()):
        raise InputError("export: several files go into a folder; give -o FOLDER (an existing folder)")
    targets: list[tuple[str, str]] = []
    said: list[tuple[api.Built, str]] = []
    for file in files:
        text, source = api.read_source(file)
        made = api.built(text, source, tables=tables)
        said.append((made, source))
        character = made.character
        if len(files) == 1:
            target = output or "-"
        else:
            assert output is not None
            target = str(Path(output) / f"{Path(file).stem if file != '-' else 'stdin'}.json")
        targets.append((target, export_json(character, tables, fmt)))
    check_targets([("--output", target, "vtt") for target, _ in targets], force=force)
    write_all([(target, text.encode("utf-8")) for target, text in targets], force=force)
    for made, source in said:
        say_rolled(made, source)
