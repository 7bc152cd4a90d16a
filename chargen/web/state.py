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
from dataclasses import dataclass, field, replace
from typing import Any

from chargen.web.jobs import RulesChoice
from chargen.web.saved import Kept, KeptWalks, Saved

MAX_BROWSERS = 200
IDLE_SECONDS = 8 * 3600
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
            for older in list(self._browsers.values())[:-MAX_WALKS]:
                older.walk = None
        self._dropped(dropped)
        return key, browser

    def choose_rules(self, browser: Browser, rules: RulesChoice) -> None:
        """Start `browser` on a new walk under these rules (the old one kept for undo). An uploaded text
        another browser holds already is shared; past MAX_UPLOADED_BYTES the longest unused go."""
        dropped: list[Browser] = []
        with self._lock:
            held = {text: text for other in self._browsers.values() for _, text in other.rules.uploaded}
            uploaded = tuple((name, held.get(text, text)) for name, text in rules.uploaded)
            browser.replace_walk(self.new_walk(replace(rules, uploaded=uploaded)))
            while self._uploaded_bytes() > MAX_UPLOADED_BYTES and len(self._browsers) > 1:
                oldest = next(key for key, other in self._browsers.items() if other is not browser)
                dropped.append(self._browsers.pop(oldest))
        self._dropped(dropped)
        self.save(browser)

    def _uploaded_bytes(self) -> int:
        texts = {text for other in self._browsers.values() for _, text in other.rules.uploaded}
        return sum(len(text) for text in texts)

    def _dropped(self, browsers: list[Browser]) -> None:
        for gone in browsers:
            for job in gone.jobs:
                self._on_drop(job)

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
