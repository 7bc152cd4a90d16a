"""How long a Character Record takes to make. Not a test (pytest does not collect it); run it by hand:

    python tests/bench/bench_render.py [--runs N] [--subsetter harfbuzz|fonttools]

Reports seconds per record for:
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
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

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


def timed(action: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def line(label: str, times: list[float]) -> str:
    return f"{label:<8} {statistics.median(times):7.3f} s/record  (min {min(times):.3f}, n={len(times)})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--subsetter", choices=["harfbuzz", "fonttools"], default="harfbuzz")
    args = parser.parse_args()
    logging.getLogger("weasyprint").setLevel(logging.ERROR)

    if args.subsetter == "fonttools":
        import weasyprint.pdf.fonts

        weasyprint.pdf.fonts.harfbuzz_subset = None

    from chargen.api import roll
    from chargen.character_file import dump_document
    from chargen.render import _page, pdf, render_pdf
    from chargen.tables import load_tables

    tables = load_tables()
    character = roll(seed=1)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "character.yaml"
        source.write_text(dump_document(character, "yaml"), encoding="utf-8")
        out = Path(folder) / "record.pdf"
        command = [
            sys.executable,
            "-c",
            CHILD,
            args.subsetter,
            str(source),
            "--pdf",
            str(out),
            "-o",
            "/dev/null",
        ]
        process = timed(lambda: subprocess.run(command, cwd=REPO, check=True), args.runs)

    cold = timed(lambda: render_pdf(character, tables), 1)
    warm = timed(lambda: render_pdf(character, tables), args.runs)

    state = pdf._state()
    page = _page(character, tables, "letter", None, standalone=False)

    def floor() -> bytes:
        document = state.weasyprint.HTML(string=page, base_url=pdf._base_url(), url_fetcher=state.fetcher)
        result: bytes = document.write_pdf(
            stylesheets=[state.fonts, state.layout], font_config=state.font_config, pdf_identifier=True
        )
        return result

    standalone = _page(character, tables, "letter", None, standalone=True)

    def naive() -> bytes:
        result: bytes = state.weasyprint.HTML(string=standalone, url_fetcher=state.fetcher).write_pdf()
        return result

    floor_times = timed(floor, args.runs)
    naive_times = timed(naive, max(1, args.runs // 2))
    subsetter = "fontTools" if args.subsetter == "fonttools" else "HarfBuzz (libharfbuzz-subset0)"
    print(f"font subsetting: {subsetter}; WeasyPrint {state.weasyprint.__version__}")
    for label, times in (
        ("process", process),
        ("cold", cold),
        ("warm", warm),
        ("floor", floor_times),
        ("naive", naive_times),
    ):
        print(line(label, times))


if __name__ == "__main__":
    main()
