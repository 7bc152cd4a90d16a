"""chargen batch: parses the options, calls chargen.batch.run_batch, shows progress and the summary."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from chargen.cli.options import not_empty, tables_from
from chargen.cli.shared import COUNT, SEED, Command, completer
from chargen.output_kinds import KINDS

if TYPE_CHECKING:
    from chargen.batch import BatchOptions
    from chargen.tables import Tables


@contextmanager
def _progress_bar(count: int, show: bool) -> Iterator[Callable[[int], None] | None]:
    """A bar on stderr only when stderr is a terminal: a pipe or a log file gets no control characters."""
    if not show:
        yield None
        return
    with click.progressbar(length=count, label="NPCs", file=sys.stderr, show_pos=True, show_eta=True) as bar:
        yield bar.update


def _npc_count(options: BatchOptions, tables: Tables) -> int:
    """How many NPCs the run makes: its count, times a group's size."""
    if options.group is None:
        return options.count
    from chargen.batch.groups import parse_group

    return options.count * parse_group(options.group, tables).size


@click.command("batch", cls=Command)
@click.option(
    "--count",
    "-n",
    type=COUNT,
    help="How many NPCs; with --group, how many such groups (default 1).",
)
@click.option(
    "--seed",
    type=SEED,
    help="Seed of the run: NPC i of seed S is always the same character. Default: a fresh one.",
)
@click.option(
    "--archetype",
    metavar="NAME|NAME=W,...",
    shell_complete=completer("archetypes"),
    help="One archetype, or a weighted mix such as fighter=3,adept=1. Default: all alike, but the "
    "leaders of groups (--group).",
)
@click.option(
    "--group",
    metavar="GROUP|NAME=N,...",
    callback=not_empty,
    shell_complete=completer("groups"),
    help="An encounter group of tables/groups.yaml (patrol, caravan, ...), or members with one leader such "
    "as bandit=5,bandit-chief=1. The leader comes first in each group.",
)
@click.option(
    "--race",
    metavar="RACE|RACE=W,...",
    shell_complete=completer("races"),
    help="One race, or a weighted mix such as human=5,elf=1. Default: rolled (6.3).",
)
@click.option(
    "--gender",
    type=click.Choice(["male", "female"], case_sensitive=False),
    help="Gender of every NPC (default: rolled).",
)
@click.option("--jsonl", callback=not_empty, metavar="FILE", help=KINDS["jsonl"].help)
@click.option("--csv", "csv_path", callback=not_empty, metavar="FILE", help=KINDS["csv"].help)
@click.option("--out", metavar="DIR", callback=not_empty, help=KINDS["out"].help)
@click.option("--pdf", metavar="FILE", callback=not_empty, help=KINDS["records"].help)
@click.option(
    "--fillable",
    is_flag=True,
    help="--pdf's records with form fields for what changes in play, named per NPC (npc07_notes_3).",
)
@click.option(
    "--export",
    "export",
    type=(click.Choice(["roll20", "foundry"]), str),
    default=None,
    metavar=KINDS["export"].metavar,
    help=KINDS["export"].help,
)
@click.option("--roster", callback=not_empty, metavar="FILE", help=KINDS["roster"].help)
@click.option("--statblock", callback=not_empty, metavar="FILE", help=KINDS["statblock"].help)
@click.option(
    "--paper",
    type=click.Choice(["letter", "a4"], case_sensitive=False),
    default="letter",
    show_default=True,
    help="Paper size of --pdf and --roster.",
)
@click.option(
    "--template",
    type=click.Path(dir_okay=False, exists=True),
    help="Your own Jinja2 template for the Character Records of --pdf.",
)
@click.option(
    "--jobs",
    "-j",
    type=COUNT,
    help="Processes making NPCs (default: every core). The output is the same for any number.",
)
@click.option("--force", is_flag=True, help="Overwrite existing outputs.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
def batch_command(
    context: click.Context,
    count: int | None,
    seed: int | None,
    archetype: str | None,
    group: str | None,
    race: str | None,
    gender: str | None,
    jsonl: str | None,
    csv_path: str | None,
    out: str | None,
    pdf: str | None,
    fillable: bool,
    export: tuple[str, str] | None,
    roster: str | None,
    statblock: str | None,
    paper: str,
    template: str | None,
    jobs: int | None,
    force: bool,
    quiet: bool,
) -> None:
    """Make COUNT NPCs, each a whole character, for a GM: data (JSONL, CSV, files) and sheets (PDF).

    \b
    Examples:
      chargen batch -n 12 --seed 7 --archetype bandit --csv bandits.csv --roster bandits.pdf
      chargen batch -n 200 --archetype peasant=6,militia=2,priest=1 --out village/
      chargen batch -n 10000 --seed 1 --jsonl - | jq .name
      chargen batch --group patrol -n 2 --seed 3 --statblock patrols.md
    """
    from chargen.batch import BatchOptions, run_batch

    if count is None and group is None:
        raise click.UsageError("Missing option '--count' / '-n' (or give --group).")
    if not (jsonl or csv_path or out or pdf or roster or statblock or export):
        jsonl = "-"  # no output named: the NPCs go to standard output, one JSON line each
    options = BatchOptions(
        count=count if count is not None else 1,
        seed=seed,
        archetype=archetype,
        group=group,
        race=race,
        gender=gender,
        jsonl=jsonl,
        csv=csv_path,
        out=out,
        pdf=pdf,
        roster=roster,
        statblock=statblock,
        force=force,
        jobs=jobs,
        paper=paper,
        template=template,
        fillable=fillable,
        export=export[0] if export else None,
        export_dir=export[1] if export else None,
    )
    tables = tables_from(context)
    show_bar = not quiet and sys.stderr.isatty()
    with _progress_bar(_npc_count(options, tables) if show_bar else 0, show_bar) as progress:
        summary = run_batch(options, tables=tables, progress=progress)
    if not quiet:
        where = ", ".join(summary.written)
        click.echo(
            f"chargen: {summary.count} NPCs (seed {summary.seed}) in {summary.seconds:.1f}s "
            f"with {summary.jobs} job{'s' if summary.jobs != 1 else ''}: {where}",
            err=True,
        )
