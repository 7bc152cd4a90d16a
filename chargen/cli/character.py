"""roll, build, validate and render."""

from __future__ import annotations

import click

from chargen.cli.options import Outputs, emit, output_options, tables_from
from chargen.cli.shared import SEED, Command, completer, say_rolled


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@click.command("roll", cls=Command)
@click.option("--seed", type=SEED, help="Seed for the dice; the same seed gives the same character.")
@click.option("--name", help="The character's name (default: one from tables/names.yaml).")
@click.option(
    "--gender",
    type=click.Choice(["male", "female"], case_sensitive=False),
    help="Gender (6.1; default: chosen at random).",
)
@click.option(
    "--race",
    shell_complete=completer("races"),
    help="Set the race outright, by id or name (human is always allowed; a GM may set any).",
)
@click.option(
    "--race-attempts",
    multiple=True,
    metavar="RACE[,RACE...]",
    shell_complete=completer("races"),
    help="Up to three races to roll for, in order (6.3). Default: three non-human races at random.",
)
@click.option(
    "--archetype",
    "archetype",
    shell_complete=completer("archetypes"),
    help="Archetype that allocates the points and buys the kit (see `chargen tables archetypes`).",
)
@click.option("--strategy", "archetype", hidden=True, help="Deprecated: the old name of --archetype.")
@click.option(
    "--optional",
    multiple=True,
    metavar="CODE",
    help="Roll an optional characteristic too (e.g. PB), or use an optional rule (18.5).",
)
@output_options
@click.pass_context
def roll_command(
    context: click.Context,
    seed: int | None,
    name: str | None,
    gender: str | None,
    race: str | None,
    race_attempts: tuple[str, ...],
    archetype: str | None,
    optional: tuple[str, ...],
    outputs: Outputs,
) -> None:
    """Roll a whole character, book order 5.1 to 8.8."""
    from chargen import api
    from chargen.errors import InputError

    attempts = _split(race_attempts) or None
    if race_attempts and not attempts:
        raise InputError("--race-attempts: give one to three races, e.g. elf,dwarf (6.3)")
    if optional and not _split(optional):
        raise InputError("--optional: give the code of an optional characteristic, e.g. PB (5.5)")
    if race and attempts:
        raise InputError("--race and --race-attempts: choose the race or roll for one, not both (6.3)")
    tables = tables_from(context)
    document = api.roll(
        seed=seed,
        name=name,
        gender=gender,
        race=race,
        race_attempts=attempts,
        archetype=archetype,
        optional=_split(optional),
        tables=tables,
    )
    emit(document, tables, outputs)


@click.command("build", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--seed",
    type=SEED,
    help="Seed for any dice the file does not give (default: its own seed, else one its text gives).",
)
@output_options
@click.pass_context
def build_command(
    context: click.Context,
    file: str,
    seed: int | None,
    outputs: Outputs,
) -> None:
    """Build a character from FILE (- for standard input): your rolls and choices, checked; the rest rolled."""
    from chargen import api

    text, source = api.read_source(file)
    tables = tables_from(context)
    made = api.built(text, source, seed=seed, tables=tables)
    emit(made.character, api.record_tables(made.character, tables), outputs)  # the file's own rulesets
    say_rolled(made, source)


@click.command("validate", cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.pass_context
def validate_command(context: click.Context, files: tuple[str, ...]) -> None:
    """Check each FILE against the rules; stale derived values count as problems. Each problem gets one
    line, every problem of a file at once; the exit status is 2 if any file fails."""
    from chargen import api
    from chargen.errors import ChargenError, InputError, one_line

    tables = tables_from(context)
    failed = 0
    for file in files:
        try:
            text, source = api.read_source(file)
            problems, notes = api.checked(text, source, tables=tables)
            if problems:
                raise InputError(problems)
        except ChargenError as error:
            failed += 1
            for line in error.lines:
                click.echo(f"chargen: error: {one_line(line)}", err=True)
            continue
        click.echo(f"{source}: valid")
        for note in notes:  # the GM's rulings: said, never a problem
            click.echo(one_line(note))
    if failed:
        context.exit(2)


@click.command("render", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_options
@click.pass_context
def render_command(
    context: click.Context,
    file: str,
    outputs: Outputs,
) -> None:
    """Print the Character Record of FILE as HTML and/or PDF, or its stat block."""
    from chargen import api
    from chargen.errors import InputError

    if not (outputs.html or outputs.pdf or outputs.statblock):
        raise InputError("render: give --html OUT.html, --pdf OUT.pdf and/or --statblock FILE")
    text, source = api.read_source(file)
    tables = tables_from(context)
    made = api.built(text, source, tables=tables)
    emit(made.character, api.record_tables(made.character, tables), outputs, print_default=False)
    say_rolled(made, source)
