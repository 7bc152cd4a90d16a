"""Benchmark of the core: characters per second for roll+derive, and the start-up time of `chargen --help`.

Run: python tests/bench/bench_core.py [--count N] [--rounds R]
Each figure stands beside a floor measured in the same run: the same work done by the libraries alone (for
each seed a fresh random.Random making the very draws that seed's roll makes, PyYAML and json dumping the
same documents, Python importing click), so chargen's own overhead is visible. CPU time is reported beside wall time: the
development machine is shared, and CPU-time medians over alternating rounds are what to compare.
Not a test: pytest does not collect it, and it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import yaml


def per_second(count: int, seconds: float) -> str:
    return f"{count / seconds:10,.0f}/s"


def wall_time(command: list[str], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Clock:
    """CPU time and wall time of one block; on a shared machine the CPU time is the figure to trust."""

    def __init__(self) -> None:
        self.cpu = self.wall = 0.0

    def __enter__(self) -> Clock:
        self._cpu, self._wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu = time.process_time() - self._cpu
        self.wall = time.perf_counter() - self._wall


def medians(work: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Median CPU and wall seconds of `work` over `rounds` runs."""
    cpu, wall = [], []
    for _ in range(rounds):
        with Clock() as clock:
            work()
        cpu.append(clock.cpu)
        wall.append(clock.wall)
    return statistics.median(cpu), statistics.median(wall)


def figure(
    label: str, count: int, timed: tuple[float, float], floor_label: str, floor: tuple[float, float]
) -> str:
    ratio = timed[0] / floor[0]
    return (
        f"{label:<24} CPU {per_second(count, timed[0])} (wall {per_second(count, timed[1])})   "
        f"floor, {floor_label}: CPU {per_second(count, floor[0])} (wall {per_second(count, floor[1])})   "
        f"{ratio:.1f}x the floor"
    )


class CountingRandom(random.Random):
    """A random.Random that notes the draws made of it, in order: `n` for a number below n (a die, a choice,
    a sample's pick; random.Random makes each through _randbelow), 0 for a float (5.2's jitter). The numbers
    drawn are random.Random's own, so the roll is the same character."""

    def __init__(self, seed: int, noted: list[int]) -> None:
        self.noted = noted
        super().__init__(seed)

    def _randbelow(self, n: int) -> int:
        self.noted.append(n)
        return super()._randbelow(n)

    def random(self) -> float:
        self.noted.append(0)
        return super().random()


def roll_draws(count: int, tables: object) -> list[list[int]]:
    """The draws each seed's roll makes of its RNG: every die, every choice (gender, archetype, name) and
    5.2's jitter, not only the dice the file records. Counted with random.Random replaced for the counting
    rolls only (the roll looks the class up on the random module at each call)."""
    from chargen import api

    draws: list[list[int]] = []
    original = random.Random
    try:
        random.Random = lambda seed: CountingRandom(seed, draws[-1])  # type: ignore[assignment,misc]
        for seed in range(count):
            draws.append([])
            api.roll(seed=seed, tables=tables)  # type: ignore[arg-type]
    finally:
        random.Random = original  # type: ignore[misc]
    if not all(draws):
        raise SystemExit("bench_core: the roll's draws could not be counted (random.Random not looked up)")
    return draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5, help="runs of each figure; the median is shown")
    arguments = parser.parse_args()
    count, rounds = arguments.count, arguments.rounds

    from chargen import api
    from chargen.character_file import dump_document
    from chargen.model import to_document
    from chargen.tables import load_tables

    with Clock() as loading:
        tables = load_tables()
    documents = [api.roll(seed=seed, tables=tables) for seed in range(count)]
    draws = roll_draws(count, tables)
    draws_per_character = statistics.mean(len(drawn) for drawn in draws)

    def rng_floor() -> None:
        # What a roll cannot avoid: a fresh RNG seeded per character, making the draws that roll makes.
        for seed, drawn in enumerate(draws):
            rng = random.Random(seed)
            for sides in drawn:
                if sides:
                    rng.randint(1, sides)
                else:
                    rng.random()

    def fresh_rolls(first: int) -> None:
        # Seeds not rolled before: what chargen keeps per Tables (weapon lines, bought kits) helps as much as
        # in a batch of new characters, no more.
        for seed in range(first, first + count):
            api.roll(seed=seed, tables=tables)

    def default_rolls(first: int) -> None:
        # The same without the tables passed in: the default tables, loaded once per process.
        for seed in range(first, first + count):
            api.roll(seed=seed)

    # Alternating rounds: the roll and its floor share whatever else the machine is doing.
    roll, default, floor = [], [], []
    for number in range(rounds):
        roll.append(medians(functools.partial(fresh_rolls, count * (2 * number + 1)), 1))
        default.append(medians(functools.partial(default_rolls, count * (2 * number + 2)), 1))
        floor.append(medians(rng_floor, 1))
    roll_time = (statistics.median(t[0] for t in roll), statistics.median(t[1] for t in roll))
    default_time = (statistics.median(t[0] for t in default), statistics.median(t[1] for t in default))
    floor_time = (statistics.median(t[0] for t in floor), statistics.median(t[1] for t in floor))

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    mappings = [to_document(document) for document in documents]
    yaml_time = medians(lambda: [dump_document(document, "yaml") for document in documents], rounds)
    yaml_floor = medians(lambda: [yaml.dump(m, Dumper=dumper, sort_keys=False) for m in mappings], rounds)
    json_time = medians(lambda: [dump_document(document, "json") for document in documents], rounds)
    json_floor = medians(
        lambda: [json.dumps(m, indent=2, ensure_ascii=False) + "\n" for m in mappings], rounds
    )

    print(
        f"chargen core benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {count} characters,"
    )
    print(f"median of {rounds} rounds; CPU time first (trust it on a shared machine), wall time in brackets")
    print(f"tables loaded and checked once: {loading.wall * 1000:.0f} ms")
    floor_label = f"seed an RNG + its {draws_per_character:.1f} draws"
    print(figure("roll+derive", count, roll_time, floor_label, floor_time))
    print(figure("roll, default tables", count, default_time, floor_label, floor_time))
    print(figure("character file to YAML", count, yaml_time, "PyYAML CSafeDumper alone", yaml_floor))
    print(figure("character file to JSON", count, json_time, "json.dumps alone", json_floor))

    help_seconds = wall_time([sys.executable, "-m", "chargen", "--help"])
    click_seconds = wall_time([sys.executable, "-c", "import click"])
    python_seconds = wall_time([sys.executable, "-c", "pass"])
    roll_process = wall_time([sys.executable, "-m", "chargen", "roll", "--seed", "1"])
    print(
        f"`chargen --help` start-up {help_seconds * 1000:8.0f} ms   floor (python -c 'import click') {click_seconds * 1000:.0f} ms; bare python {python_seconds * 1000:.0f} ms"
    )
    print(f"`chargen roll` whole process {roll_process * 1000:5.0f} ms")

    probe = "import sys; from chargen import api; api.roll(seed=1); from chargen.cli import cli; print('weasyprint' in sys.modules)"
    imported = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"weasyprint imported by roll/--help paths: {imported}")


if __name__ == "__main__":
    main()
