"""The new-character page: chargen.walkthrough's walk, one step a page, with the record beside it.

The steps, their rules, wording and checks are the walk's (the same as `chargen new`); this module only
replays the browser's answers, shows the current question, and passes on what the player typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, Response, redirect, request

from chargen.api_door import whole_number
from chargen.errors import ChargenError, InputError
from chargen.walkthrough import Walk, new_walk
from chargen.walkthrough.walk import command_of
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
    # --fillable: what changes in play as form fields, to keep up on a tablet (docs/fillable.md)
    "fillable-letter.pdf": ("fillable Character Record, PDF (Letter)", "application/pdf"),
    "fillable-a4.pdf": ("fillable Character Record, PDF (A4)", "application/pdf"),
}


@dataclass(frozen=True)
class Taken:
    """A step already answered, as the walk told it."""

    key: str
    shown: str


@dataclass
class Replayed:
    """A browser's walk as its answers make it, and the steps taken with what the walk said of each."""

    made_of: tuple[object, ...]
    walk: Walk
    taken: list[Taken]


def _made_of(state: Browser) -> tuple[object, ...]:
    return (state.seed, state.rules, tuple(state.answers))


def replayed(state: Browser) -> Replayed:
    """The browser's walk: its seed, then each accepted answer again (a walk repeats exactly). The last one
    is kept, so a step answered or undone changes it rather than replaying every step (state.lock held)."""
    kept = state.walk
    if isinstance(kept, Replayed) and kept.made_of == _made_of(state):
        return kept
    walk = new_walk(state.rules.tables(), state.seed)
    taken: list[Taken] = []
    for index, text in enumerate(state.answers):
        question = walk.current
        try:
            if question is None:
                raise InputError("the walk is done")
            taken.append(Taken(question.key, walk.answer(text)))
        except ChargenError:  # cannot happen with the same rules; the walk goes on from what still holds
            del state.answers[index:]
            break
    made = Replayed(_made_of(state), walk, taken)
    state.walk = made
    return made


#: What the page answers to the walk's words other than `back` typed in the entry box.
TYPED = {
    "help": 'This step\'s rule is above and what it accepts is under "More about this step".',
    "quit": "Nothing is kept until you download it: close the page to leave, or press Start again.",
}


def _help(walk: Walk) -> str:
    """What the step accepts, in full (what the terminal's `help` says of it), where the walk gives it."""
    question = walk.current
    return question.accepts(walk) if question is not None and question.accepts is not None else ""


def walk_page(error: str = "", entry: str = "", status: int = 200, notice: str = "") -> Response:
    state = browser()
    with state.lock:
        made = replayed(state)
        walk, question = made.walk, made.walk.current
        return page(
            "walk.html",
            status,
            walk=walk,
            question=question,
            explain=question.explain(walk) if question else "",
            ask=question.ask(walk) if question else "",
            help=_help(walk) if question else "",
            taken=made.taken,
            error=error,
            notice=notice,
            entry=entry,
            downloads=DOWNLOADS if question is None else {},
            name=walk.document().name if question is None else "",
        )


def take() -> Response:
    state = browser()
    action = request.form.get("action", "take")
    # The walk's own words typed in the entry box do what its buttons do, as at the terminal's prompt.
    typed = command_of(request.form.get("entry", "")) if action == "take" else None
    if typed == "back":
        action = "back"
    elif typed is not None:
        return walk_page(notice=TYPED[typed])
    if action in ("take", "roll"):
        return _answer(state, "" if action == "roll" else request.form.get("entry", ""))
    with state.lock:
        if action == "restart":
            from chargen.api import new_seed

            state.answers, state.seed = [], new_seed()
        elif action == "back" or action.startswith("back-to-"):
            keep = len(state.answers) - 1 if action == "back" else whole_number(action[8:])
            if keep is not None:  # not a step's number ("back-to-²", 5,000 digits): nothing to undo
                _back_to(state, max(0, keep))
    return redirect("/new", 303)  # type: ignore[return-value]


def _back_to(state: Browser, keep: int) -> None:
    """Undo the steps after the first `keep`, with the walk's own `back`."""
    made = replayed(state)
    while len(state.answers) > keep and made.walk.back():
        state.answers.pop()
        made.taken.pop()
    made.made_of = _made_of(state)


def _answer(state: Browser, entry: str) -> Response:
    with state.lock:
        made = replayed(state)
        question = made.walk.current
        if question is None:
            refused, status = "The character is complete: download it below, or go back a step.", 409
        elif request.form.get("step") != question.key:
            refused, status = "That form was for another step; here is the step the walk is at.", 409
        else:
            try:
                if len(entry) > MAX_ENTRY or len(state.answers) >= MAX_ANSWERS:
                    raise InputError(f"{question.key}: an entry is at most {MAX_ENTRY} characters")
                made.taken.append(Taken(question.key, made.walk.answer(entry)))
            except ChargenError as error:
                refused, status = " ".join(str(error).split()), 422
            else:
                state.answers.append(entry)
                made.made_of = _made_of(state)
                return redirect("/new", 303)  # type: ignore[return-value]
    return walk_page(refused, entry[:MAX_ENTRY] if status == 422 else "", status)


def record() -> Response:
    from chargen.render import render_html

    state = browser()
    with state.lock:
        walk = replayed(state).walk
        return record_response(render_html(walk.preview(), walk.tables))


def file_download(kind: str) -> Response:
    from chargen.character_file import dump_document
    from chargen.render import render_html

    if kind not in DOWNLOADS:
        return walk_page("There is no such download.", status=404)
    state = browser()
    with state.lock:
        walk = replayed(state).walk
        if walk.current is not None:
            document = None
        else:
            document = walk.document()
            html = render_html(document, walk.tables) if kind == "html" else ""
    if document is None:
        return walk_page("Finish the steps first: the downloads are of the whole character.", status=409)
    name = _slug(document.name)
    if kind in ("yaml", "json"):
        return download(dump_document(document, kind), f"{name}.{kind}", DOWNLOADS[kind][1])
    if kind == "html":
        return download(html, f"{name}.html", "text/html")
    paper = kind.removesuffix(".pdf")
    fillable = paper.startswith("fillable-")
    data = server().pool.run(
        record_pdf, state.rules, dump_document(document, "yaml"), paper.removeprefix("fillable-"), fillable
    )
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
