"""A mutation check by hand: change one rule number at a time and see whether a test fails.

    python tests/mutation_check.py [--tables] [--code] [--only TEXT] [--survivors-of LOG] [--tests PATH ...]

Mutants: every number in the rules tables named below (tables/*.yaml, each `key: N` becomes N+1), and every
number literal in chargen/rules/*.py (N becomes N+1). Each mutant is made in a scratch copy of the checkout,
so an interrupted run leaves the worktree alone; the tests run there with `python -m pytest -x`. A mutant
is killed when a test fails (the first failing test is reported), and survives when every test passes.
Not a pytest module (its name does not start with test_): run it by hand after changing rules or tables.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The tests that guard rule numbers, independent checks first, then the golden files' byte comparison.
DEFAULT_TESTS = (
    "tests/test_rules_combat.py",
    "tests/test_rules_characteristics.py",
    "tests/test_allocation.py",
    "tests/test_render_fixtures.py",
    "tests/test_book_examples.py",
    "tests/test_rolled_characters.py",
    "tests/test_golden.py",
    "tests/test_damage_increase.py",
)
#: Tables whose numbers are rules (name lists, aspects' flavour and archetype preferences are left out;
#: the Weapons Chart's 450 numbers are mutated only when asked: --tables-file weapons.yaml).
TABLE_FILES = ("combat.yaml", "armor.yaml", "shields.yaml", "characteristics.yaml", "races.yaml")
_YAML_NUMBER = re.compile(r"(?<![\w\"'.])([a-z_]+:\s*)(-?\d+(?:\.\d+)?)(?=[,}\s]|$)")


@dataclass(frozen=True)
class Mutant:
    path: str  # relative to the checkout
    line: int  # 1-based
    start: int  # column of the number
    old: str
    new: str

    def describe(self) -> str:
        source = (REPO / self.path).read_text(encoding="utf-8").splitlines()[self.line - 1].strip()
        return f"{self.path}:{self.line}: {self.old} -> {self.new}   ({source[:90]})"

    def apply(self, root: Path) -> None:
        target = root / self.path
        lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
        text = lines[self.line - 1]
        assert text[self.start : self.start + len(self.old)] == self.old, (self, text)
        lines[self.line - 1] = text[: self.start] + self.new + text[self.start + len(self.old) :]
        target.write_text("".join(lines), encoding="utf-8")


def bumped(number: str) -> str:
    if "." in number:
        return str(float(number) + 1)
    return str(int(number) + 1)


def table_mutants(files: list[str]) -> Iterator[Mutant]:
    for name in files:
        path = f"tables/{name}"
        for number, line in enumerate((REPO / path).read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            for match in _YAML_NUMBER.finditer(code):
                if match.group(1).startswith(("schema_version", "roll")):
                    continue
                yield Mutant(path, number, match.start(2), match.group(2), bumped(match.group(2)))


def code_mutants() -> Iterator[Mutant]:
    for source in sorted((REPO / "chargen" / "rules").glob("*.py")):
        path = str(source.relative_to(REPO))
        with source.open("rb") as handle:
            tokens = list(tokenize.tokenize(handle.readline))
        docstring_lines = _docstring_lines(tokens)
        for token in tokens:
            if token.type == tokenize.NUMBER and token.start[0] not in docstring_lines:
                yield Mutant(path, token.start[0], token.start[1], token.string, bumped(token.string))


def _docstring_lines(tokens: list[tokenize.TokenInfo]) -> set[int]:
    lines: set[int] = set()
    for token in tokens:
        if token.type == tokenize.STRING and token.string.startswith(('"""', "'''")):
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines


def scratch_copy() -> Path:
    root = Path(tempfile.mkdtemp(prefix="chargen-mutants-"))
    for name in ("chargen", "docs", "tables", "templates", "tests"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, root / name)
    return root


def run_tests(root: Path, tests: list[str]) -> str | None:
    """None when every test passes, else the first failing test (or the error that stopped the run)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode == 0:
        return None
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", result.stdout, re.M)
    return failed[0] if failed else (result.stdout.strip().splitlines() or ["exit status"])[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", action="store_true", help="mutate numbers in the rules tables")
    parser.add_argument("--code", action="store_true", help="mutate number literals in chargen/rules")
    parser.add_argument("--tables-file", nargs="*", default=list(TABLE_FILES), help="tables to mutate")
    parser.add_argument("--only", default="", help="only mutants whose description contains this text")
    parser.add_argument("--survivors-of", type=Path, help="only the mutants a previous run's output lists")
    parser.add_argument("--tests", nargs="*", default=list(DEFAULT_TESTS))
    options = parser.parse_args()
    mutants = [
        *(table_mutants(options.tables_file) if options.tables or not options.code else ()),
        *(code_mutants() if options.code or not options.tables else ()),
    ]
    mutants = [mutant for mutant in mutants if options.only in mutant.describe()]
    if options.survivors_of:
        previous = options.survivors_of.read_text(encoding="utf-8")
        mutants = [mutant for mutant in mutants if f"{mutant.describe()}: SURVIVED" in previous]
    root = scratch_copy()
    try:
        assert run_tests(root, options.tests) is None, "the tests fail before any mutation"
        survivors = []
        for index, mutant in enumerate(mutants, start=1):
            original = (root / mutant.path).read_text(encoding="utf-8")
            mutant.apply(root)
            try:
                killer = run_tests(root, options.tests)
            finally:
                (root / mutant.path).write_text(original, encoding="utf-8")
            verdict = f"killed by {killer}" if killer else "SURVIVED"
            print(f"[{index}/{len(mutants)}] {mutant.describe()}: {verdict}", flush=True)
            if killer is None:
                survivors.append(mutant)
        print(
            f"\n{len(mutants) - len(survivors)} of {len(mutants)} mutants killed; {len(survivors)} survived:"
        )
        for mutant in survivors:
            print(f"  {mutant.describe()}")
        return 1 if survivors else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
