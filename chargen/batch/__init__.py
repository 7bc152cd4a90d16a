"""chargen batch as a library: many NPCs, each a whole DragonQuest character, written as JSONL, CSV, one
character file each, one PDF of Character Records and/or a roster.

    summary = run_batch(BatchOptions(count=12, seed=7, archetype="bandit", jsonl="bandits.jsonl"))

NPC i of seed S is the same character whatever the count, the jobs or the other options; outputs are
byte-identical for any number of jobs; nothing is written unless the whole run succeeds. No click here.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from chargen.batch.mix import Mix, parse_mix
from chargen.errors import InputError
from chargen.output_kinds import BATCH_KINDS, KINDS
from chargen.vocabulary import GENDERS, PAPERS

if TYPE_CHECKING:
    from chargen.batch.groups import GroupPlan
    from chargen.batch.npc import Plan
    from chargen.batch.writers import Output
    from chargen.tables import Tables

__all__ = ["BatchOptions", "BatchSummary", "run_batch"]


@dataclass(frozen=True)
class BatchOptions:
    count: int  # NPCs; with `group`, how many such groups
    seed: int | None = None  # None: a fresh seed, reported in the summary so the run can be repeated
    archetype: str | None = None  # "fighter" or "fighter=3,adept=1"; None: every archetype alike
    race: str | None = None  # "orc" or "human=5,elf=1"; None: rolled by 6.3
    gender: str | None = None  # None: rolled (6.1)
    jsonl: str | None = None  # a path, or "-" for standard output
    csv: str | None = None  # a path, or "-"
    out: str | None = None  # a folder: one character file (YAML) per NPC
    pdf: str | None = None  # one PDF with every NPC's Character Record
    roster: str | None = None  # the roster: PDF, or HTML when it ends in .html
    statblock: str | None = None  # stat blocks: text, Markdown when it ends in .md, or "-"
    group: str | None = None  # a group of tables/groups.yaml, or "bandit=5,bandit-chief=1"
    force: bool = False  # overwrite existing outputs
    # Worker processes making NPCs while this one writes (one job: data NPCs are made here). None: every
    # core.
    jobs: int | None = None
    paper: str = "letter"
    template: str | None = None  # a GM's Character Record template, for --pdf
    tables_dir: str | None = None  # used when run_batch is given no tables
    fillable: bool = False  # --pdf's records with form fields
    export: str | None = None  # a virtual tabletop's JSON per NPC: "roll20" or "foundry" (chargen.export)
    export_dir: str | None = None  # the folder of `export`'s files
    # More outputs as (kind, path), kinds of chargen.output_kinds.BATCH_KINDS: several of one kind are
    # written from the same NPCs (a roster as HTML and as PDF), each NPC made once.
    outputs: tuple[tuple[str, str], ...] = ()

    def targets(self) -> list[tuple[str, str]]:
        """Every output as (kind, path): the named ones in the summary's order, then `outputs`."""
        named = {
            "jsonl": self.jsonl,
            "csv": self.csv,
            "out": self.out,
            "records": self.pdf,
            "roster": self.roster,
            "statblock": self.statblock,
            "export": self.export_dir,
        }
        for kind, _ in self.outputs:
            if kind not in BATCH_KINDS:
                raise InputError(f"outputs: {kind!r} is not a batch output ({', '.join(BATCH_KINDS)})")
        given = [(kind, path) for kind in BATCH_KINDS if (path := named[kind])]
        return given + list(self.outputs)


@dataclass(frozen=True)
class BatchSummary:
    count: int
    seed: int
    jobs: int
    seconds: float
    written: list[str] = field(default_factory=list)


def run_batch(
    options: BatchOptions,
    *,
    tables: Tables | None = None,
    progress: Callable[[int], None] | None = None,
    stdout: TextIO | None = None,
) -> BatchSummary:
    """Make the NPCs and write every output. `progress(n)` is told of each n NPCs done. Raises InputError
    for bad options before any work; on any failure every output's temporary is removed."""
    from chargen.output import commit_all
    from chargen.tables import load_tables

    started = time.perf_counter()
    tables = tables or load_tables(options.tables_dir)
    plan = checked_plan(options, tables)
    check_targets(options)
    jobs = options.jobs if options.jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise InputError(f"--jobs: must be at least 1, not {jobs}")
    outputs: list[Output] = []
    try:
        title = f"{plan.count} NPCs, seed {plan.run_seed}"
        outputs = _open_outputs(options, plan, stdout or sys.stdout, title=title, jobs=jobs, tables=tables)
        _make_into(outputs, plan, tables, jobs, progress)
        for output in outputs:
            output.finish()
        commit_all(outputs)
    except BaseException:
        for output in outputs:
            output.discard()
        raise
    written = [path for _, path in options.targets()]
    return BatchSummary(plan.count, plan.run_seed, jobs, time.perf_counter() - started, written)


def _make_into(
    outputs: list[Output], plan: Plan, tables: Tables, jobs: int, progress: Callable[[int], None] | None
) -> None:
    """Each NPC the workers make, added to every output in number order; `progress` is told every chunk of
    NPCs, or every NPC when each makes a record (slow enough to show one by one)."""
    from chargen.batch import workers

    report_every = 1 if plan.want_record else workers.chunk_size(plan.count, jobs)
    done_since_report = 0
    with contextlib.closing(workers.outputs(plan, tables, jobs)) as made:  # closed: workers end at once
        for npc in made:
            for output in outputs:
                output.add(npc)
            done_since_report += 1
            if progress is not None and (done_since_report >= report_every or npc.number == plan.count):
                progress(done_since_report)
                done_since_report = 0


def checked_plan(options: BatchOptions, tables: Tables) -> Plan:
    """The options as a plan for the workers; every choice checked against the tables first."""
    from chargen.api import new_seed
    from chargen.batch.npc import Plan

    if options.count < 1:
        raise InputError(f"--count: must be at least 1, not {options.count}")
    archetypes = (
        parse_mix(
            "--archetype", options.archetype, tables.archetypes, "an archetype (tables/archetypes.yaml)"
        )
        if options.archetype is not None
        else _every_archetype(tables)
    )
    races = (
        parse_mix("--race", options.race, tables.races, "a race (6.3)") if options.race is not None else None
    )
    _check_choices(options)
    group = _group(options, tables)
    count = options.count * group.size if group is not None else options.count
    return Plan(
        run_seed=options.seed if options.seed is not None else new_seed(),
        archetypes=archetypes,
        races=races,
        gender=options.gender,
        count=count,
        wanted=frozenset(kind for kind, _ in options.targets()),
        paper=options.paper,
        template=options.template,
        group=group,
        fillable=options.fillable,
        export=options.export if any(kind == "export" for kind, _ in options.targets()) else None,
    )


def _check_choices(options: BatchOptions) -> None:
    """The gender (6.1), template and paper asked for exist; --fillable comes with --pdf."""
    from chargen.names import unknown_name as unknown

    if options.gender is not None and options.gender not in GENDERS:
        raise unknown("--gender", options.gender, GENDERS, "a gender (6.1)")
    if options.template is not None and not Path(options.template).is_file():
        raise InputError(f"--template: {options.template} is not a file")
    if options.paper not in PAPERS:
        raise InputError(f"--paper: must be {' or '.join(PAPERS)}, not {options.paper!r}")
    if options.fillable and options.pdf is None:  # its fields are the records' PDF's
        from chargen.render.form import without_pdf

        raise without_pdf()


def _group(options: BatchOptions, tables: Tables) -> GroupPlan | None:
    """The --group asked for (tables/groups.yaml), which names its own archetypes: not with --archetype."""
    if options.group is None:
        return None
    from chargen.batch.groups import parse_group

    if options.archetype is not None:
        raise InputError("--group and --archetype: a group names its own archetypes; give one of them")
    return parse_group(options.group, tables, options.count)


def _every_archetype(tables: Tables) -> Mix:
    """Every archetype alike, but a group's leaders (tables/groups.yaml): they lead a --group, and a run
    without one stays as it was before they were added."""
    led = tuple(sorted(name for name in tables.archetypes if name not in tables.group_file.leaders))
    return Mix(led, (1.0,) * len(led))


def _open_outputs(
    options: BatchOptions, plan: Plan, stdout: TextIO, *, title: str, jobs: int, tables: Tables
) -> list[Output]:
    from chargen.batch.writers import WRITERS, Opening

    opening = Opening(stdout, options.force, plan.group, tables, options.paper, title, jobs)
    opened: list[Output] = []
    try:
        for kind, path in options.targets():
            opened.append(WRITERS[kind](path, opening))
    except BaseException:
        for output in opened:
            output.discard()
        raise
    return opened


def check_targets(options: BatchOptions) -> None:
    """Every output can be written, none is overwritten without --force: checked before any work."""
    from chargen.output import check_targets as check_names

    targets = [(KINDS[kind], path) for kind, path in options.targets()]
    if not targets:
        named = [KINDS[kind].option for kind in BATCH_KINDS]
        raise InputError(f"batch: give at least one output: {', '.join(named[:-1])} or {named[-1]}")
    if options.export_dir is not None or any(kind.key == "export" for kind, _ in targets):
        from chargen.export import check_format

        check_format(options.export, "--export")
    for kind, path in targets:
        if kind.folder:
            _check_folder(kind.option, path, options.force)
        elif path == "-" and not kind.standard_output:
            raise InputError(f"{kind.option}: a PDF cannot go to standard output (-); give a file name")
    check_names([(kind.option, path, kind.key) for kind, path in targets], force=options.force)
    for kind, path in targets:
        if path == "-":
            continue
        parent = Path(path).parent if str(Path(path).parent) else Path(".")
        if not parent.is_dir():
            raise InputError(f"{kind.option}: folder {parent} does not exist")


def _check_folder(option: str, path: str, force: bool) -> None:
    """A folder output (--out, --export): not standard output, not a file, empty unless --force."""
    if path == "-":
        raise InputError(f"{option}: a folder cannot be standard output (-); give a folder name")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{option}: {path} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise InputError(f"{option}: folder {path} is not empty; use --force to write into it")
