"""Your characters: every walk this browser keeps on this computer, the one in hand and those put aside
(Start again, Back to here, other rules), finished or not, each to resume, download or delete."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Response, redirect, request, url_for

from chargen.web.context import browser, page, server
from chargen.web.downloads import DOWNLOADS, character_file
from chargen.web.saved import Kept
from chargen.web.state import Browser
from chargen.web.walk_pages import replay, replayed

pages = Blueprint("saved", __name__)


@dataclass(frozen=True)
class Listed:
    """A saved character as the list shows it."""

    ident: str
    label: str
    finished: bool
    steps: int
    rules: list[str]


def _listed(kept: Kept, ident: str) -> Listed:
    if kept.label is None:  # a walk put aside does not change: replayed once
        walk, _ = replay(kept)
        if walk.current is None:
            kept.label = (walk.document().name, True)
        else:
            concept = (walk.concept or "no concept chosen yet").replace("-", " ").capitalize()
            kept.label = (f"{concept}, unfinished", False)
    label, finished = kept.label
    return Listed(ident, label, finished, len(kept.answers), kept.rules.names)


@pages.get("/saved")
def saved_page(status: int = 200, confirm: str = "") -> Response:
    state = browser()
    with state.lock:
        aside = [_listed(kept, kept.ident()) for kept in reversed(state.walks.aside)]
        walk = replayed(state).walk
        name = walk.document().name if walk.current is None else ""
        in_hand = Listed("", name, walk.current is None, len(state.answers), state.rules.names)
    asked = next((listed for listed in aside if listed.ident == confirm), None)
    return page(
        "saved.html", status, aside=aside, in_hand=in_hand, downloads=DOWNLOADS, confirm=asked, problem=status
    )


@pages.post("/saved")
def change_saved() -> Response:
    state = browser()
    action, ident = request.form.get("action", ""), request.form.get("walk", "")
    with state.lock:
        found = state.find_aside(ident) is not None
        asked = action == "delete" and request.form.get("confirmed") != "yes"
        if found and not asked:
            _change(state, action, ident)
    if not found or asked:  # the list's page takes the lock itself
        return saved_page(404) if not found else saved_page(409, confirm=ident)
    where = "walk.walk_page" if action == "resume" else "saved.saved_page"
    return redirect(url_for(where), 303)  # type: ignore[return-value]


def _change(state: Browser, action: str, ident: str) -> None:
    """Resume (the walk in hand put aside in its place) or delete a walk put aside; saved (state.lock held)."""
    if action == "resume":
        state.bring_back(ident)
    elif action == "delete":
        state.delete(ident)
    server().store.save(state)


@pages.get("/saved/<ident>/character.<kind>")
def saved_download(ident: str, kind: str) -> Response:
    state = browser()
    with state.lock:
        kept = state.find_aside(ident)
        made = replay(kept)[0] if kept is not None else None
    if kept is None or made is None or kind not in DOWNLOADS:
        return saved_page(404)
    if made.current is not None:
        return saved_page(409)
    return character_file(made.document(), made.tables, kept.rules, kind)
