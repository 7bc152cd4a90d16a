"""Walks kept on this computer, so a reload, a closed tab or a server restart loses none: one small JSON file
a browser, under the user's data folder (platformdirs: ~/.local/share/chargen/walks on Linux), named by a
digest of the browser's random id (the id itself, the cookie, is written nowhere).

Bounded: a file holds at most MAX_ANSWERS answers of at most MAX_ENTRY characters and one uploaded ruleset
(1,000,000 bytes at most, chargen.yamlio); at most MAX_SAVED files. A walk unused for IDLE_DAYS is forgotten;
when the folder is full of walks used more recently, a new browser's walk is not kept on disk (it lives in
the server's memory only), so no flood of new browsers pushes out another player's walk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from chargen.web.jobs import RulesChoice, kept_directory, ruleset_from_record, ruleset_record

MAX_SAVED = 1000
IDLE_DAYS = 30
#: Steps a walk may take (the book's walk has about 35; `back` and refusals add none).
MAX_ANSWERS = 200
#: Longest entry at a step (a name, a list of weapons); longer is refused before the walk sees it.
MAX_ENTRY = 500
_VERSION = 1


@dataclass
class Kept:
    """A walk as it is kept: the seed that rolls what the player leaves to chargen, its rules, and the
    entry given at each step taken (replayed, the walk repeats exactly)."""

    seed: int
    rules: RulesChoice
    answers: list[str]


@dataclass
class KeptWalks:
    """A browser's walk, and the one "Start again", "Back to here" or new rules last dropped (for undo)."""

    walk: Kept
    dropped: Kept | None = None


def default_folder() -> Path:
    import platformdirs

    return platformdirs.user_data_path("chargen") / "walks"


class Saved:
    """The folder of kept walks."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_folder()

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:40]}.json"

    def load(self, key: str) -> KeptWalks | None:
        """The walks kept for this browser id (None: none, or a file this version cannot read)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            walks = KeptWalks(_kept(data["walk"]), _kept(data["dropped"]) if data.get("dropped") else None)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return walks

    def save(self, key: str, walks: KeptWalks) -> bool:
        """Keep the browser's walks (False: the folder is full of walks in use; kept in memory only)."""
        path = self._path(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not path.exists() and not self._room():
                return False
            text = json.dumps(
                {"version": _VERSION, "walk": _plain(walks.walk), "dropped": _plain(walks.dropped)}
            )
            aside = path.with_name(f".{path.name}.{os.getpid()}.part")
            aside.write_text(text, encoding="utf-8")
            os.replace(aside, path)
        except OSError:
            return False  # a full disk or a folder we may not write: the walk goes on in memory
        return True

    def _room(self) -> bool:
        """Whether one more walk may be kept, once walks unused for IDLE_DAYS are forgotten."""
        files = list(self.folder.glob("*.json"))
        if len(files) < MAX_SAVED:
            return True
        old = time.time() - IDLE_DAYS * 86400
        for path in files:
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < old:
                    path.unlink()
        return len(list(self.folder.glob("*.json"))) < MAX_SAVED


def _plain(kept: Kept | None) -> object:
    if kept is None:
        return None
    rules = {
        "directory": kept_directory(kept.rules.directory),
        "named": [ruleset_record(spec) for spec in kept.rules.named],
    }
    uploaded = [list(pair) for pair in kept.rules.uploaded]
    return {"seed": kept.seed, "rules": {**rules, "uploaded": uploaded}, "answers": kept.answers}


def _kept(data: dict[str, object]) -> Kept:
    """A kept walk read back, each part checked for its kind and bounds (a file may have been edited)."""
    rules = data["rules"]
    answers = data["answers"]
    seed = data["seed"]
    if not isinstance(rules, dict) or not isinstance(answers, list) or type(seed) is not int:
        raise TypeError("not a kept walk")
    if len(answers) > MAX_ANSWERS or not all(isinstance(a, str) and len(a) <= MAX_ENTRY for a in answers):
        raise ValueError("answers out of bounds")
    directory = rules.get("directory")
    named = tuple(ruleset_from_record(record) for record in rules.get("named", ()))
    uploaded = tuple((str(name), str(text)) for name, text in rules.get("uploaded", ()))
    chosen = RulesChoice(str(directory) if directory is not None else None, named, uploaded)
    return Kept(seed, chosen, list(answers))
