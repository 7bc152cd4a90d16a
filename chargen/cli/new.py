"""chargen new: the terminal front end of the guided walk (chargen.walkthrough). Asks, shows, writes.

Every word of a step, its help and its checks are the walk's (a web page drives the same walk); this
module only wraps them to the terminal, reads the answers and writes the files once the player has named
them, each asked again until it can be written, and never replacing a file without a yes."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import textwrap
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from chargen.cli.options import Outputs, emit, output_options, tables_from
from chargen.cli.shared import SEED, Command
from chargen.render.captions import NO_BREAK, damage_increase_note

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

HELP_LINE = (
    "Enter your own dice at each step, or press Enter to let chargen roll. `back` undoes a step; Ctrl-C leaves "
    "without writing anything.\nAt any prompt: `help` says what the step does and what it accepts; `quit` "
    "asks, then leaves with nothing written."
)


class _Quit(Exception):
    """The player chose to leave: nothing is written."""


@click.command("new", cls=Command)
@click.option("--seed", type=SEED, help="Seed for the dice you leave to chargen (a walk repeats).")
@output_options
@click.pass_context
def new_command(context: click.Context, seed: int | None, outputs: Outputs) -> None:
    """Make a character step by step, as the book does (5.1 to 8.8), with your own dice."""
    from chargen.api import new_seed
    from chargen.errors import InputError
    from chargen.walkthrough import new_walk

    if sys.stdin is None or not (sys.stdin.isatty() and sys.stdout.isatty()):  # None: closed (`<&-`)
        raise InputError(
            "new: asks its questions in a terminal; without one, use `chargen roll` or `chargen build FILE`"
        )
    _check_given(outputs)  # before the dice, not after ten minutes of them
    tables = tables_from(context)
    walk = new_walk(tables, seed if seed is not None else new_seed())
    _say(HELP_LINE)
    try:
        _walk_through(walk)
        document = walk.document()
        _say(_summary(document, tables))
        chosen = _ask_outputs(walk, document, outputs)
    except _Quit:
        click.echo("Left the walk; nothing was written.")
        return
    except (click.Abort, KeyboardInterrupt):  # Ctrl-C (or the end of input) at a prompt or between them
        click.echo("\nLeft the walk; nothing was written.")
        context.exit(128 + signal.SIGINT)
    emit(document, tables, chosen, print_default=False)
    written = [path for path in (chosen.output, chosen.pdf, chosen.html) if path]
    click.echo(f"wrote {' and '.join(written)}; `chargen build {chosen.output}` gives this character back")


def _width() -> int:
    """The terminal's width as the terminal says now (a COLUMNS variable left from elsewhere may be stale)."""
    try:
        columns = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        columns = shutil.get_terminal_size().columns
    return max(40, columns - 1)


def _say(text: str, indent: str = "") -> None:
    """Text wrapped to the terminal between words, never inside one (`Hal/fling`); each line's own leading
    spaces kept, its continuation lines indented two more."""
    for paragraph in text.split("\n"):
        words = paragraph.lstrip(" ")
        lead = indent + paragraph[: len(paragraph) - len(words)]
        click.echo(
            textwrap.fill(
                words,
                _width(),
                initial_indent=lead,
                subsequent_indent=lead + "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )


def _ask(question: str, walk: Any, help_text: str | None = None) -> str:
    """One answer, the walk's words `help` and `quit` understood at every prompt (`back` is the caller's)."""
    from chargen.walkthrough.walk import command_of

    while True:
        lines = textwrap.wrap(question, _width() - 2, break_long_words=False, break_on_hyphens=False)
        for line in lines[:-1]:
            click.echo(line)
        text = str(click.prompt(lines[-1] if lines else "", default="", show_default=False))
        command = command_of(text)
        if command == "help":
            _say(help_text if help_text is not None else walk.help(), "  ")
        elif command == "quit":
            if click.confirm("Leave the walk? Nothing will be written", default=False):
                raise _Quit
        else:
            return text


def _walk_through(walk: Any) -> None:
    from chargen.errors import ChargenError

    shown = None
    while (question := walk.current) is not None:
        explain = question.explain(walk)
        if explain != shown:
            click.echo("")
            _say(explain)
            shown = explain
        text = _ask(question.ask(walk), walk)
        if text.strip().lower() == "back":
            click.echo("  back one step" if walk.back() else "  nothing to undo yet")
            shown = None
            continue
        try:
            _say(f"-> {walk.answer(text)}", "  ")
        except ChargenError as error:
            _say(f"refused: {' '.join(str(error).split())}", "  ")


def _ask_outputs(walk: Any, document: Character, outputs: Outputs) -> Outputs:
    """The character file and the record's files: those not given as options, asked, each asked again until
    it can be written; an existing file replaced only after a yes."""
    from chargen.names import file_name
    from chargen.walkthrough.outputs import Target, would_replace

    offered = f"{file_name(document.name)}.{outputs.fmt}"
    force = outputs.force
    output = _kept(walk, outputs.output, Target(outputs.fmt, offered), force=force)
    given = frozenset({output})
    html = _kept(walk, outputs.html, Target("html"), given, force=force) if outputs.html else None
    pdf = _kept(walk, outputs.pdf, Target("pdf"), given, force=force) if outputs.pdf else None
    if outputs.pdf is None and outputs.html is None:
        pdf = _ask_path(walk, Target("pdf"), taken=given, force=force)
    # A file there now was either named with --force or replaced after the player's yes (chargen.output
    # replaces a file only under force: one policy for every command).
    agreed = force or any(would_replace(path) for path in (output, html, pdf) if path)
    fillable = outputs.fillable and bool(pdf)
    if outputs.fillable and not fillable:
        _say("No record PDF, so --fillable has no form fields to make.")
    return replace(
        outputs, output=output, html=html or None, pdf=pdf or None, force=agreed, fillable=fillable
    )


def _check_given(outputs: Outputs) -> None:
    """The files named by options, checked as the walk checks an answer, before the walk begins."""
    from chargen.errors import InputError
    from chargen.walkthrough.outputs import path_problem

    for option, path, kind in (
        ("--output", outputs.output, outputs.fmt),
        ("--html", outputs.html, "html"),
        ("--pdf", outputs.pdf, "pdf"),
    ):
        problem = path_problem(path, kind) if path and path != "-" else None
        if problem:
            raise InputError(f"{option}: {problem}")
    if outputs.fillable and outputs.html and not outputs.pdf:  # no PDF will be asked for: nothing to fill
        from chargen.render.form import without_pdf

        raise without_pdf()


def _kept(
    walk: Any, path: str | None, target: Any, taken: frozenset[str] = frozenset(), *, force: bool
) -> str:
    """A file named by an option, kept unless it would replace a file the player will not have replaced
    (then another name is asked); no name given: asked."""
    from chargen.walkthrough.outputs import would_replace

    if path is None:
        return _ask_path(walk, target, taken, force=force)
    if path == "-" or not would_replace(path) or _replace(path, force=force):
        return path
    return _ask_path(walk, target, taken, force=force)


def _replace(path: str, *, force: bool) -> bool:
    """Whether the player has a file there replaced: yes with --force, else asked (Enter is no)."""
    return force or bool(click.confirm(f"{path} exists; replace it?", default=False))


def _ask_path(walk: Any, target: Any, taken: frozenset[str] = frozenset(), *, force: bool) -> str:
    from chargen.walkthrough.outputs import path_problem, would_replace

    while True:
        told = f"Accepts: {target.accepts}.\n`quit` asks, then leaves with nothing written."
        path = _ask(target.question, walk, told).strip() or target.offered or ""
        if not path:
            return ""
        problem = "that name is already taken by the character file" if path in taken else None
        problem = problem or path_problem(path, target.kind)
        if problem:
            _say(f"refused: {problem}", "  ")
        elif not would_replace(path) or _replace(path, force=force):
            return path


def _summary(character: Character, tables: Tables) -> str:
    """The derived values, a few lines, before anything is written; the Experience is what is left once
    the skills, languages and magic are bought (8.6)."""
    combat = character.combat
    race = tables.races[character.race].name
    aspect = tables.aspects[character.aspect].name if character.aspect else "unknown"
    stats = "  ".join(f"{code} {value}" for code, value in character.characteristics.items())
    experience = (
        f"{character.experience_points} Experience Points"
        if character.experience_bank is None
        else f"{character.experience_bank} Experience Points left of {character.experience_points}"
    )
    lines = [
        "",
        f"{character.name}: {character.gender} {race}, {character.hand}-handed, {aspect}",
        f"  {stats}  TMR {character.tmr}",
        f"  Defense {combat.defense}, Initiative {combat.initiative}; "
        f"{experience}; {character.silver_pennies} Silver Pennies left",
    ]
    for weapon in combat.weapons:
        name = tables.weapons[weapon.name].name
        increase = damage_increase_note(weapon.increase, tables.combat.damage_increase.rule)
        note = f": {increase.replace(NO_BREAK, ' ')}" if increase else ""  # 18.5's figures, as on the record
        lines.append(f"  {name}: strike {weapon.strike_chance}%, damage {weapon.damage}{note}")
    bought = [
        *(skill.name for skill in character.skills),
        *(language.name for language in character.languages),
        *([tables.abilities.colleges[character.college].name] if character.college else []),
        *(spell.name for spell in character.spells),
    ]
    if bought:
        lines.append(f"  Also: {', '.join(_shown_name(name, tables) for name in bought)}")
    return "\n".join(lines)


def _shown_name(name: str, tables: Tables) -> str:
    for table in (tables.abilities.skills, tables.abilities.magic.entries):
        if name in table:
            return str(table[name].name)
    return name
