"""Walks kept on this computer, so a reload, a closed browser or a server restart loses none: one small JSON
file a browser, under the user's data folder (platformdirs: ~/.local/share/chargen/walks on Linux), named by
a digest of the browser's random id (the id itself, the cookie, is written nowhere).

A file holds the browser's walk and every walk it put aside (Start again, Back to here, other rules), each
as its seed, its rules and the entry given at each step. An uploaded ruleset is written once, under its
digest, in `uploads/`, and a walk names it by that digest: two walks, or two browsers, under one upload
share one copy, on disk as in memory. Files are written compactly (UTF-8, no escapes, no spaces).

Bounded: a walk holds at most MAX_ANSWERS answers of at most MAX_ENTRY characters, a browser at most
MAX_ASIDE walks put aside, the folder at most MAX_SAVED files. A walk unused for IDLE_DAYS is forgotten;
when the folder is full of walks used more recently, a new browser's walk is not kept on disk (it lives in
the server's memory only), so no flood of new browsers pushes out another player's walk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from chargen.web.jobs import RulesChoice, kept_directory, ruleset_from_record, ruleset_record

MAX_SAVED = 1000
IDLE_DAYS = 30
#: Steps a walk may take (the book's walk has about 35; `back` and refusals add none).
MAX_ANSWERS = 200
#: Longest entry at a step (a name, a list of weapons); longer is refused before the walk sees it.
MAX_ENTRY = 500
#: Walks a browser keeps put aside (its characters besides the one in hand); one more is refused, since a
#: walk put aside is kept until the player deletes it.
MAX_ASIDE = 30
_VERSION = 2
_DIGEST = re.compile(r"[0-9a-f]{64}")
_UPLOADS = "uploads"


@dataclass
class Kept:
    """A walk as it is kept: the seed that rolls what the player leaves to chargen, its rules, and the
    entry given at each step taken (replayed, the walk repeats exactly)."""

    seed: int
    rules: RulesChoice
    answers: list[str]
    #: What the list of saved characters shows of a walk put aside (its replay, made once: a walk put
    #: aside does not change).
    label: tuple[str, bool] | None = field(default=None, compare=False, repr=False)
    _ident: str = field(default="", compare=False, repr=False)

    def copy(self) -> Kept:
        return Kept(self.seed, self.rules, list(self.answers))

    def ident(self) -> str:
        """A name for this walk among a browser's, made of what it is (the same walk, the same name; made
        once, for a walk put aside, which does not change)."""
        if self._ident:
            return self._ident
        plain = json.dumps(_plain(self, {}), ensure_ascii=False, separators=(",", ":"))
        self._ident = hashlib.sha256(plain.encode("utf-8")).hexdigest()[:16]
        return self._ident


@dataclass
class KeptWalks:
    """A browser's walk, and the walks it put aside, the last put aside last (Undo brings any back)."""

    walk: Kept
    aside: list[Kept] = field(default_factory=list)

    def all(self) -> list[Kept]:
        return [self.walk, *self.aside]


def default_folder() -> Path:
    import platformdirs

    return platformdirs.user_data_path("chargen") / "walks"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Saved:
    """The folder of kept walks."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_folder()

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:40]}.json"

    def prepare(self) -> str | None:
        """At start: partial files a stopped save left removed, uploads no walk names removed; None when
        walks can be kept here, else why not (the walks are then kept in memory only)."""
        try:
            (self.folder / _UPLOADS).mkdir(parents=True, exist_ok=True)
            for partial in [*self.folder.glob(".*.part"), *(self.folder / _UPLOADS).glob(".*.part")]:
                with contextlib.suppress(OSError):
                    partial.unlink()
            self._forget_unnamed_uploads()
            _write(self.folder / f".probe.{os.getpid()}", "")
            (self.folder / f".probe.{os.getpid()}").unlink()
        except OSError as error:
            return f"{self.folder}: {error.strerror or error}"
        return None

    def load(self, key: str) -> KeptWalks | None:
        """The walks kept for this browser id (None: none, or a file this version cannot read)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            if data.get("version") == 1:  # one walk put aside, its upload written in it
                data = {"walk": data["walk"], "aside": [data["dropped"]] if data.get("dropped") else []}
            aside = data["aside"]
            if not isinstance(aside, list) or len(aside) > MAX_ASIDE:
                raise ValueError("walks put aside out of bounds")
            texts: dict[str, str] = {}
            walks = KeptWalks(self._kept(data["walk"], texts), [self._kept(one, texts) for one in aside])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return walks

    def save(self, key: str, walks: KeptWalks) -> str | None:
        """Keep the browser's walks; None when kept, else why not (the walks go on in memory)."""
        path = self._path(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not path.exists() and not self._room():
                return f"the folder of walks is full ({MAX_SAVED:,} walks in use)"
            uploads: dict[str, str] = {}
            data = {
                "version": _VERSION,
                "walk": _plain(walks.walk, uploads),
                "aside": [_plain(one, uploads) for one in walks.aside],
            }
            for name, text in uploads.items():
                self._keep_upload(name, text)
            _write(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        except OSError as error:
            return str(error.strerror or error)  # a full disk or a folder we may not write
        return None

    def _keep_upload(self, name: str, text: str) -> None:
        target = self.folder / _UPLOADS / f"{name}.yaml"
        if not target.exists():
            target.parent.mkdir(exist_ok=True)
            _write(target, text)

    def _kept(self, data: dict[str, object], texts: dict[str, str]) -> Kept:
        """A kept walk read back, each part checked for its kind and bounds (a file may have been edited)."""
        rules, answers, seed = data["rules"], data["answers"], data["seed"]
        if not isinstance(rules, dict) or not isinstance(answers, list) or type(seed) is not int:
            raise TypeError("not a kept walk")
        if len(answers) > MAX_ANSWERS or not all(isinstance(a, str) and len(a) <= MAX_ENTRY for a in answers):
            raise ValueError("answers out of bounds")
        directory = rules.get("directory")
        named = tuple(ruleset_from_record(record) for record in rules.get("named", ()))
        uploaded = tuple(
            (str(name), self._upload(str(text), texts)) for name, text in rules.get("uploaded", ())
        )
        chosen = RulesChoice(str(directory) if directory is not None else None, named, uploaded)
        return Kept(seed, chosen, list(answers))

    def _upload(self, name: str, texts: dict[str, str]) -> str:
        """An uploaded ruleset's text by its digest (each read once a file)."""
        if not _DIGEST.fullmatch(name):
            return name  # written by version 1: the text itself
        if name not in texts:
            text = (self.folder / _UPLOADS / f"{name}.yaml").read_text(encoding="utf-8")
            if digest(text) != name:
                raise ValueError("an upload changed since it was kept")
            texts[name] = text
        return texts[name]

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

    def _forget_unnamed_uploads(self) -> None:
        """Uploads that no kept walk names any more (their walks deleted or forgotten)."""
        named: set[str] = set()
        for path in self.folder.glob("*.json"):
            with contextlib.suppress(OSError, ValueError):
                named.update(re.findall(r'"([0-9a-f]{64})"', path.read_text(encoding="utf-8")))
        for upload in (self.folder / _UPLOADS).glob("*.yaml"):
            if upload.stem not in named:
                with contextlib.suppress(OSError):
                    upload.unlink()


def _write(path: Path, text: str) -> None:
    """`text` written aside and renamed into place; nothing left aside when the write fails."""
    aside = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        aside.write_text(text, encoding="utf-8")
        os.replace(aside, path)
    except BaseException:
        with contextlib.suppress(OSError):
            aside.unlink()
        raise


def _plain(kept: Kept, uploads: dict[str, str]) -> object:
    """A walk as written: an uploaded ruleset named by its digest (its text gathered in `uploads`)."""
    uploaded = []
    for name, text in kept.rules.uploaded:
        key = digest(text)
        uploads[key] = text
        uploaded.append([name, key])
    directory = kept_directory(kept.rules.directory)
    named = [ruleset_record(spec) for spec in kept.rules.named]
    rules = {"directory": directory, "named": named, "uploaded": uploaded}
    return {"seed": kept.seed, "rules": rules, "answers": kept.answers}
