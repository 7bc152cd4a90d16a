"""The GM's page: many NPCs at once, made by `chargen batch` itself (chargen.batch.run_batch) in a process
of their own, with its progress on the page, the roster shown, and each file to download."""

from __future__ import annotations

import re
import secrets
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, redirect, request, url_for

from chargen import processes
from chargen.errors import ChargenError, InputError, shown
from chargen.output_kinds import KINDS
from chargen.web.context import browser, download, find_job, page, record_response, server
from chargen.web.jobs import (
    BATCH_FILES,
    LAYING_OUT,
    PREVIEW,
    batch_job,
    begun,
    outcome,
    read_progress,
    stopped,
)
from chargen.web.limits import choices
from chargen.web.pool import Batches
from chargen.web.state import Job

if TYPE_CHECKING:
    from chargen.batch import BatchOptions

#: NPCs a batch from the page may make (a run of `chargen batch` has no such limit).
MAX_NPCS = 1000
#: NPCs whose Character Records one PDF from the page may hold (about a third of a second each).
MAX_RECORDS = 300
pages = Blueprint("gm", __name__)
FIELDS = ("count", "groups", "seed", "archetype", "group", "race", "gender", "paper", "statblocks")
#: The stat blocks' one checkbox, and the file each of its formats is written to (one run of `chargen
#: batch` writes stat blocks in one format).
STATBLOCKS = "statblocks"
STATBLOCK_FORMATS = {"text": "statblocks.txt", "markdown": "statblocks.md"}
#: The command line's options as the page's fields name them, for the messages `chargen batch` gives.
FIELD_NAMES = {
    "--group": "Encounter group",
    "--archetype": "Archetypes",
    "--race": "Race",
    "--gender": "Gender",
    "--count": "How many",
    "--paper": "Paper",
}


@pages.get("/gm")
def gm_page(status: int = 200, problem: str = "", form: dict[str, str] | None = None) -> Response:
    tables = browser().rules.tables()
    return page(
        "gm.html",
        status,
        problem=problem,
        form=form or {"count": "10", "groups": "1", "paper": "letter", "statblocks": "text"},
        chosen=set(request.form.getlist("files")) if form else {"npcs.jsonl", "npcs.csv", "roster.pdf"},
        files={
            name: offered for name, offered in BATCH_FILES.items() if name not in STATBLOCK_FORMATS.values()
        },
        statblocks=STATBLOCKS,
        archetypes=sorted(tables.archetypes),
        groups={key: group.name for key, group in tables.groups.items()},
        races=sorted(tables.races),
        jobs=browser().jobs,
        max_npcs=MAX_NPCS,
        max_records=MAX_RECORDS,
    )


@pages.post("/gm")
def start() -> Response:
    form = {name: request.form.get(name, "").strip()[:200] for name in FIELDS}
    try:
        job = _start(form, _files(form, choices(request, "files")))
    except ChargenError as error:
        return gm_page(422, page_words(str(error)), form)
    return redirect(url_for("gm.job_page", key=job.key), 303)  # type: ignore[return-value]


def _files(form: dict[str, str], ticked: list[str]) -> tuple[str, ...]:
    """The files ticked, in the page's order; the stat blocks in the format chosen beside their box."""
    if STATBLOCKS in ticked:
        chosen = STATBLOCK_FORMATS.get(form["statblocks"])
        if chosen is None:
            raise InputError(f"Stat blocks: as text or as Markdown, not {shown(form['statblocks'])}")
        ticked = [*ticked, chosen]
    files = tuple(name for name in BATCH_FILES if name in ticked)
    if all(name in files for name in STATBLOCK_FORMATS.values()):  # one run writes one format
        raise InputError("Stat blocks: one format at a time, text or Markdown")
    return files


def page_words(message: str) -> str:
    """A message of `chargen batch` as the page says it: the page's field names for the command line's
    options, no file of the tables named, on one line."""
    for option, field_name in FIELD_NAMES.items():
        message = message.replace(option, field_name)
    message = re.sub(r" ?\(tables/[\w.-]+\)", "", message)
    message = re.sub(r"(a group )?of tables/groups\.yaml", "a shipped group", message)
    return " ".join(message.split())


def _count(form: dict[str, str]) -> int:
    """The NPCs asked for: with a group, how many such groups (empty: one), else how many NPCs."""
    from chargen.api_door import whole_number

    field, label = ("groups", "How many such groups") if form["group"] else ("count", "How many NPCs")
    count = whole_number(form[field] or ("1" if form["group"] else ""))
    if count is None or not 1 <= count <= MAX_NPCS:
        raise InputError(f"{label}: a whole number from 1 to {MAX_NPCS}, not {shown(form[field])}")
    return count


def _start(form: dict[str, str], files: tuple[str, ...]) -> Job:
    from chargen.api import new_seed
    from chargen.api_door import SEED_RANGE, seed_from_text
    from chargen.batch import BatchOptions, checked_plan

    count = _count(form)
    seed = seed_from_text(form["seed"]) if form["seed"] else new_seed()
    if seed is None:  # the CLI's own check: a `chargen batch --seed` the page shows is one the CLI takes
        raise InputError(f"Seed: {SEED_RANGE}, or empty for a new one; not {shown(form['seed'])}")
    options = BatchOptions(
        count=count,
        seed=seed,
        archetype=form["archetype"] or None,
        group=form["group"] or None,
        race=form["race"] or None,
        gender=form["gender"] or None,
        paper=form["paper"] or "letter",
    )
    rules = browser().rules
    npcs = checked_plan(options, rules.tables()).count  # every option checked here, on the page
    if npcs > MAX_NPCS:
        raise InputError(f"{npcs} NPCs; the page makes at most {MAX_NPCS} at once")
    if "records.pdf" in files and npcs > MAX_RECORDS:
        raise InputError(f"{npcs} Character Records; one PDF from the page holds at most {MAX_RECORDS}")
    folder = processes.scratch_folder("serve")  # a killed server's are removed at the next start
    job = Job(secrets.token_urlsafe(12), folder, files, npcs, _command(options, files, rules.names))
    try:
        begun(folder, npcs)
        server().batches.start(job.key, batch_job, rules, options, folder, files, npcs)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    server().store.add_job(browser(), job)
    return job


def _command(options: BatchOptions, files: tuple[str, ...], rules: list[str]) -> str:
    """The `chargen batch` command that writes the same files."""
    words = ["chargen", *(f"--rules={name}" for name in rules), "batch"]
    for name in ("count", "seed", "archetype", "group", "race", "gender"):
        value = getattr(options, name)
        if value is not None:
            words.append(f"--{name}={value}")
    if options.paper != "letter":
        words.append(f"--paper={options.paper}")
    words += [f"{KINDS[BATCH_FILES[name].kind].option}={name}" for name in files]
    return shlex.join(words)


@pages.get("/gm/jobs/<key>/status")
def job_status(key: str) -> Response:
    job = find_job(key)
    if job is None:
        return jsonify(state="gone", done=0, total=0)
    done, total, doing = read_progress(job.folder)
    ended = outcome(job.folder)
    if ended is None and not server().batches.running(job.key):
        ended = ("failed", "the batch stopped before it was done")
    what = "NPCs made; now laying out their PDF pages" if doing == LAYING_OUT else "NPCs made"
    return jsonify(
        state=ended[0] if ended else "running",
        done=done,
        total=total,
        what=what,
        message=ended[1] if ended else "",
    )


@pages.post("/gm/jobs/<key>/stop")
def stop(key: str) -> Response:
    """Stop a batch being made: its process ended, its outcome "stopped", its files gone with it."""
    job = find_job(key)
    if job is not None and outcome(job.folder) is None:
        server().batches.stop(job.key)
        stopped(job.folder)
    return redirect(url_for("gm.job_page", key=key), 303)  # type: ignore[return-value]


@pages.get("/gm/jobs/<key>")
def job_page(key: str) -> Response:
    job = find_job(key)
    if job is None:
        return gm_page(
            404, "That batch is no longer here: make it again (the same seed makes the same NPCs)."
        )
    status = job_status(key).get_json()
    return page("job.html", job=job, progress=status, files=BATCH_FILES, preview=PREVIEW)


@pages.get("/gm/jobs/<key>/files/<name>")
def job_file(key: str, name: str) -> Response:
    job = find_job(key)
    if job is None or (name not in job.files and name != PREVIEW) or outcome(job.folder) != ("done", ""):
        return gm_page(404, "There is no such file: the batch is gone, not done, or did not make it.")
    data = (Path(job.folder) / name).read_bytes()
    if name == PREVIEW:
        return record_response(data.decode("utf-8"))
    return download(data, name, BATCH_FILES[name].media_type(name))


def drop(batches: Batches, job: Job) -> None:
    """A job its browser no longer keeps: its batch stopped, its files deleted."""
    batches.stop(job.key)
    shutil.rmtree(job.folder, ignore_errors=True)
