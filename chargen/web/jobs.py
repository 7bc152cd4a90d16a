"""The work `chargen serve` does off the request thread, in its worker processes: a Character Record's PDF
and a GM's batch. Plain functions of plain, picklable arguments (no Flask here), so a worker imports only
chargen: each is exactly what the command line does with the same input (`chargen render`, `chargen batch`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from chargen.output_kinds import KINDS

if TYPE_CHECKING:
    from chargen.batch import BatchOptions
    from chargen.tables import Tables


@dataclass(frozen=True)
class RulesChoice:
    """The tables a browser chose: the server's folder, rulesets by name or path (the server's --rules and
    the shipped ones ticked on the page), and at most one GM's ruleset uploaded to the page, as (name,
    text); the same rules the CLI takes as --tables and --rules."""

    directory: str | None = None
    named: tuple[str, ...] = ()
    uploaded: tuple[tuple[str, str], ...] = ()

    def tables(self) -> Tables:
        """The tables with every ruleset layered, in order (load_tables caches them per process)."""
        from chargen.tables import load_tables
        from chargen.tables.overlay import find_ruleset, ruleset_from_text

        rulesets = [find_ruleset(name) for name in self.named]
        rulesets += [ruleset_from_text(text, name, f"{name}.yaml") for name, text in self.uploaded]
        return load_tables(self.directory, rulesets)

    @property
    def names(self) -> list[str]:
        return [*self.named, *(name for name, _ in self.uploaded)]

    def anchored(self) -> RulesChoice:
        """The same rules named wherever the server runs from: the folder and each ruleset file by its
        absolute path (a shipped ruleset by name), as a kept walk records them."""
        named = tuple(ruleset_record(spec)["rules"] for spec in self.named)
        return replace(self, directory=kept_directory(self.directory), named=named)


def kept_directory(directory: str | None) -> str | None:
    """How a kept walk records its --tables folder: by its absolute path, so a server started again from
    another folder (or with the path typed otherwise) reads the same tables."""
    return str(Path(directory).resolve()) if directory is not None else None


def ruleset_record(spec: str) -> dict[str, str]:
    """How a kept walk records one of its rulesets (--rules NAME|FILE): a shipped one by name, a file by its
    absolute path, each with its content's digest (which ruleset it is, as a character file records it).
    A file gone since is recorded as it was named: reading the walk back then names what is missing."""
    from chargen.errors import ChargenError
    from chargen.tables.overlay import find_ruleset

    try:
        ruleset = find_ruleset(spec)
    except ChargenError:
        return {"rules": spec}
    return {"rules": spec if ruleset.shipped else str(Path(spec).resolve()), "sha256": ruleset.digest}


def ruleset_from_record(record: object) -> str:
    """A kept walk's ruleset read back: its name or path (a walk kept by an earlier version recorded the
    path as typed)."""
    return str(record["rules"]) if isinstance(record, dict) else str(record)


def record_pdf(rules: RulesChoice, document: str, paper: str, fillable: bool = False) -> bytes:
    """`chargen render FILE --pdf [--fillable]`: the character file built, its Character Record printed."""
    from chargen import api
    from chargen.render import render_pdf

    tables = rules.tables()
    return render_pdf(api.build(document, tables=tables), tables, paper=paper, fillable=fillable)


@dataclass(frozen=True)
class Offered:
    """A file the page offers: its kind (a key of chargen.output_kinds.KINDS, which gives its label and
    media type) and what tells it from the kind's other files on the page."""

    kind: str
    detail: str = ""

    @property
    def label(self) -> str:
        label = KINDS[self.kind].label
        return f"{label} ({self.detail})" if self.detail else label

    def media_type(self, name: str) -> str:
        return KINDS[self.kind].media_type(name)


#: What a GM's batch writes, by file name in the job's folder.
BATCH_FILES = {
    "npcs.jsonl": Offered("jsonl"),
    "npcs.csv": Offered("csv"),
    "statblocks.txt": Offered("statblock", "text"),
    "statblocks.md": Offered("statblock", "Markdown"),
    "roster.pdf": Offered("roster", "PDF"),
    "records.pdf": Offered("records"),
}
PREVIEW = "roster.html"
PROGRESS = "progress"
DONE = "done"
FAILED = "failed"


def batch_job(
    rules: RulesChoice, options: BatchOptions, folder: str, files: tuple[str, ...], npcs: int
) -> None:
    """`batch`, its outcome left in the folder for the page: a `done` file, or `failed` with one line."""
    from chargen.errors import ChargenError

    try:
        batch(rules, options, folder, files, npcs)
    except ChargenError as error:
        _write(folder, FAILED, " ".join(str(error).split()))
    except Exception as error:  # reported on the page in one line; the server goes on
        _write(folder, FAILED, f"the batch stopped: {type(error).__name__}")
    else:
        _write(folder, DONE, "")


def outcome(folder: str) -> tuple[str, str] | None:
    """("done", "") or ("failed", why) once the batch has ended; None while it runs."""
    for name in (DONE, FAILED):
        path = Path(folder) / name
        if path.exists():
            return name, path.read_text(encoding="utf-8")
    return None


def begun(folder: str, npcs: int) -> None:
    """The progress of a batch about to start (nothing made yet), so the page never shows "0 of 0"."""
    _write_progress(folder, 0, npcs, MAKING)


def batch(rules: RulesChoice, options: BatchOptions, folder: str, files: tuple[str, ...], npcs: int) -> None:
    """`chargen batch` with `options`, writing each of `files` (names of BATCH_FILES) and the roster's HTML
    for the page into `folder`: one run, each NPC made once for every output, as the command line's with
    those outputs. Progress goes to the folder's `progress` file as `done total doing` (NPCs made, and
    whether their PDFs are being laid out), replaced whole each time. `npcs`: how many NPCs the run makes."""
    from chargen.batch import run_batch

    kinds = [BATCH_FILES[name].kind for name in files]
    outputs = [(kind, str(Path(folder) / name)) for kind, name in zip(kinds, files, strict=True)]
    outputs.append(("roster", str(Path(folder) / PREVIEW)))
    # once the last NPC is made, its PDFs are laid out (a roster or records of many NPCs take a while)
    lays_out = any(kind in ("roster", "records") for kind in kinds)
    done = 0

    def report(count: int) -> None:
        nonlocal done
        done += count
        _write_progress(folder, done, npcs, LAYING_OUT if lays_out and done == npcs else MAKING)

    run = replace(options, outputs=tuple(outputs), jobs=1, force=True)
    run_batch(run, tables=rules.tables(), progress=report)
    _write_progress(folder, npcs, npcs, MAKING)


#: What a batch is doing, as its progress says: making NPCs, or laying out the PDF pages of those made.
MAKING = "making"
LAYING_OUT = "laying-out"


def _write_progress(folder: str, done: int, total: int, doing: str) -> None:
    _write(folder, PROGRESS, f"{done} {total} {doing}\n")


def _write(folder: str, name: str, text: str) -> None:
    """A small file the page reads, written aside and renamed so it is never read half written."""
    path = Path(folder) / name
    aside = path.with_name(name + ".part")
    aside.write_text(text, encoding="utf-8")
    os.replace(aside, path)


def read_progress(folder: str) -> tuple[int, int, str]:
    """(done, total, doing) of a batch so far (NPCs made, of how many, and MAKING or LAYING_OUT); nothing
    made before its first report."""
    try:
        done, total, doing = (Path(folder) / PROGRESS).read_text(encoding="ascii").split()
        return int(done), int(total), doing
    except (OSError, ValueError):
        return 0, 0, MAKING


def stopped(folder: str) -> None:
    """A batch the GM stopped: its outcome, for the page."""
    _write(folder, FAILED, "stopped, as you asked; nothing was kept")
