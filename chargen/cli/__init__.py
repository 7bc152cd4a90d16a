"""The command line: parses options, calls chargen's library, formats what it returns.

Heavy modules (pydantic, the tables, WeasyPrint) are imported inside the commands, so `chargen --help`
starts fast. Every ChargenError is caught once, here: one line on stderr, exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from chargen import __version__
from chargen.cli.character import build_command, render_command, roll_command, validate_command
from chargen.cli.info import schema_command, tables_command
from chargen.cli.new import new_command
from chargen.cli.shared import one_line, with_global_options
from chargen.errors import ChargenError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="chargen")
@click.option(
    "--tables",
    "tables_dir",
    type=click.Path(file_okay=False, exists=True),
    envvar="CHARGEN_TABLES",
    help="Use the rules tables in this folder (a GM's house rules) instead of the book's.",
)
@click.pass_context
def cli(context: click.Context, tables_dir: str | None) -> None:
    """chargen: characters and Character Records for DragonQuest (2nd edition, SPI 1982)."""
    context.obj = {"tables_dir": tables_dir}


for command in (
    new_command,
    roll_command,
    build_command,
    validate_command,
    render_command,
    tables_command,
    schema_command,
):
    cli.add_command(with_global_options(command))

try:  # the batch command (issue 4) lives in its own module
    from chargen.cli.batch import batch_command  # type: ignore[import-not-found,unused-ignore]

    cli.add_command(with_global_options(batch_command))
except ImportError:  # pragma: no cover - only while the batch module is absent
    pass


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `chargen` script and of `python -m chargen`."""
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None, prog_name="chargen", standalone_mode=False
        )
    except ChargenError as error:
        message = " ".join(str(error).split())
        click.echo(f"chargen: error: {message}", err=True)
        sys.exit(2)
    except click.ClickException as error:
        if isinstance(error, click.exceptions.NoArgsIsHelpError):
            error.show()  # `chargen` alone: the help, as asked
        else:
            click.echo(one_line(error), err=True)
        sys.exit(2 if error.exit_code == 1 else error.exit_code)
    except click.exceptions.Abort:
        click.echo("chargen: aborted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
