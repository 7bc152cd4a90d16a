"""The README's and the docs' examples are true.

Every `$ command` in a ```console block of README.md or docs/*.md prints exactly what follows it: the commands
of one block run in order in a fresh folder holding tests/examples/, through bash, with stderr joined to
stdout. Every ```python block runs too, in such a folder, and must succeed; when the page follows it with
"It prints:" and a ```text block, it must print exactly that.

Refresh the outputs after a deliberate change (every page, or the pages named), then read the diff:
    python -m tests.test_readme --update [README.md docs/batches.md ...]
The README's `chargen new` transcript (a ```text block: the walk asks in a terminal) is checked against a walk
given the same answers.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.slow  # the docs' examples, each command a process

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).resolve().parent / "examples"  # files the examples use (rolf.yaml, ...)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CONSOLE = re.compile(r"```console\n(.*?)```", re.DOTALL)
# A Python example, and what it prints when the page says so right after it.
PYTHON = re.compile(r"```python\n(.*?)```(\n\nIt prints:\n\n```text\n(.*?)```)?", re.DOTALL)
# PYTHONPATH: this checkout's chargen, whichever the environment has installed
ENV = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "COLUMNS": "100", "PYTHONPATH": str(ROOT)}


def examples(text: str) -> list[list[tuple[str, str]]]:
    """Each console block as a list of (command, expected output)."""
    blocks = []
    for match in CONSOLE.finditer(text):
        pairs: list[tuple[str, str]] = []
        for line in match.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                pairs.append((line[2:].rstrip("\n"), ""))
            elif pairs:
                command, output = pairs[-1]
                pairs[-1] = (command, output + line)
        blocks.append(pairs)
    return blocks


def programs(text: str) -> list[tuple[str, str | None]]:
    """Each Python block as (code, what it prints, or None where the page does not say)."""
    return [(match.group(1), match.group(3)) for match in PYTHON.finditer(text)]


@contextmanager
def example_folder() -> Iterator[Path]:
    """A fresh folder holding tests/examples/, removed afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        for example in EXAMPLES.iterdir():
            shutil.copyfile(example, Path(folder) / example.name)
        yield Path(folder)


def run_block(pairs: list[tuple[str, str]]) -> list[str]:
    with example_folder() as folder:
        return [
            subprocess.run(
                ["bash", "-c", command],
                cwd=folder,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # as a terminal shows them, interleaved
                text=True,
                env=ENV,
            ).stdout
            for command, _ in pairs
        ]


def run_program(code: str) -> subprocess.CompletedProcess[str]:
    with example_folder() as folder:
        return subprocess.run(
            [sys.executable, "-"], input=code, cwd=folder, capture_output=True, text=True, env=ENV
        )


def _cases(find: Callable[[str], list[object]]) -> list[object]:
    """Each example of every page; one that makes a PDF is slow (WeasyPrint lays the record out)."""
    cases = []
    for page in PAGES:
        for index, example in enumerate(find(page.read_text(encoding="utf-8"))):
            slow = "pdf" in str(example).lower()
            marks = [pytest.mark.slow] if slow else []
            cases.append(pytest.param(page, index, id=f"{page.relative_to(ROOT)}-{index}", marks=marks))
    return cases


@pytest.mark.parametrize(("page", "index"), _cases(examples))
def test_console_example(page: Path, index: int) -> None:
    pairs = examples(page.read_text(encoding="utf-8"))[index]
    for (command, expected), actual in zip(pairs, run_block(pairs), strict=True):
        assert actual == expected, f"{page.name} example `{command}` prints something else"


@pytest.mark.parametrize(("page", "index"), _cases(programs))
def test_python_example(page: Path, index: int) -> None:
    code, expected = programs(page.read_text(encoding="utf-8"))[index]
    result = run_program(code)
    assert result.returncode == 0 and not result.stderr, result.stderr
    if expected is not None:
        assert result.stdout == expected, f"{page.name} Python example {index} prints something else"


def test_the_readme_shows_the_library_in_python() -> None:
    """The README's scripting example is one the tests run (it once raised a NameError), with what it prints."""
    found = programs((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found and all(expected is not None for _, expected in found)


def test_no_example_shows_a_file_it_lacks() -> None:
    """docs/explain.md's `--format json` example printed `rolf-full.yaml: cannot read`: its file was made
    by an earlier block, each block runs in a fresh folder, and --update wrote the error down as its
    output."""
    lacking = [
        (page.name, command)
        for page in PAGES
        for block in examples(page.read_text(encoding="utf-8"))
        for command, output in block
        if "cannot read (No such file or directory)" in output
    ]
    assert lacking == []


def test_every_docs_page_is_found() -> None:
    assert len(PAGES) > 1 and all(page.suffix == ".md" for page in PAGES)


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_links_reach_their_page_and_heading(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
        if re.match(r"\w+:", target):
            continue  # https: and the like
        name, _, anchor = target.partition("#")
        linked = page.parent / name if name else page
        assert linked.exists(), f"{page.name} links to {target}, which is not there"
        if anchor:
            headings = re.findall(r"^#+ (.*)$", linked.read_text(encoding="utf-8"), re.MULTILINE)
            assert anchor in map(_anchor, headings), f"{page.name} links to {target}: no such heading"


# The answers the README's `chargen new` transcript gives, by the start of the question's line (Enter for every
# other step, the ones the page leaves out); seed 3 rolled the dice the page shows.
WALK_ANSWERS = {
    "Concept (": ["archer"],
    "Your 2D10": ["9"],
    "PS (": ["23"],
    "MD (": ["23", "14"],
    "Race to try first": ["elf"],
    "Weapons to buy": ["short sword, dagger"],
    "Armor (": ["leather"],
    "Shield (": ["buckler"],
    "Name (": ["Aelinne Sunbow"],
}


def _readme_walk() -> list[str]:
    """The lines of the README's `chargen new` transcript, without its command and the `...` of the steps left
    out."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ chargen new (.*?)\n(.*?)```", text, re.DOTALL)
    assert block, "the README shows a `chargen new` walk"
    return [line for line in block.group(2).splitlines() if not line.startswith("...")]


def test_the_readme_walk_is_what_chargen_new_shows(tmp_path: Path) -> None:
    answers = {start: list(given) for start, given in WALK_ANSWERS.items()}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "chargen", "new", "--seed", "3", "-o", "hero.yaml", "--pdf", "hero.pdf"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 250),
    )
    shown = ""
    while child.expect([r": $", pexpect.EOF]) == 0:
        shown += str(child.before) + str(child.after)
        question = shown.rsplit("\n", 1)[-1]
        child.sendline(
            next((left.pop(0) for start, left in answers.items() if question.startswith(start) and left), "")
        )
    shown += str(child.before)
    lines = iter(shown.replace("\r", "").splitlines())  # searched on from the last line found: in order
    missing = [line for line in _readme_walk() if line.rstrip() not in (seen.rstrip() for seen in lines)]
    assert not missing, (
        f"the README's walk shows lines `chargen new` does not, in that order: {missing}\n{shown}"
    )
    assert (tmp_path / "hero.pdf").exists()


def update(page: Path) -> None:
    def console(match: re.Match[str]) -> str:
        pairs = examples(match.group(0))[0]
        body = "".join(
            f"$ {command}\n{output}" for (command, _), output in zip(pairs, run_block(pairs), strict=True)
        )
        return f"```console\n{body}```"

    def python(match: re.Match[str]) -> str:
        if match.group(2) is None:
            return match.group(0)
        return f"```python\n{match.group(1)}```\n\nIt prints:\n\n```text\n{run_program(match.group(1)).stdout}```"

    text = PYTHON.sub(python, CONSOLE.sub(console, page.read_text(encoding="utf-8")))
    page.write_text(text, encoding="utf-8")


if __name__ == "__main__" and "--update" in sys.argv:
    named = [Path(name).resolve() for name in sys.argv[sys.argv.index("--update") + 1 :]]
    for page in named or PAGES:
        update(page)
