"""Where a walk writes what the player made: each file name checked before anything is written, in words a
player can act on (asked again, never a lost character), and whether the name would replace a file.
Plain Python, no terminal: `chargen new` asks, a web page may ask the same."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from chargen.output import is_special, would_replace
from chargen.output_kinds import KINDS

__all__ = ["Target", "path_problem", "would_replace"]  # would_replace: the one policy's own test


@dataclass(frozen=True)
class Target:
    """One file the walk may write: its kind (yaml, json, pdf or html, chargen.output_kinds) and the name
    offered for Enter (None: Enter writes no such file)."""

    kind: str
    offered: str | None = None

    @property
    def question(self) -> str:
        offered = f"Enter for {self.offered}" if self.offered else "or Enter for none"
        label = KINDS[self.kind].label
        return f"{label[:1].upper()}{label[1:]} to write ({offered})"

    @property
    def accepts(self) -> str:
        endings = " or ".join(KINDS[self.kind].endings)
        where = "in the current folder, or with a folder that exists"
        none = "" if self.offered else "; Enter writes none"
        return f"a file name ending in {endings}, {where}{none}"


def path_problem(path: str, kind: str) -> str | None:
    """Why the walk cannot write the `kind` file `path` (None: it can). The name's ending, its folder (it
    must exist), whether it is a folder, and whether the folder takes a new file (tried, not guessed from
    the permission bits: a superuser or a read-only disk would mislead them)."""
    what, endings = KINDS[kind].label, KINDS[kind].endings
    target = Path(path)
    if not path.strip():
        return f"give the {what} a file name"
    if is_special(target):
        return None  # /dev/null and named pipes are written into where they are (chargen.output)
    if target.suffix.lower() not in endings:
        suggestion = f"{target.stem or 'character'}{endings[0]}"
        return f"{path} does not end in {' or '.join(endings)}, as a {what} does: try {suggestion}"
    if target.is_dir():
        return f"{path} is a folder; give a file name in it"
    folder = target.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist; name a file in a folder that does"
    if target.exists() and not os.access(target, os.W_OK):
        return f"{path} cannot be replaced (it is read-only); give another name"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"cannot write in {folder} ({error.strerror or error}); give a file in another folder"
    return None
