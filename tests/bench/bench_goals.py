"""The batch and record speed and memory goals, measured in one run beside a baseline chargen.

    python tests/bench/bench_goals.py --baseline /path/to/baseline-venv/bin/python
    python tests/bench/bench_goals.py --baseline ... --repeat 5 --pdf-count 2000   # the issue's figures

The baseline is another chargen installed in its own virtualenv (9825ecf, CHARGEN_COMPILE=0, for issue
29); each case runs in a fresh process of one interpreter or the other, taken in turn, so a drift of a
shared machine's speed reaches both alike; medians are quoted. Goals:

- JSONL: `run_batch` of 10,000 NPCs to a JSONL file, 1 job, no slower than the baseline.
- 2 jobs: the same batch with 2 jobs at least 1.5x faster than with 1 (an idle machine only).
- PDF memory: a 2,000-record `--pdf` batch's whole process tree (Pss, the sum over its processes of
  /proc/PID/smaps_rollup, sampled every 0.1 s) within 1.3x of a 20-record batch's, and the file no more
  than about 25 kB a record (bench_pdf_batch's cases).
- Roll: `api.roll(seed=i, tables=t)` in a loop at least 0.9x the baseline's speed (CPU microseconds a call;
  `api.roll(seed=i)` with the default tables is shown beside it).
- One record: render_pdf of one record within 1.1x of WeasyPrint alone laying out the same HTML with the
  same parsed stylesheets and fonts (bench_render's warm and floor).
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

#: A case, run as `python -P -c CASE_CODE name args...` by either interpreter: it imports whichever
#: chargen that interpreter has installed (-P: not the one in the working folder), and prints one JSON line.
CASE_CODE = """
import json, sys, tempfile, time
from pathlib import Path
name, *args = sys.argv[1:]
if name == "roll":
    from chargen import api
    from chargen.tables import load_tables
    tables, count = load_tables(), int(args[0])
    for seed in range(10**6, 10**6 + 300):  # warm up: the default tables loaded, first-call work done
        api.roll(seed=seed, tables=tables)
        api.roll(seed=seed)
    started = time.process_time()
    for seed in range(count):
        api.roll(seed=seed, tables=tables)
    passed = time.process_time() - started
    started = time.process_time()
    for seed in range(count, 2 * count):
        api.roll(seed=seed)
    default = time.process_time() - started
    print(json.dumps({"passed_us": passed / count * 1e6, "default_us": default / count * 1e6}))
elif name == "jsonl":
    from chargen.batch import BatchOptions, run_batch
    from chargen.tables import load_tables
    tables = load_tables()
    count, jobs = int(args[0]), int(args[1])
    with tempfile.TemporaryDirectory() as folder:
        options = BatchOptions(count=count, seed=1, jobs=jobs, jsonl=str(Path(folder) / "n.jsonl"))
        started = time.perf_counter()
        run_batch(options, tables=tables)
        print(json.dumps({"seconds": time.perf_counter() - started}))
elif name == "record":
    import statistics
    sys.path.insert(0, args[0])
    from bench_render import _measure
    from chargen import api
    from chargen.tables import load_tables
    tables = load_tables()
    times = _measure(api.roll(seed=1, tables=tables), tables, "letter", int(args[1]))
    print(json.dumps({key: statistics.median(cpu for cpu, _ in runs) for key, runs in times.items()}))
"""


def case(python: str, *arguments: str) -> dict[str, Any]:
    done = subprocess.run(
        [python, "-P", "-c", CASE_CODE, *arguments], capture_output=True, text=True, cwd=REPO, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def pdf_case(count: int, jobs: int) -> dict[str, Any]:
    """bench_pdf_batch's batch case, in a fresh process of ours: the tree's peak Pss, the file's size."""
    from bench_pdf_batch import run_case

    with tempfile.TemporaryDirectory() as folder:
        return run_case(["batch", str(count), str(jobs), str(Path(folder) / "records.pdf")])


def roll_rows(ours: str, baseline: str, count: int, repeat: int) -> list[str]:
    """Per-call CPU time of `api.roll` in a loop, ours and the baseline's in alternating fresh processes."""
    runs: dict[str, list[dict[str, Any]]] = {"ours": [], "base": []}
    for _ in range(repeat):
        runs["base"].append(case(baseline, "roll", str(count)))
        runs["ours"].append(case(ours, "roll", str(count)))
    rows = []
    for key, label in (("passed_us", "api.roll in a loop"), ("default_us", "  the same, default tables")):
        mine = statistics.median(run[key] for run in runs["ours"])
        base = statistics.median(run[key] for run in runs["base"])
        measured = f"{mine:.1f} us, {base / mine:.2f}x (baseline {base:.1f})"
        rows.append(row(label, measured, ">= 0.9x", base / mine >= 0.9))
    return rows


def row(goal: str, measured: str, target: str, met: bool) -> str:
    return f"| {goal:<44} | {measured:<34} | {target:<22} | {'yes' if met else 'NO':<3} |"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", required=True, help="the baseline virtualenv's python")
    parser.add_argument("--repeat", type=int, default=5, help="alternating runs of each JSONL and roll case")
    parser.add_argument("--count", type=int, default=10_000, help="NPCs in the JSONL batches")
    parser.add_argument("--pdf-count", type=int, default=2000, help="records in the big PDF batch")
    parser.add_argument("--pdf-jobs", type=int, default=2)
    parser.add_argument("--record-runs", type=int, default=7)
    parser.add_argument("--roll-count", type=int, default=3000, help="rolls timed in each roll case")
    parser.add_argument("--skip", nargs="*", default=[], choices=["jsonl", "pdf", "record", "roll"])
    arguments = parser.parse_args()
    ours = sys.executable
    lines = [
        row("goal", "measured (medians)", "target", True).replace("yes", "met"),
        "|" + "-" * 46 + "|" + "-" * 36 + "|" + "-" * 24 + "|-----|",
    ]
    count = str(arguments.count)
    if "jsonl" not in arguments.skip:
        runs: dict[str, list[float]] = {"base": [], "one": [], "two": []}
        for _ in range(arguments.repeat):
            runs["base"].append(case(arguments.baseline, "jsonl", count, "1")["seconds"])
            runs["one"].append(case(ours, "jsonl", count, "1")["seconds"])
            runs["two"].append(case(ours, "jsonl", count, "2")["seconds"])
        base, one = statistics.median(runs["base"]), statistics.median(runs["one"])
        speed_up = statistics.median(a / b for a, b in zip(runs["one"], runs["two"], strict=True))
        lines.append(
            row(
                f"{count} NPCs to JSONL, 1 job",
                f"{one:.2f} s (baseline {base:.2f} s)",
                "no slower",
                one <= base,
            )
        )
        lines.append(
            row(f"{count} NPCs to JSONL, 2 jobs", f"{speed_up:.2f}x one job", ">= 1.5x", speed_up >= 1.5)
        )
    if "roll" not in arguments.skip:
        lines.extend(roll_rows(ours, arguments.baseline, arguments.roll_count, arguments.repeat))
    if "pdf" not in arguments.skip:
        small = pdf_case(20, arguments.pdf_jobs)
        big = pdf_case(arguments.pdf_count, arguments.pdf_jobs)
        ratio = big["tree_pss_mb"] / small["tree_pss_mb"]
        per_record = (big["tree_pss_mb"] - small["tree_pss_mb"]) * 1024 / (arguments.pdf_count - 20)
        file_kb = big["bytes"] / arguments.pdf_count / 1024
        lines.append(
            row(
                f"PDF {arguments.pdf_count} records, {arguments.pdf_jobs} jobs, tree Pss",
                f"{big['tree_pss_mb']:.0f} MB, {ratio:.2f}x 20 records'",
                "<= 1.3x",
                ratio <= 1.3,
            )
        )
        lines.append(
            row(
                "  its memory and file per record",
                f"{per_record:+.1f} kB Pss, {file_kb:.1f} kB file",
                "<= ~25 kB",
                max(per_record, file_kb) <= 26,
            )
        )
    if "record" not in arguments.skip:
        record = case(ours, "record", str(HERE), str(arguments.record_runs))
        ratio = record["warm"] / record["floor"]
        lines.append(
            row(
                "one record to PDF (CPU)",
                f"{record['warm']:.3f} s, {ratio:.2f}x WeasyPrint's",
                "<= 1.1x",
                ratio <= 1.1,
            )
        )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
