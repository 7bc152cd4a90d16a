"""The command line: parses options, calls chargen's library, formats what it returns.

Heavy modules (pydantic, the tables, WeasyPrint) are imported inside the commands, so `chargen --help`
starts fast. Every ChargenError is caught once, here: one line on stderr, exit status 2.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from chargen import __version__, stopping
from chargen.checked_io import StandardOutputError, checked_stdout
from chargen.cli.advance import advance_command
from chargen.cli.character import build_command, render_command, roll_command, validate_command
from chargen.cli.explain import explain_command
from chargen.cli.export import export_command
from chargen.cli.import_ import import_command
from chargen.cli.info import schema_command, tables_command
from chargen.cli.new import new_command
from chargen.cli.rules import rules_group
from chargen.cli.serve import serve_command
from chargen.cli.shared import RULES_HELP, Group, checked_rules, one_line, with_global_options
from chargen.errors import ChargenError
from chargen.errors import one_line as one_line_text


class _ReaderGone(BaseException):
    """Standard output's reader went away; a BaseException so click does not turn it into exit 1."""


class _Chargen(Group):
    """The command group, passing two things to main() that click would otherwise handle its own way: a
    closed standard output (click: exit 1) and Ctrl-C (click: a blank line, then Abort)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            raise _ReaderGone from error
        except KeyboardInterrupt as error:
            raise stopping.Stopped(signal.SIGINT) from error


@click.group(cls=_Chargen, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="chargen")
@click.option(
    "--tables",
    "tables_dir",
    type=click.Path(file_okay=False, exists=True),
    envvar="CHARGEN_TABLES",
    help="Use the rules tables in this folder (a GM's house rules) instead of the book's.",
)
@click.option(
    "--rules", "rules", multiple=True, envvar="CHARGEN_RULES", callback=checked_rules, help=RULES_HELP
)
@click.pass_context
def cli(context: click.Context, tables_dir: str | None, rules: tuple[str, ...]) -> None:
    """chargen: characters and Character Records for DragonQuest (2nd edition, SPI 1982)."""
    context.obj = {"tables_dir": tables_dir, "rules": rules}


for command in (
    new_command,
    roll_command,
    build_command,
    validate_command,
    render_command,
    advance_command,
    export_command,
    import_command,
    explain_command,
    tables_command,
    schema_command,
    rules_group,
    serve_command,
):
    cli.add_command(with_global_options(command))

try:  # the batch command lives in its own module
    from chargen.cli.batch import batch_command  # type: ignore[import-not-found,unused-ignore]

    cli.add_command(with_global_options(batch_command))
except ImportError:  # pragma: no cover - only while the batch module is absent
    pass


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `chargen` script and of `python -m chargen`. Every failure is one line on stderr:
    exit 2 for what a user can fix, 128 + the signal's number when stopped, 141 (quietly) when whoever
    reads standard output stops reading (`chargen batch ... --jsonl - | head`)."""
    _closed_at_start(0)  # `<&-`: sys.stdin stays None, which reading it says (chargen.yamlio.read_stdin)
    if _closed_at_start(2):  # `2>&-`: what chargen says goes nowhere, as asked
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - as above
    if _closed_at_start(1) or sys.stdout is None:
        _fail("standard output is closed; send it somewhere, e.g. >/dev/null", 2)
    checked_stdout()
    previous = stopping.install()
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None, prog_name="chargen", standalone_mode=False
        )
        sys.stdout.flush()
    except ChargenError as error:
        *first, last = error.lines  # every problem at once, one line each
        for line in first:
            click.echo(f"chargen: error: {line}", err=True)
        _fail(last, 2)
    except click.ClickException as error:
        if isinstance(error, click.exceptions.NoArgsIsHelpError):
            error.show()  # `chargen` alone: the help, as asked
        else:
            click.echo(one_line_text(one_line(error)), err=True)
        sys.exit(2 if error.exit_code == 1 else error.exit_code)
    except stopping.Stopped as stop:
        _fail(f"stopped by {signal.Signals(stop.signum).name}", stop.exit_status)
    except click.exceptions.Abort:
        _fail("aborted", 128 + signal.SIGINT)
    except (BrokenPipeError, _ReaderGone):
        _reader_gone()
    except StandardOutputError as error:  # standard output full (`>/dev/full`)
        _quiet_stdout()
        _fail(f"cannot write standard output ({error.strerror or error})", 2)
    except OSError as error:  # what chargen's own messages did not name: told by its path, or as it is
        _fail(f"{error.filename}: {error.strerror}" if error.filename else str(error.strerror or error), 2)
    finally:
        stopping.restore(previous)
    sys.exit(code if isinstance(code, int) else 0)


def _closed_at_start(fd: int) -> bool:
    """Whether a standard stream's file descriptor (0, 1, 2) was closed when chargen started. A closed one
    gets /dev/null in its place at once, so that no file chargen opens takes its number and receives
    what was meant for the terminal (or is read as the answers to `chargen new`)."""
    try:
        os.fstat(fd)
    except OSError:
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_RDWR)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        return True
    return False


def _fail(message: str, status: int) -> NoReturn:
    click.echo(f"chargen: error: {one_line_text(message)}", err=True)
    sys.exit(status)


def _reader_gone() -> NoReturn:
    """Whoever read standard output stopped (`| head`): no message, exit 141 as if killed by SIGPIPE."""
    _quiet_stdout()
    sys.exit(128 + signal.SIGPIPE)


def _quiet_stdout() -> None:
    """Point standard output at /dev/null so the interpreter's last flush cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind it (tests): nothing to protect
        pass
