"""What every command shares: the global options, also accepted after the subcommand; shell completion of
table names (races, archetypes, weapons, tables); and click's usage errors told in one line."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

if TYPE_CHECKING:
    from chargen.api import Built


class RefusesRepeats(click.Command):
    """A command (or group) that refuses an option taking one value given twice: click keeps the last
    one silently, so `--pdf a.pdf --pdf b.pdf` would make only b.pdf. Flags and options that take a
    list (`--rules`) may be repeated."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:  # shell completion reads a line being typed: nothing is refused
            _refuse_repeats(self, ctx, args)
        return super().parse_args(ctx, args)


def _refuse_repeats(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """A BadOptionUsage for the first option taking one value that `args` give twice."""
    _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
            continue
        if param.name in seen:
            name = max(param.opts, key=len)
            raise click.BadOptionUsage(name, f"{name} was given twice; give it once", ctx)
        seen.add(str(param.name))


class Command(RefusesRepeats, click.Command):
    """Every command of chargen (RefusesRepeats)."""


class Group(RefusesRepeats, click.Group):
    """Every group of chargen's commands (RefusesRepeats), its commands made as Command."""

    command_class = Command


def _set_tables(context: click.Context, _: click.Parameter, value: str | None) -> None:
    """`chargen roll --tables DIR` means what `chargen --tables DIR roll` means."""
    if value is not None:
        root = context.find_root()
        root.obj = {**(root.obj or {}), "tables_dir": value}


def tables_option() -> click.Option:
    return click.Option(
        ["--tables"],
        type=click.Path(file_okay=False, exists=True),
        expose_value=False,
        is_eager=True,
        callback=_set_tables,
        help="Use the rules tables in this folder (also accepted before the command).",
    )


RULES_HELP = (
    "Layer this ruleset (a shipped name, see `chargen rules list`, or a file) over the tables; repeatable."
)


def checked_rules(_: click.Context, __: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """Each --rules names a shipped ruleset or a readable ruleset file, whatever the command (checked now)."""
    from chargen.tables.overlay import find_ruleset

    for spec in value:
        if not spec.strip():
            raise click.BadParameter("an empty ruleset name; give a shipped name or a file")
        find_ruleset(spec)
    return value


def _add_rules(context: click.Context, parameter: click.Parameter, value: tuple[str, ...]) -> None:
    """`chargen roll --rules X` adds X after any rulesets given before the command."""
    if checked_rules(context, parameter, value):
        root = context.find_root()
        obj = root.obj or {}
        root.obj = {**obj, "rules": (*obj.get("rules", ()), *value)}


def rules_option() -> click.Option:
    return click.Option(
        ["--rules"], multiple=True, expose_value=False, is_eager=True, callback=_add_rules, help=RULES_HELP
    )


def with_global_options(command: click.Command) -> click.Command:
    """The command, taking the global options after its name too."""
    if not any(param.name == "tables" for param in command.params):
        command.params.append(tables_option())
    if not any(param.name == "rules" for param in command.params):
        command.params.append(rules_option())
    return command


def _table_entries(context: click.Context, table: str) -> dict[str, Any]:
    from chargen.errors import ChargenError
    from chargen.tables import load_tables

    root = context.find_root()
    folder = (root.obj or {}).get("tables_dir") or root.params.get("tables_dir")
    try:
        tables = load_tables(
            folder or os.environ.get("CHARGEN_TABLES") or None, (root.obj or {}).get("rules", ())
        )
    except ChargenError:
        return {}
    entries: dict[str, Any] = getattr(tables, table)
    return entries


def completer(table: str) -> Callable[[click.Context, click.Parameter, str], list[CompletionItem]]:
    """Completes the ids of one table (`races`, `archetypes`, `weapons`, ...), after any comma already typed
    (`--race-attempts elf,dw<TAB>`); the display name is the help shown beside each."""

    def complete(context: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
        done, comma, last = incomplete.rpartition(",")
        prefix = done + comma
        return [
            CompletionItem(prefix + entry_id, help=getattr(entry, "name", None))
            for entry_id, entry in _table_entries(context, table).items()
            if entry_id.startswith(last.strip().lower())
        ]

    return complete


def complete_table_names(_: click.Context, __: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from chargen.tables.loader import FILES

    return [CompletionItem(name) for name in FILES if name.startswith(incomplete)]


class SeedType(click.ParamType):  # type: ignore[type-arg]
    """A seed: a whole number a character file can hold (0 to 10^15, chargen.yamlio.MAX_NUMBER), so what
    `roll --seed` writes, `validate` reads. A wrong one is quoted short (a 5,000-digit seed is not echoed)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from chargen.api_door import SEED_RANGE, seed_from_text
        from chargen.errors import shown

        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a default given as a number is checked as typed text is
        number = seed_from_text(str(value))
        if number is None:
            self.fail(f"must be {SEED_RANGE}, not {shown(str(value))}", param, ctx)
        return number


SEED = SeedType()


class CountType(click.ParamType):  # type: ignore[type-arg]
    """A count of at least `minimum` (1 unless said), in ASCII digits as a seed is
    (chargen.api_door.whole_number): `-n ٣` and `-n 1_0` are no count a person types, though Python's
    int() reads them."""

    name = "integer"

    def __init__(self, minimum: int = 1) -> None:
        self.minimum = minimum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from chargen.api_door import whole_number
        from chargen.errors import shown

        number = whole_number(str(value))
        if number is None or number < self.minimum:
            message = f"must be a whole number of at least {self.minimum}, not {shown(str(value))}"
            self.fail(message, param, ctx)
        return number


COUNT = CountType()
#: A Rank, a characteristic's value or an Experience cost: 0 or more.
WHOLE = CountType(minimum=0)


def one_line(error: click.ClickException) -> str:
    """A click usage error as `chargen: error: roll: no such option: --colour (see chargen roll --help)`."""
    message = " ".join(error.format_message().split()).rstrip(".")
    context = getattr(error, "ctx", None)
    if isinstance(error, click.UsageError) and context is not None:
        path = context.command_path
        command = path.partition(" ")[2]
        return f"chargen: error: {command + ': ' if command else ''}{message} (see {path} --help)"
    return f"chargen: error: {message}"


def say_rolled(made: Built, source: str) -> None:
    """The dice chargen rolled from a file's text, on standard error (standard output may be the file)."""
    note = made.note(source)
    if note is not None:
        click.echo(note, err=True)
