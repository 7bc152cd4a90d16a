"""The derived values a whole character file gives, brought up to date when its ledger grows.

A file chargen wrote whole gives its derived values (characteristics, combat, the bank), which `validate`
compares with the rules'. A new ledger entry moves some of them (a raised PS moves every value that reads
PS, a raise or an award the bank), so `chargen advance` writes each moved value where the file gives it,
in place of the old one; every other byte stays. A file as a player writes it gives no derived values and
is left as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from chargen.advancing_text import BOM, nodes
from chargen.errors import KeyPath
from chargen.model import Document, DocumentValue
from chargen.yamlio import flow_yaml


@dataclass
class _Frame:
    """A mapping or list being read: its path, where it starts, and where its content ends so far."""

    path: KeyPath
    mapping: bool
    start: int
    last: int
    key: str | None = None
    index: int = 0


@dataclass
class _Spans:
    """Where each value of the file stands (start and end offsets in its text), by its key path."""

    at: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    frames: list[_Frame] = field(default_factory=list)

    def child(self) -> KeyPath:
        if not self.frames:
            return ()
        top = self.frames[-1]
        part: str | int = top.key if top.mapping and top.key is not None else top.index
        return (*top.path, part)

    def placed(self, path: KeyPath, start: int, end: int) -> None:
        self.at[path] = (start, end)
        if self.frames:
            top = self.frames[-1]
            top.last = max(top.last, end)
            top.key, top.index = None, top.index + 1


def spans(text: str, source: str) -> dict[KeyPath, tuple[int, int]]:
    """Every value's span in `text`: a scalar's own, a flow collection's brackets and all, a block
    collection's from its first item to the end of its last."""
    found = _Spans()
    for node in nodes(text, source):
        if node.kind == "open":
            found.frames.append(_Frame(found.child(), node.mapping, node.start, node.end))
        elif node.kind == "close":
            frame = found.frames.pop()
            end = node.end if node.end > node.start else frame.last  # a flow one's closing bracket
            found.placed(frame.path, frame.start, end)
        elif found.frames and found.frames[-1].mapping and found.frames[-1].key is None:
            found.frames[-1].key = node.value  # a key: its value comes next
        else:
            found.placed(found.child(), node.start, node.end)
    return found.at


def with_values(
    text: str, source: str, stale: Iterable[KeyPath], document: Document, *, in_json: bool
) -> str:
    """`text` with the value at each `stale` path written as `document` (the character as the rules give
    it) has it: where the file has no such value, its nearest enclosing one is written whole."""
    bom = BOM if text.startswith(BOM) else ""  # the parser's offsets count from after it
    text = text[len(bom) :]
    where = spans(text, source)
    chosen: dict[KeyPath, DocumentValue] = {}
    for path in stale:
        found = next((path[:n] for n in range(len(path), 0, -1) if path[:n] in where), None)
        if found is not None:  # a stale value is one the file gives: always found
            chosen[found] = _value_at(document, found)
    outermost = [path for path in chosen if not any(path[:n] in chosen for n in range(1, len(path)))]
    for path in sorted(outermost, key=lambda path: where[path][0], reverse=True):
        start, end = where[path]
        value = chosen[path]
        written = json.dumps(value, ensure_ascii=False) if in_json else flow_yaml(value)
        text = text[:start] + written + text[end:]
    return bom + text


def _value_at(document: Document, path: KeyPath) -> DocumentValue:
    """The value at `path` in `document`; None where the rules give none."""
    value: DocumentValue = document
    for part in path:
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and part < len(value):
            value = value[part]
        else:
            return None
    return value
