"""Benchmark of the core: characters per second for roll+derive, and the start-up time of `chargen --help`.

Run: python tests/bench/bench_core.py [--count N]
Each figure stands beside a floor: the same work done by the libraries alone (the RNG drawing as many dice,
PyYAML dumping the same documents, Python importing click), so chargen's own overhead is visible.
Not a test: pytest does not collect it, and it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

import yaml


def per_second(count: int, seconds: float) -> str:
    return f"{count / seconds:10.0f}/s"


def wall_time(command: list[str], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=3000)
    count = parser.parse_args().count

    from chargen import api
    from chargen.character_file import dump_document
    from chargen.model import to_document
    from chargen.tables import load_tables

    started = time.perf_counter()
    tables = load_tables()
    load_seconds = time.perf_counter() - started

    started = time.perf_counter()
    documents = [api.roll(seed=seed, tables=tables) for seed in range(count)]
    roll_seconds = time.perf_counter() - started

    started = time.perf_counter()
    for document in documents:
        dump_document(document, "yaml")
    yaml_seconds = time.perf_counter() - started

    started = time.perf_counter()
    for document in documents:
        dump_document(document, "json")
    json_seconds = time.perf_counter() - started

    dice_per_character = statistics.mean(
        sum(len(value) if isinstance(value, list) else 1 for value in doc.rolls.values()) for doc in documents
    )
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(count):
        for _ in range(round(dice_per_character)):
            rng.randint(1, 100)
    rng_seconds = time.perf_counter() - started

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    mappings = [to_document(document) for document in documents]
    started = time.perf_counter()
    for mapping in mappings:
        yaml.dump(mapping, Dumper=dumper, sort_keys=False)
    yaml_floor_seconds = time.perf_counter() - started

    print(f"tables loaded and checked once: {load_seconds * 1000:.0f} ms")
    print(
        f"roll+derive               {per_second(count, roll_seconds)}   floor (RNG alone, {dice_per_character:.0f} dice each) {per_second(count, rng_seconds)}"
    )
    print(
        f"character file to YAML    {per_second(count, yaml_seconds)}   floor (PyYAML CSafeDumper alone)     {per_second(count, yaml_floor_seconds)}"
    )
    print(f"character file to JSON    {per_second(count, json_seconds)}")
    print(f"roll+derive+YAML          {per_second(count, roll_seconds + yaml_seconds)}")

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
