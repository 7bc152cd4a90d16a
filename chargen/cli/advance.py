"""advance: one entry of what happened in play (12, 17, 87) recorded in a character file's ledger."""

from __future__ import annotations

import os

import click

from chargen.cli.options import not_empty, tables_from
from chargen.cli.shared import COUNT, WHOLE, Command
from chargen.errors import ChargenError


@click.command("advance", cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--award", type=COUNT, metavar="N", help="N Experience Points into the bank (12).")
@click.option(
    "--raise",
    "raised",
    metavar="NAME",
    help="Spend Experience to raise NAME: a characteristic (PS, MD, ...), a weapon or shield held, a "
    "skill, language or spell (17, 87).",
)
@click.option("--to", type=WHOLE, metavar="N", help="The Rank or value the raise goes to.")
@click.option(
    "--cost",
    type=WHOLE,
    metavar="EP",
    help="What the raise costs, as the GM says (default: the GM's chart in the tables, times the race "
    "multiplier).",
)
@click.option("--note", help="What happened, for the History (e.g. after Adventure 2).")
@click.option("--date", help="When, as you write dates (e.g. 2026-12-06).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=not_empty,
    help="Write the file here (- for standard output) and leave FILE as it is (default: FILE itself).",
)
@click.option("--force", is_flag=True, help="Replace the -o file if it exists.")
@click.pass_context
def advance_command(
    context: click.Context,
    file: str,
    award: int | None,
    raised: str | None,
    to: int | None,
    cost: int | None,
    note: str | None,
    date: str | None,
    output: str | None,
    force: bool,
) -> None:
    """Record in FILE's ledger (advancement:) an award of Experience or a raise bought with it, one a call;
    FILE is rewritten in place, its comments and layout kept. The file is built as it would then be: a
    raise the bank cannot pay, with no cost known or past a limit of the rules is refused and FILE is left
    as it was. FILE - reads standard input and writes standard output (or -o)."""
    from chargen import api
    from chargen.advancing import summary
    from chargen.output import shown_path, write_all

    in_place = output is None and file != "-"
    if in_place and os.path.exists(file) and not os.path.isfile(file):
        raise ChargenError(f"{shown_path(file)}: not a regular file; give -o OUT for the advanced file")
    text, source = api.read_source(file)
    target = _target(file, output, text, force=force)
    made = api.advance(
        text,
        source,
        award=award,
        raise_=raised,
        to=to,
        cost=cost,
        note=note,
        date=date,
        tables=tables_from(context),
    )
    if in_place and api.read_source(file)[0] != text:  # the player saved it meanwhile: theirs is kept
        raise ChargenError(
            f"{shown_path(file)}: changed while chargen was advancing it; nothing written, run again"
        )
    write_all([(target, made.text.encode("utf-8"))], force=force or output is None)
    if target != "-":
        click.echo(summary(made, target))


def _target(file: str, output: str | None, text: str, *, force: bool) -> str:
    """Where the advanced file goes: -o (checked as every command checks it, of the file's own format),
    else FILE itself (standard output for FILE -)."""
    from chargen.advancing_text import is_json
    from chargen.output import check_targets

    if output is None:
        return file
    check_targets([("--output", output, "json" if is_json(text) else "yaml")], force=force)
    return output
