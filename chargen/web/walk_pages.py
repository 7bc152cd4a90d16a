"""The new-character page: chargen.walkthrough's walk, one step a page, with the record beside it.

The steps, their rules, wording and checks are the walk's (the same as `chargen new`); this module only
replays the browser's answers, shows the current step (chargen.web.walk_view), and passes on what the player
chose or typed. Every change is kept on disk at once (chargen.web.saved); whatever drops steps asks first
and can be undone.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from flask import Blueprint, Response, redirect, request, url_for

from chargen.api_door import whole_number
from chargen.errors import ChargenError, InputError
from chargen.walkthrough import PAGE, Walk, new_walk
from chargen.walkthrough.sections import decided_preview, undecided
from chargen.walkthrough.walk import Question, command_of
from chargen.web.context import browser, page, record_response, server
from chargen.web.downloads import DOWNLOADS, character_file
from chargen.web.saved import MAX_ANSWERS, MAX_ENTRY, Kept
from chargen.web.state import Browser
from chargen.web.walk_view import ALLOCATION, Taken, allocation, sections, step_view, warnings

pages = Blueprint("walk", __name__)
#: What the page answers to the walk's words other than `back` and `rest` typed in the entry box.
TYPED = {
    "help": 'This step\'s rule is above and what it accepts is under "More about this step".',
    "quit": "Your walk is kept on this computer: close the page, and it is here when you come back.",
}


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
    walk, taken = replay(state.walks.walk)
    del state.answers[len(taken) :]
    made = Replayed(_made_of(state), walk, taken)
    state.walk = made
    return made


def replay(kept: Kept) -> tuple[Walk, list[Taken]]:
    """A kept walk made again: its seed, then each answer, up to the first one that no longer holds (which
    cannot happen under the same rules; the walk goes on from what still holds)."""
    walk = new_walk(kept.rules.tables(), kept.seed, PAGE)
    taken: list[Taken] = []
    for text in kept.answers:
        question = walk.current
        try:
            if question is None:
                raise InputError("the walk is done")
            taken.append(Taken(_key(question, text), walk.answer(text)))
        except ChargenError:
            break
    return walk, taken


def _key(question: Question, entry: str) -> str:
    """The step an answer took: the question's, or `rest` where chargen chose every step left."""
    return "rest" if command_of(entry) == "rest" else question.key


@pages.get("/new")
def walk_page(
    error: str = "",
    entry: str = "",
    status: int = 200,
    notice: str = "",
    confirm: str = "",
    allocated: dict[str, str] | None = None,
) -> Response:
    state = browser()
    with state.lock:
        made = replayed(state)
        walk, question = made.walk, made.walk.current
        aside = state.walks.aside
        return page(
            "walk.html",
            status,
            step=step_view(walk, question) if question is not None else None,
            sections=sections(walk, made.taken),
            concept=walk.concept,
            taken=len(made.taken),
            warnings=warnings(made.taken) if not error else [],
            error=in_plain_words(error),
            notice=notice,
            confirm=confirm,
            entry=entry,
            allocated=allocated or {},
            refused_at=_refused_at(error),
            dropped=len(aside[-1].answers) if aside else 0,
            unsaved=state.unsaved,
            downloads=DOWNLOADS if question is None else {},
            name=walk.document().name if question is None else "",
        )


@pages.post("/new")
def take() -> Response:
    state = browser()
    action = request.form.get("action", "take")
    # The walk's own words typed in the entry box do what its buttons do, as at the terminal's prompt.
    typed = command_of(request.form.get("entry", "")) if action == "take" else None
    if typed in ("back", "rest"):
        action = str(typed)
    elif typed is not None:
        return walk_page(notice=TYPED[str(typed)])
    if action in ("take", "empty", "rest"):
        return _answer(state, action)
    with state.lock:
        asked = _change(state, action, confirmed=request.form.get("confirmed") == "yes")
    if asked:  # what drops steps asks first (the page itself takes the lock)
        return walk_page(confirm=action, status=409)
    return redirect(url_for("walk.walk_page"), 303)  # type: ignore[return-value]


def _change(state: Browser, action: str, *, confirmed: bool) -> bool:
    """Undo, start again, back one step or back to a step (state.lock held); True: not done, since it
    drops steps and was not confirmed yet."""
    if action == "undo" and state.bring_back():
        server().store.save(state)
    elif action == "restart" and state.answers:
        if not confirmed:
            return True
        _replace(state, server().store.new_walk(state.rules))
    elif action == "back" and state.answers:
        _back_to(state, len(state.answers) - 1, undoable=False)
    elif action.startswith("back-to-"):
        keep = _step_number(action.removeprefix("back-to-"), len(state.answers))
        if keep is not None and keep < len(state.answers) - 1 and not confirmed:
            return True
        if keep is not None:
            _back_to(state, keep, undoable=True)
    return False


def _step_number(text: str, steps: int) -> int | None:
    """A step index of a `back-to-N` button (ASCII digits, within the walk), else None."""
    number = whole_number(text)
    return number if number is not None and number < steps else None


def _replace(state: Browser, walk: Kept) -> None:
    """A new walk in place of this one, which is kept for Undo; saved."""
    state.replace_walk(walk)
    server().store.save(state)


def _back_to(state: Browser, keep: int, *, undoable: bool) -> None:
    """Undo the steps after the first `keep`, with the walk's own `back` (the walk as it was kept for Undo
    when `undoable`: one step back is undone by answering it again); saved."""
    if undoable:
        state.put_aside()
    made = replayed(state)
    while len(state.answers) > keep and made.walk.back():
        state.answers.pop()
        made.taken.pop()
    made.made_of = _made_of(state)
    server().store.save(state)


def _entry(question: Question) -> str:
    """The player's entry: what they typed, else what the step's controls say (their values joined as a
    typed entry is, so the walk reads both alike)."""
    typed = request.form.get("entry", "")
    if typed.strip() or (question.choices is None and question.numbers is None):
        return typed
    if question.numbers is not None:
        numbers = [value.strip() for value in request.form.getlist("number")]
        if not any(numbers):
            raise InputError(f"{question.key}: enter the numbers, or press {question.empty}")
        return " ".join(numbers)
    chosen = request.form.getlist("choice")
    if not chosen and not question.many:
        raise InputError(f"{question.key}: choose one, or press {question.empty}")
    return ", ".join(chosen)


def _answer(state: Browser, action: str) -> Response:
    with state.lock:
        made = replayed(state)
        question = made.walk.current
        before = len(state.answers)
        if question is None:
            refused, status = "The character is complete: download it below, or go back a step.", 409
        elif request.form.get("step") != question.key:
            refused, status = "That form was for another step; here is the step the walk is at.", 409
        else:
            try:
                for text in _entries(made.walk, question, action):
                    _one_answer(state, made, text)
            except ChargenError as error:
                refused, status = " ".join(str(error).split()), 422
                _taken_back(state, made, before)  # one form, one answer: all of it or none
            else:
                return redirect(url_for("walk.walk_page"), 303)  # type: ignore[return-value]
            finally:
                server().store.save(state)
    typed = request.form.get("entry", "")[:MAX_ENTRY]
    kept = _allocated() if status == 422 else {}
    return walk_page(refused, typed if status == 422 else "", status, allocated=kept)


def _entries(walk: Walk, question: Question, action: str) -> list[str]:
    """The answers a button gives: the entry, an empty one, or `rest` (at the concept step, the concept
    chosen first, since it is what chargen then chooses for). At 5.2, the allocation control's fields are
    the answers to the walk's steps of the characteristics not placed yet, in its order (an empty field is
    an empty entry: the walk's even share); its empty button is that of every one of them."""
    fields = allocation(walk, question)
    typed = request.form.get("entry", "").strip()
    if fields is not None and not typed and action in ("take", "empty"):
        given = _allocated()
        return [given.get(die.label, "") if action == "take" else "" for die in fields.fields]
    if action == "empty":
        return [""]
    if action == "rest":
        first = request.form.getlist("choice") if question.key == "concept" else []
        return [*first[:1], "rest"]
    return [_entry(question)]


def _allocated() -> dict[str, str]:
    """The allocation control's fields as sent (`allocation.PS` and so on), each cut to an entry's length."""
    return {
        name.removeprefix(ALLOCATION): value.strip()[:MAX_ENTRY]
        for name, value in request.form.items()
        if name.startswith(ALLOCATION)
    }


#: A key path a refusal begins with (`allocation.MD: `, `weapons[2]: `, `languages: `): the file's words,
#: which the page leaves out (the step's title says where).
_KEY_PATH = re.compile(r"^[a-z_][a-z0-9_]*(?:\[\d+\]|\.[A-Za-z_][\w-]*)*: ")


def in_plain_words(refusal: str) -> str:
    """A refusal as the page says it: without the key path it begins with, its first letter a capital."""
    text = _KEY_PATH.sub("", refusal, count=1)
    return text[:1].upper() + text[1:]


def _refused_at(error: str) -> str:
    """The characteristic a 5.2 refusal names (the walk's messages begin with the step's key), else ''."""
    head = error.split(":", 1)[0]
    return head.removeprefix(ALLOCATION) if head.startswith(ALLOCATION) and ":" in error else ""


def _taken_back(state: Browser, made: Replayed, before: int) -> None:
    """Undo the answers one form gave before one of them was refused, with the walk's own `back`."""
    while len(state.answers) > before and made.walk.back():
        state.answers.pop()
        made.taken.pop()
    made.made_of = _made_of(state)


def _one_answer(state: Browser, made: Replayed, entry: str) -> None:
    question = made.walk.current
    if question is None:
        raise InputError("the walk is done")
    if len(entry) > MAX_ENTRY or len(state.answers) >= MAX_ANSWERS:
        raise InputError(f"{question.key}: an entry is at most {MAX_ENTRY} characters")
    made.taken.append(Taken(_key(question, entry), made.walk.answer(entry)))
    state.answers.append(entry)
    made.made_of = _made_of(state)


@pages.get("/new/record.html")
def record() -> Response:
    from chargen.render import render_html

    state = browser()
    with state.lock:
        walk = replayed(state).walk
        fonts_at = url_for("walk.record_font", version=fonts_version(), name="")
        # each derived value opens to its working, as `chargen render --html --explain` writes it
        preview = render_html(
            decided_preview(walk), walk.tables, explain=True, undecided=undecided(walk), fonts_at=fonts_at
        )
        return record_response(preview)


@pages.get("/new/record-fonts/<version>/<path:name>")
def record_font(version: str, name: str) -> Response:
    """A font of the preview, at a URL that changes with the fonts: a browser keeps it for good."""
    from chargen.render.html import font_files

    font = font_files().get(name)
    if font is None or version != fonts_version():
        return Response("There is no such font.", status=404, mimetype="text/plain")
    response = Response(font.data, mimetype=font.mime_type)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@lru_cache(maxsize=1)
def fonts_version() -> str:
    """The preview fonts' version: a digest of their bytes."""
    from chargen.render.html import font_files

    digest = hashlib.sha256()
    for name, font in sorted(font_files().items()):
        digest.update(name.encode("utf-8") + b"\0" + font.data)
    return digest.hexdigest()[:16]


@pages.get("/new/character.<kind>")
def file_download(kind: str) -> Response:
    if kind not in DOWNLOADS:
        return walk_page("There is no such download.", status=404)
    state = browser()
    with state.lock:
        walk = replayed(state).walk
        document = walk.document() if walk.current is None else None
    if document is None:
        return walk_page("Finish the steps first: the downloads are of the whole character.", status=409)
    return character_file(document, walk.tables, state.rules, kind)
