"""What the server keeps for each browser: its walk (with its rules), the file it opened, its batches.

A browser is known by a random id in a cookie (HttpOnly, SameSite=Strict); nothing is shared between two
ids. The walk is kept as its answers (the text typed at each step taken) and replayed when needed; it is
also kept on disk (chargen.web.saved), so the store in memory is only the browsers seen lately: at most
MAX_BROWSERS, the one unused longest let go first (its walk stays on disk, read back when it comes again;
its opened file and batches go), and an id unused for IDLE_SECONDS is let go.
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
from chargen.web.saved import Kept, KeptWalks, Saved

MAX_BROWSERS = 200
IDLE_SECONDS = 8 * 3600
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
    key: str
    walks: KeptWalks
    opened: tuple[str, str] | None = None  # (the file's name, its text)
    jobs: list[Job] = field(default_factory=list)
    used: float = field(default_factory=time.monotonic)
    # The walk as last replayed, kept so an update answers one step rather than replaying them all; only a
    # copy of what `answers` says (chargen.web.walk_pages checks it still is). One request at a time uses it.
    walk: Any = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def rules(self) -> RulesChoice:
        return self.walks.walk.rules

    @property
    def answers(self) -> list[str]:
        return self.walks.walk.answers

    @property
    def seed(self) -> int:
        return self.walks.walk.seed

    def replace_walk(self, walk: Kept) -> None:
        """Start `walk` in place of this one, which is kept to be brought back (undo)."""
        if self.answers:
            self.walks.dropped = Kept(self.seed, self.rules, list(self.answers))
        self.walks.walk = walk

    def bring_back(self) -> bool:
        """The walk last dropped, back in place of this one (which is kept in its turn: undo of the undo)."""
        dropped = self.walks.dropped
        if dropped is None:
            return False
        self.walks.dropped = Kept(self.seed, self.rules, list(self.answers)) if self.answers else None
        self.walks.walk = dropped
        return True


class Store:
    """The browsers' states by id; thread-safe (waitress serves requests on several threads)."""

    def __init__(
        self,
        default_rules: RulesChoice,
        on_drop: Callable[[Job], None] | None = None,
        saved: Saved | None = None,
    ) -> None:
        self._browsers: OrderedDict[str, Browser] = OrderedDict()
        self._lock = threading.Lock()
        self.default_rules = default_rules
        self._on_drop: Callable[[Job], None] = on_drop or (lambda job: None)
        self.saved = saved or Saved()

    def new_walk(self, rules: RulesChoice | None = None) -> Kept:
        from chargen.api import new_seed

        return Kept(new_seed(), rules or self.default_rules, [])

    def get(self, key: str | None, *, keep: bool = True) -> tuple[str, Browser]:
        """The browser with this id (read back from disk when the server has let it go or restarted), or a
        new one (a new id) when it is unknown; a new one is kept only when `keep` (a request that changes
        something), so reading pages fills no place."""
        now = time.monotonic()
        dropped: list[Browser] = []
        with self._lock:
            for old_key, old in list(self._browsers.items()):
                if now - old.used > IDLE_SECONDS:
                    dropped.append(self._browsers.pop(old_key))
            browser = self._browsers.get(key) if key else None
            kept = self.saved.load(key) if key and browser is None else None
            if kept is not None and key is not None:
                browser = Browser(key, kept)
                self._browsers[key] = browser
            if browser is None or key is None:
                key = secrets.token_urlsafe(24)
                browser = Browser(key, KeptWalks(self.new_walk()))
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

    def save(self, browser: Browser) -> None:
        """Keep the browser's walks on disk, as they are now (after every change to them)."""
        self.saved.save(browser.key, browser.walks)

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
