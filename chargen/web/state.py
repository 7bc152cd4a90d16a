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
from dataclasses import dataclass, field
from typing import Any

from chargen.web.jobs import RulesChoice

MAX_BROWSERS = 200
IDLE_SECONDS = 8 * 3600
#: Steps a walk may take (the book's walk has about 30; `back` and refusals add none).
MAX_ANSWERS = 200
#: GM batches a browser keeps (older ones are dropped, their files deleted).
MAX_JOBS = 3


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
        for gone in dropped:
            for job in gone.jobs:
                self._on_drop(job)
        return key, browser

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
