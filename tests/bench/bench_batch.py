"""Benchmark of `chargen batch`, each figure beside its floor (the same work without our rules code).

    python tests/bench/bench_batch.py              # 10,000 NPCs to JSONL, 200 to PDF, with 1 and 2 jobs
    python tests/bench/bench_batch.py --quick      # 2,000 and 20, for a smoke run
    python tests/bench/bench_batch.py --data-only --repeat 15   # the JSONL cases, 15 runs of each job count

Each case runs in a fresh Python process so its peak memory (ru_maxrss of the process and of its largest
worker) is its own. The 1- and 2-job JSONL batches run `--repeat` times each, alternating, and the
run with the median wall time of each is printed, with the 2-job speed-up as the median of the pairs' ratios
and their range: a single run of each moves by a few percent from one try to the next. Floors: for JSONL, json.dumps of the same documents, made beforehand, written to a
file; for PDF, WeasyPrint turning the very same record HTML into PDFs, one after another in one process.
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _peak_mb() -> dict[str, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"peak_mb": round(own, 1), "worker_peak_mb": round(workers, 1)}


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers (user + system)."""
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return _own_cpu_seconds() + workers.ru_utime + workers.ru_stime


def _own_cpu_seconds() -> float:
    """CPU time of this process alone: with workers, the batch process's share (it writes every output)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def case_batch(kind: str, count: int, jobs: int) -> dict[str, Any]:
    from chargen.batch import BatchOptions, run_batch
    from chargen.tables import load_tables

    tables = load_tables()
    with tempfile.TemporaryDirectory() as folder:
        target = str(Path(folder) / ("npcs.jsonl" if kind == "jsonl" else "records.pdf"))
        options = BatchOptions(
            count=count,
            seed=1,
            jobs=jobs,
            jsonl=target if kind == "jsonl" else None,
            pdf=target if kind == "pdf" else None,
        )
        started, cpu, own = time.perf_counter(), _cpu_seconds(), _own_cpu_seconds()
        run_batch(options, tables=tables)
        seconds, cpu, own = time.perf_counter() - started, _cpu_seconds() - cpu, _own_cpu_seconds() - own
        pages = 0
        if kind == "pdf":
            from pypdf import PdfReader

            pages = len(PdfReader(target).pages)
        size = Path(target).stat().st_size
    return {
        "seconds": seconds,
        "cpu": cpu,
        "batch_process_cpu": own,
        "count": count,
        "pages": pages,
        "bytes": size,
        **_peak_mb(),
    }


def case_jsonl_floor(count: int) -> dict[str, Any]:
    from chargen.batch.mix import Mix
    from chargen.batch.npc import Plan, make_character
    from chargen.model import to_document
    from chargen.tables import load_tables

    tables = load_tables()
    plan = Plan(1, Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes)), None, None, count)
    documents = [to_document(make_character(plan, number, tables)) for number in range(1, count + 1)]
    with (
        tempfile.TemporaryDirectory() as folder,
        open(Path(folder) / "floor.jsonl", "w", encoding="utf-8") as out,
    ):
        started, cpu = time.perf_counter(), _cpu_seconds()
        for document in documents:
            out.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
        seconds, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    return {"seconds": seconds, "cpu": cpu, "count": count, "pages": 0, **_peak_mb()}


def case_jsonl_work(count: int) -> dict[str, Any]:
    """The NPCs' own work without the batch around it: each made and turned into its JSONL line in a loop,
    nothing written. The 1-job batch's CPU time beyond this is the batch's own per-NPC overhead."""
    from chargen.batch.mix import Mix
    from chargen.batch.npc import Plan, json_line, make_character
    from chargen.tables import load_tables

    tables = load_tables()
    plan = Plan(1, Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes)), None, None, count)
    started, cpu = time.perf_counter(), _cpu_seconds()
    for number in range(1, count + 1):
        json_line(make_character(plan, number, tables))
    seconds, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    return {"seconds": seconds, "cpu": cpu, "count": count, "pages": 0, **_peak_mb()}


def case_pdf_floor(count: int) -> dict[str, Any]:
    from chargen.batch.mix import Mix
    from chargen.batch.npc import Plan, make_character
    from chargen.render import _page, pdf
    from chargen.tables import load_tables

    tables = load_tables()
    plan = Plan(1, Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes)), None, None, count)
    pages_html = [
        _page(make_character(plan, number, tables), tables, "letter", None, standalone=False)
        for number in range(1, count + 1)
    ]
    pdf.write_pdf(pages_html[0], default_template=True)  # fonts and stylesheets parsed, as in a worker
    started, cpu = time.perf_counter(), _cpu_seconds()
    pdfs = [pdf.write_pdf(page, default_template=True) for page in pages_html]
    seconds, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    from io import BytesIO

    from pypdf import PdfReader

    pages = sum(len(PdfReader(BytesIO(data)).pages) for data in pdfs)
    return {"seconds": seconds, "cpu": cpu, "count": count, "pages": pages, **_peak_mb()}


def run_case(arguments: list[str]) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, __file__, "--case", *arguments], capture_output=True, text=True, cwd=REPO, check=True
    )
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def line(label: str, result: dict[str, Any], floor: dict[str, Any] | None = None) -> str:
    """Wall seconds and rate, CPU seconds (all processes) and rate per CPU second, peak memory; beside a
    floor, how many times the floor's CPU time per NPC this took."""
    rate = result["count"] / result["seconds"]
    cpu_rate = result["count"] / result["cpu"]
    pages = f"{result['pages'] / result['seconds']:6.1f} pages/s" if result["pages"] else " " * 13
    ratio = ""
    if floor is not None:
        per_npc, floor_per_npc = result["cpu"] / result["count"], floor["cpu"] / floor["count"]
        ratio = f"   {per_npc / floor_per_npc:4.1f}x the floor's CPU"
    return (
        f"{label:<34} wall {result['seconds']:7.2f} s {rate:8.0f}/s {pages}  CPU {result['cpu']:7.2f} s "
        f"{cpu_rate:8.0f}/CPU-s   peak {result['peak_mb']:6.1f} MB (largest worker "
        f"{result['worker_peak_mb']:6.1f} MB){ratio}"
    )


def _alternating(count: int, repeat: int) -> dict[int, list[dict[str, Any]]]:
    """`repeat` runs of the 1-job and the 2-job batch, taken in turn, so a drift of the machine's speed
    reaches both alike."""
    runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    for _ in range(repeat):
        for jobs in (1, 2):
            runs[jobs].append(run_case(["jsonl", str(count), str(jobs)]))
    return runs


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the median wall time (the lower middle of an even count): a whole run, so its CPU and
    memory figures are its own."""
    return sorted(runs, key=lambda run: run["seconds"])[(len(runs) - 1) // 2]


def _speed_up(runs: dict[int, list[dict[str, Any]]]) -> str:
    ratios = sorted(one["seconds"] / two["seconds"] for one, two in zip(runs[1], runs[2], strict=True))
    middle = statistics.median(ratios)
    return (
        f"2 jobs: {middle:.2f}x one job's wall time (median of {len(ratios)} alternating pairs, "
        f"{ratios[0]:.2f}-{ratios[-1]:.2f}; an idle machine only)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small counts, for a smoke run")
    parser.add_argument(
        "--pdf-count", type=int, help="records in the big PDF batch (default 200; 2000 for the memory check)"
    )
    parser.add_argument("--data-only", action="store_true", help="the JSONL cases only, no PDF")
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs of the 1- and 2-job JSONL batch, alternating (default 5)"
    )
    parser.add_argument("--case", nargs="+", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.case:
        name, *rest = arguments.case
        numbers = [int(value) for value in rest]
        if name == "jsonl-floor":
            result = case_jsonl_floor(numbers[0])
        elif name == "jsonl-work":
            result = case_jsonl_work(numbers[0])
        elif name == "pdf-floor":
            result = case_pdf_floor(numbers[0])
        else:
            result = case_batch(name, numbers[0], numbers[1])
        print(json.dumps(result))
        return
    data_count, pdf_count = (2000, 20) if arguments.quick else (10_000, 200)
    pdf_count = arguments.pdf_count or pdf_count
    import os

    print(f"chargen batch benchmark, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print("CPU time counts every process (workers too); 2-job wall figures need an idle machine")
    floor = run_case(["jsonl-floor", str(data_count)])
    print(line(f"JSONL floor (json.dumps) x{data_count}", floor))
    work = run_case(["jsonl-work", str(data_count)])
    print(line(f"NPCs made + json_line, no batch x{data_count}", work, floor))
    startup = run_case(["jsonl", "1", "1"])
    runs = _alternating(data_count, max(1, arguments.repeat))
    for jobs in (1, 2):
        result = _median_run(runs[jobs])
        print(line(f"JSONL {data_count} NPCs, {jobs} job(s)", result, floor))
        if jobs > 1:
            print(
                f"  of its CPU, the batch process (start-up, its first NPCs, then writing): {result['batch_process_cpu']:.2f} s; "
                f"the workers: {result['cpu'] - result['batch_process_cpu']:.2f} s"
            )
        if jobs == 1:
            overhead = (result["cpu"] - work["cpu"]) / data_count * 1e6
            print(
                f"  the batch's own overhead: {overhead:+.1f} us CPU per NPC (1 job, beyond making the lines), "
                f"of which its start-up (the modules it imports, its first NPC; a batch of one NPC): "
                f"{startup['cpu'] * 1e3:.0f} ms of CPU, {startup['cpu'] / data_count * 1e6:.1f} us an NPC"
            )
    print(_speed_up(runs))
    if arguments.data_only:
        return
    pdf_floor = run_case(["pdf-floor", str(pdf_count)])
    print(line(f"PDF floor (WeasyPrint) x{pdf_count}", pdf_floor))
    small = run_case(["pdf", "20", "1"])
    print(line("PDF 20 NPCs, 1 job (memory baseline)", small, pdf_floor))
    for jobs in (1, 2):
        result = run_case(["pdf", str(pdf_count), str(jobs)])
        print(line(f"PDF {pdf_count} NPCs, {jobs} job(s)", result, pdf_floor))
        if jobs == 1:
            growth = result["peak_mb"] - small["peak_mb"]
            per_record = (result["bytes"] - small["bytes"]) / max(1, pdf_count - 20)
            print(
                f"  peak memory {growth:+.1f} MB over 20 records; file {per_record / 1024:.1f} kB per record"
            )


if __name__ == "__main__":
    main()
