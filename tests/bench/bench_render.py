"""How long a Character Record takes to make. Not a test (pytest does not collect it); run it by hand:

    python tests/bench/bench_render.py [--runs N] [--subsetter harfbuzz|fonttools] [--who NAME ...]

`--who` picks the characters: `seed 1` (the default), `rolf` (tests/examples/rolf.yaml) and the visual
tests' representatives (`plain human`, `elf adept`, `giant`, `14-weapon fighter`); `--who all` takes them all.
Reports CPU seconds and wall seconds per record (medians) for:
  process   `python -m chargen render FILE --pdf OUT` as a whole process (imports, tables, fonts, layout)
  cold      the first render_pdf() in a process (fonts and stylesheets parsed then)
  warm      each further render_pdf() in the same process
  floor     WeasyPrint alone laying out the same page with the same parsed stylesheets and fonts
  naive     WeasyPrint alone on the standalone HTML, parsing its inline CSS and data: fonts every time
`--subsetter fonttools` hides libharfbuzz-subset from WeasyPrint, so it subsets the fonts with fontTools
(WeasyPrint's fallback), to measure what the Debian package libharfbuzz-subset0 gains.
"""

from __future__ import annotations

import argparse
import logging
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

ROLF = REPO / "tests" / "examples" / "rolf.yaml"
REPRESENTATIVES = ["plain human", "elf adept", "giant", "14-weapon fighter"]

# Runs the CLI in a child process, optionally without HarfBuzz subsetting.
CHILD = """
import sys
if sys.argv[1] == "fonttools":
    import weasyprint.pdf.fonts
    weasyprint.pdf.fonts.harfbuzz_subset = None
sys.argv = ["chargen", "render", *sys.argv[2:]]
from chargen.cli import main
main()
"""


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children: the machine may be shared."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(action: Callable[[], object], runs: int) -> list[tuple[float, float]]:
    """(CPU seconds, wall seconds) of each run."""
    times = []
    for _ in range(runs):
        start, cpu = time.perf_counter(), _cpu_seconds()
        action()
        times.append((_cpu_seconds() - cpu, time.perf_counter() - start))
    return times


def line(label: str, times: list[tuple[float, float]]) -> str:
    cpu, wall = [run[0] for run in times], [run[1] for run in times]
    return (
        f"{label:<26} CPU {statistics.median(cpu):7.3f} s/record (min {min(cpu):.3f}),"
        f" wall {statistics.median(wall):7.3f} (min {min(wall):.3f}), n={len(times)}"
    )


def characters(names: list[str]) -> dict[str, Character]:
    from chargen.api import build, roll
    from tests.test_record_visual import representatives

    wanted = ["seed 1", "rolf", *REPRESENTATIVES] if names == ["all"] else names
    chosen: dict[str, Character] = {}
    if "seed 1" in wanted:
        chosen["seed 1"] = roll(seed=1)
    if "rolf" in wanted:
        chosen["rolf"] = build(ROLF.read_text(encoding="utf-8"), str(ROLF))
    if set(wanted) & set(REPRESENTATIVES):
        chosen.update(representatives())
    return {name: chosen[name] for name in wanted}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--subsetter", choices=["harfbuzz", "fonttools"], default="harfbuzz")
    parser.add_argument("--who", nargs="+", default=["seed 1"], help="characters to render (see above)")
    parser.add_argument("--paper", choices=["letter", "a4"], default="letter")
    parser.add_argument("--skip-process", action="store_true", help="leave out the whole-process runs")
    args = parser.parse_args()
    logging.getLogger("weasyprint").setLevel(logging.ERROR)

    if args.subsetter == "fonttools":
        import weasyprint.pdf.fonts

        weasyprint.pdf.fonts.harfbuzz_subset = None

    from chargen.render import pdf
    from chargen.tables import load_tables

    tables = load_tables()
    chosen = characters(args.who)
    first = next(iter(chosen.values()))
    results = {} if args.skip_process else {"process": _process_times(first, args)}
    results["cold"] = _measure(first, tables, args.paper, 1)["warm"]
    for who, character in chosen.items():
        for label, times in _measure(character, tables, args.paper, args.runs).items():
            results[f"{label} {who}" if len(chosen) > 1 else label] = times
    subsetter = "fontTools" if args.subsetter == "fonttools" else "HarfBuzz (libharfbuzz-subset0)"
    print(f"font subsetting: {subsetter}; WeasyPrint {pdf._engine().weasyprint.__version__}; {args.paper}")
    for label, times in results.items():
        print(line(label, times))


def _process_times(character: Character, args: argparse.Namespace) -> list[tuple[float, float]]:
    """The CLI rendering the character's file to PDF in a fresh process (`process` above)."""
    from chargen.character_file import dump_document

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "character.yaml"
        source.write_text(dump_document(character, "yaml"), encoding="utf-8")
        out = Path(folder) / "record.pdf"
        command = [sys.executable, "-c", CHILD, args.subsetter, str(source), "--pdf", str(out)]
        command += ["--paper", args.paper, "-o", "/dev/null"]
        return timed(lambda: subprocess.run(command, cwd=REPO, check=True), args.runs)


def _measure(
    character: Character, tables: Tables, paper: str, runs: int
) -> dict[str, list[tuple[float, float]]]:
    """warm, floor and naive (see above) for one character."""
    from chargen.render import _page, pdf, render_pdf

    engine = pdf._engine()
    page = _page(character, tables, paper, None, standalone=False)
    standalone = _page(character, tables, paper, None, standalone=True)
    fetch = pdf._make_fetcher(engine.weasyprint, [])

    def floor() -> bytes:
        document = engine.weasyprint.HTML(string=page, base_url=pdf._base_url(), url_fetcher=fetch)
        rendered = document.render(stylesheets=[engine.fonts, engine.layout], font_config=engine.font_config)
        result: bytes = rendered.write_pdf(pdf_identifier=True)
        return result

    def naive() -> bytes:
        result: bytes = engine.weasyprint.HTML(string=standalone, url_fetcher=fetch).write_pdf()
        return result

    # warm and floor alternate, so a busy moment on a shared machine falls on both alike
    warm: list[tuple[float, float]] = []
    floor_times: list[tuple[float, float]] = []
    for _ in range(runs):
        warm += timed(lambda: render_pdf(character, tables, paper=paper), 1)
        floor_times += timed(floor, 1)
    return {"warm": warm, "floor": floor_times, "naive": timed(naive, max(1, runs // 2))}


if __name__ == "__main__":
    main()
