"""Benchmark of `chargen batch --pdf`: memory, speed and file size as the record count grows.

    python tests/bench/bench_pdf_batch.py                  # 20, 200 and 2,000 records, 1 job
    python tests/bench/bench_pdf_batch.py --counts 20 200  # fewer, for a quicker run
    python tests/bench/bench_pdf_batch.py --jobs 2         # 2-job figures need an idle machine

Each case runs in a fresh Python process, so its peak memory is its own: the peak resident size of the
batch process and of its largest child (ru_maxrss: a worker; the records are made by workers replaced every
chargen.batch.workers.RECORDS_PER_WORKER records while the batch process writes), and the peak of the
memory the whole process tree holds, sampled every 0.1 s as the sum of each process's proportional set
size (Pss): a forked worker's resident size counts the pages it still shares with the batch process, which
Pss counts once. The floor is WeasyPrint alone turning the same record
HTML into PDFs, one after another in one process (no batch, no merging): its pages/s are the pace the
batch can at best reach, and its own memory growth shows what WeasyPrint keeps per record.
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))  # bench_batch, for its floor
#: Records the floor renders: enough for a steady pace and a visible memory growth.
FLOOR_COUNT = 40


def _usage() -> dict[str, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "cpu": own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime,
        "peak_mb": round(own.ru_maxrss / 1024, 1),  # kilobytes on Linux
        "worker_peak_mb": round(workers.ru_maxrss / 1024, 1),
    }


def case_batch(count: int, jobs: int, target: str) -> dict[str, Any]:
    """The batch alone, writing `target`: its pages are counted by the caller once this process has ended,
    because reading a 2,000-record PDF back (pypdf) holds more memory than making it, and the tree's memory
    is sampled for as long as this process runs."""
    from chargen.batch import BatchOptions, run_batch
    from chargen.tables import load_tables

    tables = load_tables()
    options = BatchOptions(count=count, seed=1, jobs=jobs, pdf=target)
    started, cpu = time.perf_counter(), _usage()["cpu"]
    run_batch(options, tables=tables)
    seconds = time.perf_counter() - started
    usage = _usage()
    return {
        "count": count,
        "seconds": seconds,
        "bytes": Path(target).stat().st_size,
        **usage,
        "cpu": usage["cpu"] - cpu,
    }


def run_batch_case(count: int, jobs: int) -> dict[str, Any]:
    from pypdf import PdfReader

    with tempfile.TemporaryDirectory() as folder:
        target = str(Path(folder) / "records.pdf")
        result = run_case(["batch", str(count), str(jobs), target])
        return {**result, "pages": len(PdfReader(target).pages)}


def case_floor(count: int) -> dict[str, Any]:
    """WeasyPrint alone, warm, on the batch's own record pages (bench_batch's floor), and what WeasyPrint
    keeps in memory per record: the first record's page made `count` times more, resident size before
    and after."""
    from bench_batch import case_pdf_floor

    from chargen import api
    from chargen.render import _page, pdf
    from chargen.tables import load_tables

    result = case_pdf_floor(count)
    tables = load_tables()
    page = _page(api.roll(seed=1, tables=tables), tables, "letter", None, standalone=False)
    pdf.write_pdf(page, default_template=True)
    before = _resident_mb()
    for _ in range(count):
        pdf.write_pdf(page, default_template=True)
    return {**result, "bytes": 0, "growth_mb_per_record": (_resident_mb() - before) / count}


def _resident_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _tree(pid: int) -> list[int]:
    """The process and its descendants, as /proc lists them now."""
    found, index = [pid], 0
    while index < len(found):
        try:
            for task in os.listdir(f"/proc/{found[index]}/task"):
                with open(f"/proc/{found[index]}/task/{task}/children", encoding="ascii") as children:
                    found.extend(int(child) for child in children.read().split())
        except OSError:
            pass  # the process ended while it was read
        index += 1
    return found


def _shares_memory(pid: int, other: int) -> bool:
    """Whether two processes share one address space (kcmp KCMP_VM): a child made by vfork, as
    ctypes.util.find_library's helpers are, shows its parent's whole memory until it runs its program,
    and counted again it would double the tree for that instant."""
    import ctypes

    kcmp, kcmp_vm = 312, 1  # x86-64 Linux; elsewhere the call fails and every process counts
    return bool(ctypes.CDLL(None, use_errno=True).syscall(kcmp, pid, other, kcmp_vm, 0, 0) == 0)


def _pss_mb(pids: list[int]) -> float:
    total = 0
    for index, pid in enumerate(pids):
        if any(_shares_memory(pid, counted) for counted in pids[:index]):
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def run_case(arguments: list[str]) -> dict[str, Any]:
    """One case in a fresh process, its tree's memory (Pss) sampled until it ends."""
    with subprocess.Popen(
        [sys.executable, __file__, "--case", *arguments], stdout=subprocess.PIPE, text=True, cwd=REPO
    ) as process:
        tree_peak = 0.0
        while process.poll() is None:
            tree_peak = max(tree_peak, _pss_mb(_tree(process.pid)))
            time.sleep(0.1)
        output = process.stdout.read() if process.stdout else ""
    if process.returncode:
        raise SystemExit(f"case {arguments} failed with exit {process.returncode}")
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return {**result, "tree_pss_mb": round(tree_peak, 1)}


def line(label: str, result: dict[str, Any]) -> str:
    per_record = f"{result['bytes'] / result['count'] / 1024:6.1f} kB/record" if result["bytes"] else ""
    return (
        f"{label:<28} wall {result['seconds']:7.1f} s {result['pages'] / result['seconds']:5.2f} pages/s  "
        f"CPU {result['cpu']:7.1f} s {result['pages'] / result['cpu']:5.2f} pages/CPU-s  "
        f"peak {result['peak_mb']:6.1f} MB, largest child {result['worker_peak_mb']:6.1f} MB, "
        f"all processes {result['tree_pss_mb']:6.1f} MB Pss  {per_record}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", type=int, nargs="+", default=[20, 200, 2000])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--case", nargs="+", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.case:
        name, *numbers = arguments.case
        if name == "floor":
            result = case_floor(int(numbers[0]))
        else:
            result = case_batch(int(numbers[0]), int(numbers[1]), numbers[2])
        print(json.dumps(result))
        return
    print(f"chargen PDF batch benchmark, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"{arguments.jobs} job(s); CPU time counts every process")  # fmt: skip
    floor = run_case(["floor", str(FLOOR_COUNT)])
    print(line(f"floor: WeasyPrint x{FLOOR_COUNT}", floor))
    print(f"  WeasyPrint alone keeps {floor['growth_mb_per_record'] * 1024:.0f} kB a record")
    for count in arguments.counts:
        print(line(f"batch --pdf, {count} records", run_batch_case(count, arguments.jobs)))


if __name__ == "__main__":
    main()
