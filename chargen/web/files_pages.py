"""Open a character file (uploaded or pasted) and choose house rules: both read by chargen's own loaders,
with the same limits and checks as a file on the command line."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from flask import Blueprint, Response, redirect, request, url_for

from chargen.errors import ChargenError, InputError, format_path
from chargen.tables.memo import per_tables
from chargen.web.context import browser, page, record_response, server
from chargen.web.downloads import DOWNLOADS, character_file
from chargen.web.jobs import RulesChoice
from chargen.web.limits import choices
from chargen.yamlio import MAX_BYTES, decode

if TYPE_CHECKING:
    from chargen.api import Built
    from chargen.model import Character
    from chargen.tables import Tables

#: A name the page shows for an upload: its file name, cut to letters, digits and a few marks.
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
pages = Blueprint("files", __name__)


@dataclass(frozen=True)
class Shown:
    """One problem as the page lists it: where (file:line:column), key path, what, and the rule."""

    place: str
    path: str
    message: str
    rule: str


def _upload(field: str, paste: str = "") -> tuple[str, str] | None:
    """(name, text) of an uploaded file, else of pasted text; None when neither was given. Decoded by
    chargen.yamlio as a file is: UTF-8, at most MAX_BYTES."""
    sent = request.files.get(field)
    if sent is not None and sent.filename:
        name = _UNSAFE.sub("-", sent.filename.rsplit("/", 1)[-1])[:60] or "upload"
        return name, decode(sent.stream.read(MAX_BYTES + 1), name)
    text = request.form.get(paste, "") if paste else ""
    if text.strip():  # pasted, or an opened file's text as fixed in the editor: it keeps its name
        name = _UNSAFE.sub("-", request.form.get("name", ""))[:60] or "pasted"
        return name, decode(text.encode("utf-8"), name)
    return None


def _problems(error: ChargenError) -> list[Shown]:
    items = error.items if isinstance(error, InputError) else []
    if not items:
        return [Shown("", "", " ".join(str(error).split()), "")]
    return [
        Shown(item.place or "", item.label or format_path(item.path), item.message, item.rule or "")
        for item in items
    ]


@dataclass(frozen=True)
class Opened:
    """An opened file built once: every look at it (its page, record and downloads) is this character."""

    name: str
    text: str
    built: Built | None
    error: ChargenError | None


@per_tables(8)
def _built(name: str, text: str, tables: Tables) -> Opened:
    from chargen import api

    try:
        return Opened(name, text, api.built(text, name, tables=tables), None)
    except ChargenError as error:  # kept without its traceback: its frames would hold the Tables
        return Opened(name, text, None, error.with_traceback(None))


def _opened() -> Opened | None:
    opened = browser().opened
    return None if opened is None else _built(opened[0], opened[1], browser().rules.tables())


@pages.get("/open")
def open_page(status: int = 200, problems: list[Shown] | None = None) -> Response:
    opened = _opened()
    if not problems and opened is not None and opened.error is not None:
        problems = _problems(opened.error)
    found = list(problems or [])
    made = opened.built if opened is not None and not found else None
    return page(
        "open.html",
        status if not found else 422,
        opened=None if opened is None else (opened.name, opened.text),
        problems=found,
        stale=made.stale if made is not None else (),
        rolled=made.rolled if made is not None and made.text_seed is not None else (),
        downloads=DOWNLOADS,
    )


@pages.post("/open")
def open_file() -> Response:
    try:
        sent = _upload("file", "text")
    except ChargenError as error:
        return open_page(problems=_problems(error))
    if sent is None:
        return open_page(problems=[Shown("", "", "Choose a file to upload, or paste one.", "")])
    server().store.open_file(browser(), sent)
    return redirect(url_for("files.open_page"), 303)  # type: ignore[return-value]


def _opened_character() -> Character:
    """The opened file's character, as built when it was opened (a ChargenError when it does not build)."""
    opened = _opened()
    if opened is None:
        raise InputError("open a character file first")
    if opened.error is not None:
        raise opened.error.with_traceback(None)  # each raise its own frames, not the last one's too
    assert opened.built is not None  # built, or its error
    return opened.built.character


@pages.get("/open/record.html")
def opened_record() -> Response:
    from chargen.render import render_html

    # each derived value opens to its working, as `chargen render --html --explain` writes it
    return record_response(render_html(_opened_character(), browser().rules.tables(), explain=True))


@pages.get("/open/character.<kind>")
def opened_download(kind: str) -> Response:
    if kind not in DOWNLOADS:
        return open_page(404, [Shown("", "", "There is no such download.", "")])
    return character_file(_opened_character(), browser().rules.tables(), browser().rules, kind)


@pages.get("/rules")
def rules_page(status: int = 200, problem: str = "") -> Response:
    from chargen.tables.overlay import shipped_dir, shipped_names

    shipped = {
        name: (shipped_dir() / f"{name}.yaml").read_text(encoding="utf-8").partition("\n")[0].lstrip("# ")
        for name in shipped_names()
    }
    return page(
        "rules.html",
        status,
        shipped=shipped,
        rules=browser().rules,
        problem=problem,
        steps=len(browser().answers),
    )


@pages.post("/rules")
def choose_rules() -> Response:
    from chargen.tables.overlay import shipped_names

    state = browser()
    shipped = set(shipped_names())  # the folder read once, whatever names the form sends
    chosen = [name for name in choices(request, "shipped") if name in shipped]
    uploaded = state.rules.uploaded if request.form.get("keep") == "yes" else ()
    try:
        sent = _upload("ruleset")
        if sent is not None:
            uploaded = ((sent[0].rsplit(".", 1)[0] or "house", sent[1]),)
        default = server().store.default_rules
        files = tuple(name for name in default.named if name not in shipped)  # the server's --rules
        rules = replace(default, named=(*chosen, *files), uploaded=uploaded)
        rules.tables()  # checked now: every problem of the ruleset on the page
    except ChargenError as error:
        return rules_page(422, " ".join(str(error).split()))
    if rules != state.rules:
        if state.answers and request.form.get("confirmed") != "yes":
            return rules_page(409, "tick the box to start a new walk under these rules")
        with state.lock:  # a walk is made under one set of rules: a new one, the old kept for undo
            server().store.choose_rules(state, rules)
    return redirect(url_for("files.rules_page"), 303)  # type: ignore[return-value]


__all__ = ["RulesChoice"]
