"""What the server keeps for each browser: its walk (with its rules), the file it opened, its batches.

A browser is known by a random id in a cookie (HttpOnly, SameSite=Strict); nothing is shared between two
ids. The walk is kept as its answers (the text typed at each step taken) and replayed when needed; it is
also kept on disk (chargen.web.saved), so the store in memory is only the browsers seen lately: at most
MAX_BROWSERS, the one unused longest let go first (its walk stays on disk, read back when it comes again;
its opened file and batches go), and an id unused for IDLE_SECONDS is let go.
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from chargen.errors import InputError
from chargen.web.jobs import RulesChoice
from chargen.web.saved import MAX_ASIDE, Kept, KeptWalks, Saved

MAX_BROWSERS = 200
IDLE_SECONDS = 8 * 3600
#: GM batches a browser keeps (older ones are dropped, their files deleted).
MAX_JOBS = 3
#: Browsers whose walk is kept as last replayed (the others replay theirs from their answers on their next
#: request): a walk holds its tables, and the tables of a GM's uploaded ruleset are the walk's own.
MAX_WALKS = 16
#: Bytes of memory the store's texts take for all browsers together (as Python holds them: a text of
#: 4-byte characters takes 4 bytes a character): every uploaded ruleset (each once, however many walks and
#: browsers chose it), every opened file and every walk's answers. Past it, the browsers that hold most
#: are let go first (the oldest of equals), never one that holds nothing.
MAX_HELD = 32_000_000


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
    unsaved: str = ""  # why the last change could not be kept on disk ('' when it was)
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
        """Start `walk` in place of this one, which is put aside to be brought back (undo)."""
        self.put_aside()
        self.walks.walk = walk

    def bring_back(self, ident: str | None = None) -> bool:
        """The walk put aside under `ident` (the last put aside when None) back in place of this one, which
        is put aside in its turn (undo of the undo); False: there is none."""
        found = self.find_aside(ident)
        if found is None:
            return False
        self.walks.aside.remove(found)
        self.put_aside()
        self.walks.walk = found
        return True

    def delete(self, ident: str) -> bool:
        """A walk put aside deleted for good."""
        found = self.find_aside(ident)
        if found is not None:
            self.walks.aside.remove(found)
        return found is not None

    def find_aside(self, ident: str | None) -> Kept | None:
        aside = self.walks.aside
        if ident is None:
            return aside[-1] if aside else None
        return next((kept for kept in aside if kept.ident() == ident), None)

    def put_aside(self) -> None:
        """A copy of this walk put aside (a ChargenError when MAX_ASIDE are already)."""
        if not self.answers:
            return  # a walk of no step is no character
        if len(self.walks.aside) >= MAX_ASIDE:
            raise InputError(
                f"{MAX_ASIDE} characters are put aside already: delete one on Your characters first"
            )
        self.walks.aside.append(self.walks.walk.copy())

    def held(self) -> int:
        """The bytes of answers and opened file this browser holds (its uploads are counted apart)."""
        answers = sum(sys.getsizeof(text) for kept in self.walks.all() for text in kept.answers)
        return answers + (sys.getsizeof(self.opened[1]) if self.opened else 0)

    def uploads(self) -> list[str]:
        return [text for kept in self.walks.all() for _, text in kept.rules.uploaded]


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
            loaded = kept is not None and key is not None
            if kept is not None and key is not None:
                browser = Browser(key, self._shared(kept))
                self._browsers[key] = browser
            if browser is None or key is None:
                key = secrets.token_urlsafe(24)
                browser = Browser(key, KeptWalks(self.new_walk()))
                if not keep:
                    return key, browser
                self._browsers[key] = browser
            browser.used = now
            self._browsers.move_to_end(key)
            dropped += self._let_go(browser, count=loaded)
            for older in list(self._browsers.values())[:-MAX_WALKS]:
                older.walk = None
        self._dropped(dropped)
        return key, browser

    def choose_rules(self, browser: Browser, rules: RulesChoice) -> None:
        """Start `browser` on a new walk under these rules (the old one put aside for undo). An uploaded
        text another walk holds already is shared; past MAX_HELD the browsers holding most go."""
        with self._lock:
            browser.replace_walk(self._shared(KeptWalks(self.new_walk(rules))).walk)
            dropped = self._let_go(browser)
        self._dropped(dropped)
        self.save(browser)

    def open_file(self, browser: Browser, opened: tuple[str, str]) -> None:
        """The file this browser opened (its last), counted against MAX_HELD."""
        with self._lock:
            browser.opened = opened
            dropped = self._let_go(browser)
        self._dropped(dropped)

    def _shared(self, walks: KeptWalks) -> KeptWalks:
        """`walks` with each uploaded text another walk in memory holds replaced by that one (held once)."""
        held = {text: text for other in self._browsers.values() for text in other.uploads()}
        for kept in walks.all():
            uploaded = tuple((name, held.setdefault(text, text)) for name, text in kept.rules.uploaded)
            if any(a is not b for (_, a), (_, b) in zip(uploaded, kept.rules.uploaded, strict=True)):
                kept.rules = replace(kept.rules, uploaded=uploaded)
        return walks

    def _let_go(self, keep: Browser, *, count: bool = True) -> list[Browser]:
        """Browsers let go to bring the store within MAX_BROWSERS (the longest unused first) and MAX_HELD
        (the one whose going frees most first, the longest unused of equals; never `keep`, never one whose
        going frees nothing). Their walks stay on disk."""
        dropped = []
        while len(self._browsers) > MAX_BROWSERS:
            oldest = next(key for key, other in self._browsers.items() if other is not keep)
            dropped.append(self._browsers.pop(oldest))
        while count and self.held() > MAX_HELD:
            frees = self._frees()
            candidates = [
                (frees[index], -index, key)
                for index, (key, other) in enumerate(self._browsers.items())
                if other is not keep and frees[index] > 0
            ]
            if not candidates:
                break
            dropped.append(self._browsers.pop(max(candidates)[2]))
        return dropped

    def held(self) -> int:
        """The bytes the store's texts take: answers, opened files and uploads (each text once)."""
        texts = {
            id(text): sys.getsizeof(text) for other in self._browsers.values() for text in other.uploads()
        }
        return sum(texts.values()) + sum(other.held() for other in self._browsers.values())

    def _frees(self) -> list[int]:
        """For each browser in order, the bytes letting it go frees (an upload it alone holds too)."""
        holders: dict[int, set[int]] = {}
        for index, other in enumerate(self._browsers.values()):
            for text in other.uploads():
                holders.setdefault(id(text), set()).add(index)
        sizes = []
        for index, other in enumerate(self._browsers.values()):
            alone = {
                id(text): sys.getsizeof(text) for text in other.uploads() if holders[id(text)] == {index}
            }
            sizes.append(other.held() + sum(alone.values()))
        return sizes

    def _dropped(self, browsers: list[Browser]) -> None:
        for gone in browsers:
            for job in gone.jobs:
                self._on_drop(job)

    def save(self, browser: Browser) -> str | None:
        """Keep the browser's walks on disk, as they are now (after every change to them); None when kept,
        else why not (also in `browser.unsaved`, for the page to say: the change is kept in memory)."""
        with self._lock:  # its answers grew: within MAX_HELD still?
            dropped = self._let_go(browser) if browser.key in self._browsers else []
        self._dropped(dropped)
        reason = self.saved.save(browser.key, browser.walks)
        browser.unsaved = reason or ""
        return reason

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
