"""The README's examples are true: every `$ command` in a ```console block prints exactly what follows it.

Commands of one block run in order in a fresh folder holding tests/examples/, through bash, with stderr joined to stdout.
Refresh the outputs after a deliberate change with:  python -m tests.test_readme --update
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLES = Path(__file__).resolve().parent / "examples"  # files the examples use (rolf.yaml, ...)
BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples(text: str) -> list[list[tuple[str, str]]]:
    """Each console block as a list of (command, expected output)."""
    blocks = []
    for match in BLOCK.finditer(text):
        pairs: list[tuple[str, str]] = []
        for line in match.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                pairs.append((line[2:].rstrip("\n"), ""))
            elif pairs:
                command, output = pairs[-1]
                pairs[-1] = (command, output + line)
        blocks.append(pairs)
    return blocks


def run_block(pairs: list[tuple[str, str]]) -> list[str]:
    outputs = []
    with tempfile.TemporaryDirectory() as folder:
        for example in EXAMPLES.iterdir():
            shutil.copyfile(example, Path(folder) / example.name)
        for command, _ in pairs:
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=folder,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # as a terminal shows them, interleaved
                text=True,
                env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "COLUMNS": "100"},
            )
            outputs.append(result.stdout)
    return outputs


@pytest.mark.parametrize("index", range(len(examples(README.read_text(encoding="utf-8")))))
def test_readme_example(index: int) -> None:
    pairs = examples(README.read_text(encoding="utf-8"))[index]
    for (command, expected), actual in zip(pairs, run_block(pairs), strict=True):
        assert actual == expected, f"README example `{command}` prints something else"


def update() -> None:
    text = README.read_text(encoding="utf-8")

    def refresh(match: re.Match[str]) -> str:
        pairs = examples(match.group(0))[0]
        body = "".join(
            f"$ {command}\n{output}" for (command, _), output in zip(pairs, run_block(pairs), strict=True)
        )
        return f"```console\n{body}```"

    README.write_text(BLOCK.sub(refresh, text), encoding="utf-8")


if __name__ == "__main__" and "--update" in sys.argv:
    update()
