"""The new-character page: chargen.walkthrough's walk, one step a page, with the record beside it.

The steps, their rules, wording and checks are the walk's (the same as `chargen new`); this module only
replays the browser's answers, shows the current question, and passes on what the player typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, Response, redirect, request

from chargen.errors import ChargenError, InputError
from chargen.walkthrough import Walk, new_walk
from chargen.web.app import browser, download, page, record_response, server
from chargen.web.jobs import record_pdf
from chargen.web.state import MAX_ANSWERS, Browser

#: Longest entry at a step (a name, a list of weapons); longer is refused before the walk sees it.
MAX_ENTRY = 500
DOWNLOADS = {
    "yaml": ("character file (YAML)", "application/yaml"),
    "json": ("character file (JSON)", "application/json"),
    "html": ("Character Record (HTML)", "text/html"),
    "letter.pdf": ("Character Record, PDF (Letter)", "application/pdf"),
    "a4.pdf": ("Character Record, PDF (A4)", "application/pdf"),
}


@dataclass(frozen=True)
class Taken:
    """A step already answered, as the walk told it."""

    key: str
    shown: str


def replayed(state: Browser) -> tuple[Walk, list[Taken]]:
    """The browser's walk: its seed, then each accepted answer again (a walk repeats exactly)."""
    walk = new_walk(state.rules.tables(), state.seed)
    taken: list[Taken] = []
    for text in state.answers:
        question = walk.current
        if question is None:
            break
        taken.append(Taken(question.key, walk.answer(text)))
    return walk, taken


def _help(walk: Walk) -> str:
    """A step's longer help, where the walk gives one."""
    question = walk.current
    told = getattr(question, "help", None)
    if callable(told):
        told = told(walk)
    return told if isinstance(told, str) else ""


def walk_page(error: str = "", entry: str = "", status: int = 200) -> Response:
    walk, taken = replayed(browser())
    question = walk.current
    return page(
        "walk.html",
        status,
        walk=walk,
        question=question,
        explain=question.explain(walk) if question else "",
        ask=question.ask(walk) if question else "",
        help=_help(walk) if question else "",
        taken=taken,
        error=error,
        entry=entry,
        downloads=DOWNLOADS if question is None else {},
        name=walk.document().name if question is None else "",
    )


def take() -> Response:
    state = browser()
    action = request.form.get("action", "take")
    if action == "restart":
        from chargen.api import new_seed

        state.answers, state.seed = [], new_seed()
    elif action == "back":
        del state.answers[-1:]
    elif action.startswith("back-to-"):
        step = action.removeprefix("back-to-")
        if step.isdigit():
            del state.answers[int(step) :]
    elif action in ("take", "roll"):
        return _answer(state, "" if action == "roll" else request.form.get("entry", ""))
    return redirect("/new", 303)  # type: ignore[return-value]


def _answer(state: Browser, entry: str) -> Response:
    walk, _ = replayed(state)
    question = walk.current
    shown_entry = entry[:MAX_ENTRY]
    if question is None:
        return walk_page("The character is complete: download it below, or go back a step.", status=409)
    if request.form.get("step") != question.key:
        return walk_page("That form was for another step; here is the step the walk is at.", status=409)
    try:
        if len(entry) > MAX_ENTRY or len(state.answers) >= MAX_ANSWERS:
            raise InputError(f"{question.key}: an entry is at most {MAX_ENTRY} characters")
        walk.answer(entry)
    except ChargenError as refused:
        return walk_page(" ".join(str(refused).split()), shown_entry, status=422)
    state.answers.append(entry)
    return redirect("/new", 303)  # type: ignore[return-value]


def record() -> Response:
    from chargen.render import render_html

    walk, _ = replayed(browser())
    return record_response(render_html(walk.preview(), walk.tables))


def file_download(kind: str) -> Response:
    from chargen.character_file import dump_document
    from chargen.render import render_html

    walk, _ = replayed(browser())
    if kind not in DOWNLOADS:
        return walk_page("There is no such download.", status=404)
    if walk.current is not None:
        return walk_page("Finish the steps first: the downloads are of the whole character.", status=409)
    document = walk.document()
    name = _slug(document.name)
    if kind in ("yaml", "json"):
        return download(dump_document(document, kind), f"{name}.{kind}", DOWNLOADS[kind][1])
    if kind == "html":
        return download(render_html(document, walk.tables), f"{name}.html", "text/html")
    paper = kind.removesuffix(".pdf")
    data = server().pool.run(record_pdf, browser().rules, dump_document(document, "yaml"), paper)
    return download(data, f"{name}-{paper}.pdf", "application/pdf")


def _slug(name: str) -> str:
    """The file name a download is offered under, as `chargen new` offers it."""
    return (
        "-".join("".join(c if c.isalnum() and c.isascii() else " " for c in name.lower()).split())
        or "character"
    )


def register(app: Flask) -> None:
    app.add_url_rule("/new", "walk", lambda: walk_page())
    app.add_url_rule("/new", "take", take, methods=["POST"])
    app.add_url_rule("/new/record.html", "walk_record", record)
    app.add_url_rule("/new/character.<kind>", "walk_download", file_download)
