"""chargen serve: the walk, an opened file and the GM's table on a web page served from this computer."""

from __future__ import annotations

import click

from chargen.cli.shared import Command


@click.command("serve", cls=Command)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Only 127.0.0.1 keeps the page to this computer; 0.0.0.0 opens it to your network.",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free one)."
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@click.pass_context
def serve_command(context: click.Context, host: str, port: int, no_browser: bool) -> None:
    """Serve the page: a new character step by step, your files, the GM's table. Ctrl-C stops it."""
    from chargen import stopping
    from chargen.web.jobs import RulesChoice
    from chargen.web.server import serve

    obj = context.find_root().obj or {}
    # named as a kept walk records them: restarted from another folder, the server finds a walk's rules
    rules = RulesChoice(directory=obj.get("tables_dir"), named=tuple(obj.get("rules", ()))).anchored()
    try:
        serve(rules, host, port, browser=not no_browser, echo=lambda line: click.echo(line, err=True))
    except stopping.Stopped:  # a second signal while serve was stopping: its processes end with it anyway
        click.echo("chargen serve: stopped", err=True)
