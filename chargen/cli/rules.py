"""rules: list the shipped rulesets, show what one changes, start a new one."""

from __future__ import annotations

from pathlib import Path

import click

from chargen.cli.options import tables_from
from chargen.cli.shared import Group
from chargen.errors import KeyPath

STARTER = """\
# {name}: house rules layered over the book's tables. Use with: chargen --rules {path} roll ...
# Three parts, each keyed by table name (chargen tables lists them) and then by that table's own keys:
#   change: replace values that exist (a number, a formula, part of an entry)
#   add:    put in entries that do not exist yet (a weapon, a race, an archetype)
#   remove: a list of key paths to take out, such as weapons.weapons.club
# Formulas are expressions over named inputs (docs/house-rules.md); a formula may also name the numbers
# of its own section (rank_multiplier, ...).
change:
  combat:
    strike_chance:
      # Example: unranked weapons add Manual Dexterity (the book: Base Chance alone).
      unranked: "base + md - md_shortfall_penalty * md_short"
"""


@click.group("rules", cls=Group)
def rules_group() -> None:
    """House rules: rulesets layered over the book's tables (see --rules)."""


@rules_group.command("list")
def list_command() -> None:
    """The shipped rulesets, each with the first line of its description."""
    from chargen.tables.overlay import shipped_dir, shipped_names

    for name in shipped_names():
        first = (shipped_dir() / f"{name}.yaml").read_text(encoding="utf-8").partition("\n")[0]
        click.echo(f"{name:16} {first.lstrip('# ').partition(': ')[2] or first.lstrip('# ')}")


@rules_group.command("show")
@click.argument("name")
@click.option("--diff", is_flag=True, help="Only what the ruleset changes: key path, book value, new value.")
@click.pass_context
def show_command(context: click.Context, name: str, diff: bool) -> None:
    """The tables with ruleset NAME (a shipped name or a file) layered over them (every table it touches)."""
    from chargen.tables import load_tables
    from chargen.tables.overlay import find_ruleset
    from chargen.yamlio import dump_yaml

    base = tables_from(context)
    ruleset = find_ruleset(name)
    merged = load_tables(base.directory, (*base.rulesets, ruleset))
    touched = ruleset.tables_touched
    if not diff:
        click.echo(dump_yaml({table: merged.raw(table) for table in touched}), nl=False)
        return
    found = [item for table in touched for item in _differences(base.raw(table), merged.raw(table), (table,))]
    for path, old, new in found:
        click.echo(f"{'.'.join(map(str, path))}: {_short(old)} -> {_short(new)}")
    if not found:  # silence would read as a failure
        click.echo(f"{ruleset.source}: changes nothing in these tables (every value it sets is already so)")


def _differences(old: object, new: object, path: KeyPath) -> list[tuple[KeyPath, object, object]]:
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in [*old, *(key for key in new if key not in old)]:
            found.extend(_differences(old.get(key), new.get(key), (*path, key)))
        return found
    return [] if old == new else [(path, old, new)]


def _short(value: object) -> str:
    from chargen.errors import shown

    return "(none)" if value is None else shown(value)


@rules_group.command("inputs")
@click.pass_context
def inputs_command(context: click.Context) -> None:
    """The inputs each formula of combat.yaml may name (besides the numbers of its own section)."""
    from chargen.formulas import FUNCTIONS
    from chargen.tables.combat_schema import FORMULA_FIELDS, GRAPH_INPUTS, INPUTS, MEANINGS

    def fields(kind: str) -> str:
        return "combat." + FORMULA_FIELDS[kind].replace(", ", ", combat.")

    for kind, inputs in INPUTS.items():
        click.echo(f"{fields(kind)}:")
        for name in inputs:
            if MEANINGS[name]:
                click.echo(f"  {name:26} {MEANINGS[name]}")
    # The book's formulas may name the book's values of the graph too (a Defense that reads the Stun
    # threshold), but for those Roll20's sheet works out on their own inputs (GRAPH_INPUTS); a ruleset's own
    # values (add: combat: values: KEY: {label, formula, rule}) every value: a house rule's postures and
    # other added values too.
    book = {name for names in GRAPH_INPUTS.values() for name in names}
    alone = " and ".join(fields(kind) for kind, names in GRAPH_INPUTS.items() if not names)
    click.echo(f"the formulas above (but {alone}) may also name the book's values:")
    named = tables_from(context).combat.graph_names()
    for name, (_, label) in named.items():
        if name in book:
            click.echo(f"  {name:26} {label}")
    own = [(name, label) for name, (_, label) in named.items() if name not in book]
    whole = "combat.values.KEY.formula (a value of your own) may name all of those"
    click.echo(
        f"{whole}, these and the other values a ruleset adds:"
        if own
        else f"{whole} and the other values a ruleset adds"
    )
    for name, label in own:
        click.echo(f"  {name:26} {label}")
    click.echo(
        f"functions: {', '.join(FUNCTIONS)}; operators: + - * / // % ( ), comparisons, `a if test else b`"
    )


@rules_group.command("new")
@click.argument("name")
@click.option("--force", is_flag=True, help="Replace NAME.yaml if it exists (without it, it is refused).")
def new_command(name: str, force: bool) -> None:
    """Write NAME.yaml, a commented starting ruleset."""
    from chargen.output import check_targets, write_atomic

    path = Path(name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    check_targets([("rules new", str(path), "yaml")], force=force)
    write_atomic(path, STARTER.format(name=path.stem, path=path), force=force)
    click.echo(f"wrote {path}; use it with: chargen --rules {path} roll")
