"""What each memo of chargen.tables.memo saves a character: the reason each one is kept.

    python tests/bench/bench_memos.py            # 400 rolls and 400 batch NPCs
    python tests/bench/bench_memos.py --count 1000

For each memoised function of the generation (and `api`'s resolved choices), the calls it gets over the
rolls (`api.roll`) and over the batch's NPCs (`api.roll_checked`, kits given) are recorded, then made again
through the memo and through the function itself (`__wrapped__`, every other memo still in place), each the
fastest of seven rounds: a busy machine slows a round, never speeds one. The difference, spread over the
characters, is what that memo saves each; beside the time of a whole roll and NPC. A memo that saves less
than about a thousandth of a roll is not worth its place.
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from chargen import api
from chargen.tables import Tables, load_tables

MODULES = (
    "chargen.api",
    "chargen.generation.abilities",
    "chargen.generation.characteristics",
    "chargen.generation.derived",
    "chargen.generation.equipment",
    "chargen.generation.pipeline",
    "chargen.generation.variety",
)
Calls = list[tuple[Any, ...]]


def memoised(modules: list[ModuleType]) -> list[tuple[str, Callable[..., Any]]]:
    """Every memoised function the modules define, by its dotted name."""
    found = []
    for module in modules:
        for name, value in vars(module).items():
            if hasattr(value, "__wrapped__") and getattr(value, "__module__", "") == module.__name__:
                found.append((f"{module.__name__.rpartition('.')[2]}.{name}", value))
    return found


def make(kind: str, count: int, tables: Tables) -> None:
    archetypes = sorted(tables.archetypes)
    for seed in range(count):
        if kind == "roll":
            api.roll(seed=seed, tables=tables)
        else:
            archetype = archetypes[seed % len(archetypes)]
            api.roll_checked(seed=seed, gender=None, race=None, archetype=archetype, tables=tables)


def recorded(
    modules: list[ModuleType], functions: list[tuple[str, Callable[..., Any]]], work: Callable[[], None]
) -> dict[str, Calls]:
    """The arguments of every call of each function while `work` runs (wherever a module imported it)."""
    calls: dict[str, Calls] = {name: [] for name, _ in functions}
    swapped = []
    for name, function in functions:

        def record(*arguments: Any, name: str = name, function: Callable[..., Any] = function) -> Any:
            calls[name].append(arguments)
            return function(*arguments)

        for module in modules:
            for attribute, value in list(vars(module).items()):
                if value is function:
                    setattr(module, attribute, record)
                    swapped.append((module, attribute, function))
    try:
        work()
    finally:
        for module, attribute, function in swapped:
            setattr(module, attribute, function)
    return calls


def fastest(function: Callable[..., Any], calls: Calls, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        for arguments in calls:
            function(*arguments)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=400, help="rolls, and batch NPCs, recorded")
    count = parser.parse_args().count
    tables = load_tables()
    modules = [importlib.import_module(name) for name in MODULES]
    functions = memoised(modules)
    calls = {
        kind: recorded(modules, functions, lambda kind=kind: make(kind, count, tables))
        for kind in ("roll", "npc")
    }
    for kind in ("roll", "npc"):
        make(kind, count, tables)  # the memos filled
        started = time.perf_counter()
        make(kind, count, tables)
        print(f"a whole {kind}: {(time.perf_counter() - started) / count * 1e6:.1f} us")
    print(f"{'memo':34} {'calls a roll':>12} {'saves (us)':>10} {'calls an NPC':>12} {'saves (us)':>10}")
    for name, function in functions:
        row = f"{name:34}"
        for kind in ("roll", "npc"):
            made = calls[kind][name]
            saved = (
                (fastest(function.__wrapped__, made) - fastest(function, made)) / count * 1e6 if made else 0.0
            )
            row += f" {len(made) / count:12.1f} {saved:10.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
