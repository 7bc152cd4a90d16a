"""What the server keeps for each browser: its rules, its walk's answers, the file it opened, its batches.

A browser is known by a random id in a cookie (HttpOnly, SameSite=Strict); nothing is shared between two
ids. The store is bounded: at most MAX_BROWSERS, the one unused longest dropped first, and an id unused for
IDLE_SECONDS is forgotten. The walk is kept as its answers (the text typed at each step taken) and replayed
on each request, so a browser's state is a few hundred bytes plus what it uploaded (each upload bounded).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from chargen.web.jobs import RulesChoice

MAX_BROWSERS = 200
IDLE_SECONDS = 8 * 3600
#: Steps a walk may take (the book's walk has about 30; `back` and refusals add none).
MAX_ANSWERS = 200
#: GM batches a browser keeps (older ones are dropped, their files deleted).
MAX_JOBS = 3
#: Browsers whose walk is kept as last replayed (the others replay theirs from their answers on their next
#: request): a walk holds its tables, and the tables of a GM's uploaded ruleset are the walk's own.
MAX_WALKS = 16
#: Bytes of uploaded rulesets the store holds, all browsers together (each text once, however many chose
#: it): past it, the browsers unused longest are forgotten, as past MAX_BROWSERS.
MAX_UPLOADED_BYTES = 32_000_000


@dataclass
class Job:
    """A GM's batch: where its files are, what was asked, how many NPCs."""

    key: str
    folder: str
    files: tuple[str, ...]
    npcs: int
    summary: str


@dataclass
class Browser:
    rules: RulesChoice
    seed: int
    answers: list[str] = field(default_factory=list)
    opened: tuple[str, str] | None = None  # (the file's name, its text)
    jobs: list[Job] = field(default_factory=list)
    used: float = field(default_factory=time.monotonic)
    # The walk as last replayed, kept so an update answers one step rather than replaying them all; only a
    # copy of what `answers` says (chargen.web.walk_pages checks it still is). One request at a time uses it.
    walk: Any = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class Store:
    """The browsers' states by id; thread-safe (waitress serves requests on several threads)."""

    def __init__(self, default_rules: RulesChoice, on_drop: Callable[[Job], None] | None = None) -> None:
        self._browsers: OrderedDict[str, Browser] = OrderedDict()
        self._lock = threading.Lock()
        self.default_rules = default_rules
        self._on_drop: Callable[[Job], None] = on_drop or (lambda job: None)

    def get(self, key: str | None, *, keep: bool = True) -> tuple[str, Browser]:
        """The browser with this id, or a new one (a new id) when it is unknown or forgotten; a new one is
        kept only when `keep` (a request that changes something), so reading pages fills no place."""
        from chargen.api import new_seed

        now = time.monotonic()
        dropped: list[Browser] = []
        with self._lock:
            for old_key, old in list(self._browsers.items()):
                if now - old.used > IDLE_SECONDS:
                    dropped.append(self._browsers.pop(old_key))
            browser = self._browsers.get(key) if key else None
            if browser is None or key is None:
                key = secrets.token_urlsafe(24)
                browser = Browser(rules=self.default_rules, seed=new_seed())
                if not keep:
                    return key, browser
                self._browsers[key] = browser
                while len(self._browsers) > MAX_BROWSERS:
                    dropped.append(self._browsers.popitem(last=False)[1])
            browser.used = now
            self._browsers.move_to_end(key)
            for older in list(self._browsers.values())[:-MAX_WALKS]:
                older.walk = None
        self._dropped(dropped)
        return key, browser

    def choose_rules(self, browser: Browser, rules: RulesChoice) -> None:
        """Give `browser` these rules (a walk is made under one set of rules: its answers go). An uploaded
        text another browser holds already is shared; past MAX_UPLOADED_BYTES the longest unused go."""
        dropped: list[Browser] = []
        with self._lock:
            held = {text: text for other in self._browsers.values() for _, text in other.rules.uploaded}
            uploaded = tuple((name, held.get(text, text)) for name, text in rules.uploaded)
            browser.rules, browser.answers = replace(rules, uploaded=uploaded), []
            while self._uploaded_bytes() > MAX_UPLOADED_BYTES and len(self._browsers) > 1:
                oldest = next(key for key, other in self._browsers.items() if other is not browser)
                dropped.append(self._browsers.pop(oldest))
        self._dropped(dropped)

    def _uploaded_bytes(self) -> int:
        texts = {text for other in self._browsers.values() for _, text in other.rules.uploaded}
        return sum(len(text) for text in texts)

    def _dropped(self, browsers: list[Browser]) -> None:
        for gone in browsers:
            for job in gone.jobs:
                self._on_drop(job)

    def add_job(self, browser: Browser, job: Job) -> None:
        with self._lock:
            browser.jobs.append(job)
            old = browser.jobs[:-MAX_JOBS]
            del browser.jobs[:-MAX_JOBS]
        for gone in old:
            self._on_drop(gone)

    def close(self) -> None:
        with self._lock:
            browsers, self._browsers = list(self._browsers.values()), OrderedDict()
        for browser in browsers:
            for job in browser.jobs:
                self._on_drop(job)
