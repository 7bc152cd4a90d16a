"""chargen new: the terminal front end of the guided walk (chargen.walkthrough). Asks, shows, writes."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from chargen.cli.options import Outputs, emit, output_options, tables_from
from chargen.cli.shared import SEED
from chargen.render.captions import NO_BREAK, damage_increase_note

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

HELP_LINE = "Enter your own dice at each step, or press Enter to let chargen roll. `back` undoes a step; Ctrl-C leaves without writing anything."


@click.command("new")
@click.option("--seed", type=SEED, help="Seed for the dice you leave to chargen (a walk repeats).")
@output_options
@click.pass_context
def new_command(context: click.Context, seed: int | None, outputs: Outputs) -> None:
    """Make a character step by step, as the book does (5.1 to 8.8), with your own dice."""
    from chargen.api import new_seed
    from chargen.errors import InputError
    from chargen.walkthrough import new_walk

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError(
            "new: asks its questions in a terminal; without one, use `chargen roll` or `chargen build FILE`"
        )
    tables = tables_from(context)
    walk = new_walk(tables, seed if seed is not None else new_seed())
    click.echo(HELP_LINE)
    _walk_through(walk)
    document = walk.document()
    click.echo(_summary(document, tables))
    output = outputs.output or click.prompt(
        "Character file to write", default=f"{_slug(document.name)}.{outputs.fmt}"
    )
    pdf = outputs.pdf
    if pdf is None and outputs.html is None:
        pdf = click.prompt(
            "PDF of the Character Record (a file name, or Enter for none)", default="", show_default=False
        )
    emit(document, tables, replace(outputs, output=output, pdf=pdf or None), print_default=False)
    done = f"wrote {output}{' and ' + pdf if pdf else ''}"
    click.echo(f"{done}; `chargen build {output}` gives this character back")


def _walk_through(walk: Any) -> None:
    from chargen.errors import ChargenError

    shown = None
    while (question := walk.current) is not None:
        explain = question.explain(walk)
        if explain != shown:
            click.echo(f"\n{explain}")
            shown = explain
        text = click.prompt(question.ask(walk), default="", show_default=False)
        if text.strip().lower() == "back":
            click.echo("  back one step" if walk.back() else "  nothing to undo yet")
            shown = None
            continue
        try:
            click.echo(f"  -> {walk.answer(text)}")
        except ChargenError as error:
            click.echo(f"  refused: {' '.join(str(error).split())}")


def _summary(character: Character, tables: Tables) -> str:
    """The derived values, a few lines, before anything is written."""
    combat = character.combat
    race = tables.races[character.race].name
    aspect = tables.aspects[character.aspect].name
    stats = "  ".join(f"{code} {value}" for code, value in character.characteristics.items())
    lines = [
        "",
        f"{character.name}: {character.gender} {race}, {character.hand}-handed, {aspect}",
        f"  {stats}  TMR {character.tmr}",
        f"  Defense {combat.defense}, Initiative {combat.initiative}; "
        f"{character.experience_points} Experience Points; {character.silver_pennies} Silver Pennies left",
    ]
    for weapon in combat.weapons:
        name = tables.weapons[weapon.name].name
        increase = damage_increase_note(weapon.increase, tables.combat.damage_increase.rule)
        note = f": {increase.replace(NO_BREAK, ' ')}" if increase else ""  # 18.5's figures, as on the record
        lines.append(f"  {name}: strike {weapon.strike_chance}%, damage {weapon.damage}{note}")
    return "\n".join(lines)


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split()) or "character"
