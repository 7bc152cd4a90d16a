"""Hashes of everything chargen writes, over thousands of seeds: the proof that a speed change changed no
output byte. Record the hashes before a change, compare after it.

    python tests/bench/output_hashes.py > before.json        # on the old code
    python tests/bench/output_hashes.py --compare before.json  # on the new code: exit 1 on any difference

Covered: `roll` under several choices and both rulesets (book, house-combat) as YAML and JSON, each file
rebuilt by `build`, `validate` of each file, the HTML record of every 10th character, and batch runs
(JSONL, CSV, one file per NPC, HTML roster; mixes of archetypes and races, a gender, 1 and 2 jobs).
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Roll choices, each over every seed: (label, keyword arguments of api.roll).
ROLLS: list[tuple[str, dict[str, Any]]] = [
    ("rolled", {}),
    ("fighter-buy", {"archetype": "fighter", "equip": "buy"}),
    ("give", {"equip": "give"}),
    ("elf-female-optional", {"race": "elf", "gender": "female", "optional": ["PB"]}),
    ("attempts", {"race_attempts": ["dwarf", "elf", "halfling"], "equip": "buy"}),
]
#: Batch runs: (label, BatchOptions keywords besides the outputs).
BATCHES: list[tuple[str, dict[str, Any]]] = [
    ("plain", {"seed": 1}),
    ("jobs2", {"seed": 1, "jobs": 2}),
    ("mixes", {"seed": 7, "archetype": "fighter=3,adept=1", "race": "human=5,elf=1,orc=2"}),
    ("one-race", {"seed": 9, "race": "dwarf", "gender": "female"}),
    ("one-archetype", {"seed": 11, "archetype": "bandit", "jobs": 2}),
]


class Hasher:
    """One running SHA-256 per key, fed text by text (nothing kept: a run renders hundreds of pages)."""

    def __init__(self) -> None:
        self.running: dict[str, Any] = {}

    def feed(self, key: str, text: str | bytes) -> None:
        running = self.running.setdefault(key, hashlib.sha256())
        running.update(text.encode() if isinstance(text, str) else text)
        running.update(b"\0")

    @property
    def parts(self) -> dict[str, str]:
        return {key: running.hexdigest()[:16] for key, running in self.running.items()}


def roll_hashes(hasher: Hasher, seeds: range, ruleset: str | None) -> None:
    from chargen import api
    from chargen.character_file import dump_document
    from chargen.errors import ChargenError
    from chargen.render import render_html
    from chargen.tables import load_tables

    tables = load_tables(rules=[ruleset] if ruleset else [])
    suffix = f"@{ruleset}" if ruleset else ""
    for label, choices in ROLLS:
        key = f"roll/{label}{suffix}"
        for seed in seeds:
            try:
                character = api.roll(seed=seed, tables=tables, **choices)
            except ChargenError as error:
                hasher.feed(f"{key}/yaml", f"error: {error}")
                continue
            text = dump_document(character, "yaml")
            hasher.feed(f"{key}/yaml", text)
            hasher.feed(f"{key}/json", dump_document(character, "json"))
            if seed % 4 == 0:
                hasher.feed(f"{key}/rebuild", dump_document(api.build(text, tables=tables), "yaml"))
                hasher.feed(f"{key}/validate", "\n".join(api.validate(text, tables=tables)))
            if seed % 10 == 0:
                hasher.feed(f"{key}/html", render_html(character, tables))


def batch_hashes(hasher: Hasher, count: int) -> None:
    from chargen.batch import BatchOptions, run_batch

    for label, settings in BATCHES:
        with tempfile.TemporaryDirectory() as folder:
            where = Path(folder)
            options = BatchOptions(
                count=count,
                jsonl=str(where / "npcs.jsonl"),
                csv=str(where / "npcs.csv"),
                out=str(where / "files"),
                roster=str(where / "roster.html") if count <= 500 else None,
                **{"jobs": 1, **settings},
            )
            run_batch(options)
            for name in ("npcs.jsonl", "npcs.csv", "roster.html"):
                if (where / name).exists():
                    hasher.feed(f"batch/{label}/{name}", (where / name).read_bytes())
            for path in sorted((where / "files").iterdir()):
                hasher.feed(f"batch/{label}/files", f"{path.name}\n".encode() + path.read_bytes())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=2000, help="seeds per roll choice (default 2000)")
    parser.add_argument("--batch", type=int, default=400, help="NPCs per batch run (default 400)")
    parser.add_argument("--compare", type=Path, help="hashes recorded before: report every difference")
    arguments = parser.parse_args()
    hasher = Hasher()
    steps: list[Callable[[], None]] = [
        lambda: roll_hashes(hasher, range(arguments.seeds), None),
        lambda: roll_hashes(hasher, range(0, arguments.seeds, 4), "house-combat"),
        lambda: batch_hashes(hasher, arguments.batch),
    ]
    for step in steps:
        step()
    if arguments.compare is None:
        print(json.dumps(hasher.parts, indent=1))
        return
    before = json.loads(arguments.compare.read_text())
    differences = sorted(
        key for key in set(before) | set(hasher.parts) if before.get(key) != hasher.parts.get(key)
    )
    for key in differences:
        print(f"DIFFERENT {key}: {before.get(key)} -> {hasher.parts.get(key)}")
    print(f"{len(hasher.parts)} hashes, {len(differences)} different")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
