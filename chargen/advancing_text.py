"""One entry added to a character file's ledger (`advancement:`, 12, 17, 87), the rest of its text kept.

The entry is spliced into the file's own text: every byte outside it (the player's comments, blank lines,
key order, indentation, quoting, line endings, a byte-order mark, a missing last newline) stays as it was.
A round-trip YAML writer (ruamel.yaml) re-emits the whole file instead, which re-indents `  - {...}` lists
and writes `rank: null` as `rank:`. Where the entry goes is read from the parser chargen already reads
files with (its events carry each node's start and end): after the list's last item, in the list's own
style (block or flow), or as a new key at the end of the mapping when the file has no ledger yet.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from chargen.errors import InputError, Problem
from chargen.yamlio import flow_yaml, parse_events

LEDGER = "advancement"
BOM = "\ufeff"


@dataclass
class _Ledger:
    """Where the file's top mapping and its ledger stand, as character offsets into the text."""

    flow: bool = False  # the top mapping is in flow style (a JSON file)
    first_key_column: int | None = None
    last_end: int | None = None  # the end of the mapping's last value
    key_column: int | None = None  # the ledger's key, when the file has one
    null: tuple[int, int] | None = None  # the ledger's value when it is null or empty
    seq_flow: bool = False
    seq_column: int = 0  # the column of a block list's dashes
    item_column: int = 0  # the column its last item starts at
    seq_last: int | None = None  # the end of its last item; None for an empty list
    seq_end: int = 0  # a flow list's `]`
    close: int = 0  # a flow mapping's `}`
    entries: int = 0  # how many entries the ledger holds


def added(text: str, source: str, entry: dict[str, Any]) -> tuple[str, int]:
    """`text` with `entry` appended to its ledger (which is made when the file has none), and the entry's
    index in the ledger."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    ledger = _read(body, source)
    in_json = ledger.flow and is_json(body)
    item = json.dumps(entry, ensure_ascii=False) if in_json else flow_yaml(entry)
    if ledger.key_column is None:
        at, insert = _new_key(body, ledger, item, newline, in_json)
    elif ledger.null is not None:
        return bom + _in_place_of_null(body, ledger, item, newline), 0
    elif ledger.seq_flow:
        at, insert = _flow_item(body, ledger, item, newline)
    else:
        at, insert = _line_after(body, ledger.seq_last or 0, " " * ledger.seq_column + "- " + item, newline)
    return bom + body[:at] + insert + body[at:], ledger.entries


def is_json(text: str) -> bool:
    """Whether the file is JSON (a byte-order mark aside), so that what is written into it is JSON too."""
    try:
        json.loads(text.removeprefix(BOM))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class _Node:
    """One parser event, as the splice needs it: what it is, where it starts and ends."""

    kind: str  # "open" (a mapping or list starts), "close", "scalar"
    start: int
    column: int
    end: int
    value: str | None = None
    flow: bool = False
    mapping: bool = False


def nodes(text: str, source: str) -> Iterator[_Node]:
    for event in parse_events(text, source):
        start, end = event.start_mark, event.end_mark
        assert start is not None and end is not None  # the parser marks every event
        if isinstance(event, yaml.CollectionStartEvent):
            mapping = isinstance(event, yaml.MappingStartEvent)
            yield _Node("open", start.index, start.column, end.index, None, bool(event.flow_style), mapping)
        elif isinstance(event, yaml.CollectionEndEvent):
            yield _Node("close", start.index, start.column, end.index)
        elif isinstance(event, yaml.ScalarEvent):
            yield _Node("scalar", start.index, start.column, end.index, event.value)


def _read(text: str, source: str) -> _Ledger:
    """The top mapping's shape and its ledger's, from the parser's events (in the top mapping, at depth
    1, keys and values alternate)."""
    ledger = _Ledger()
    depth = 0
    key: str | None = None  # the top mapping's key being read; None while a key is awaited
    in_ledger = False
    for node in nodes(text, source):
        if node.kind == "open":
            in_ledger = _opened(ledger, node, depth, key, in_ledger)
            depth += 1
        elif node.kind == "close":
            depth -= 1
            if in_ledger and depth == 1:
                ledger.seq_end, in_ledger = node.start, False
            if depth == 0:
                ledger.close = node.start
            if depth and node.end > node.start:  # a flow value's closing bracket
                _ended(ledger, node.end, in_ledger)
            key = None if depth == 1 else key
        else:
            if in_ledger and depth == 2:
                _item(ledger, node)
            _ended(ledger, node.end, in_ledger)
            if depth == 1:
                key = _top_scalar(ledger, node, key)
    return ledger


def _top_scalar(ledger: _Ledger, node: _Node, key: str | None) -> str | None:
    """A key or a value of the top mapping; the key awaited next (None after a value)."""
    if key is not None:
        if key == LEDGER:
            ledger.null = (node.start, node.end)
        return None
    if ledger.first_key_column is None:
        ledger.first_key_column = node.column
    if node.value == LEDGER and ledger.key_column is None:
        ledger.key_column = node.column
    return node.value


def _item(ledger: _Ledger, node: _Node) -> None:
    ledger.item_column = node.column
    ledger.entries += 1


def _opened(ledger: _Ledger, node: _Node, depth: int, key: str | None, in_ledger: bool) -> bool:
    """A collection opens: the top mapping, the ledger's list, or one of its items; whether the events
    that follow are the ledger's."""
    if depth == 0:
        if not node.mapping:
            raise InputError("a character file is a mapping of keys (name: ...), not a list or a value")
        ledger.flow = node.flow
        ledger.last_end = node.end if node.flow else None  # just inside its `{`
        return False
    if depth == 1 and key == LEDGER:
        if node.mapping:
            raise InputError([Problem((LEDGER,), "must be a list of entries ({award: ...} or {raise: ...})")])
        ledger.seq_flow, ledger.seq_column = node.flow, node.column
        return True
    if depth == 2 and in_ledger:
        _item(ledger, node)
    return in_ledger


def _ended(ledger: _Ledger, end: int, in_ledger: bool) -> None:
    """A value ended at `end`: the latest end seen so far is where the mapping, or the list, ends."""
    ledger.last_end = max(end, ledger.last_end or 0)
    if in_ledger:
        ledger.seq_last = max(end, ledger.seq_last or 0)


def _line_after(text: str, end: int, line: str, newline: str) -> tuple[int, str]:
    """Where a new line goes after the line holding offset `end` (past any comment on it), and the text put
    there: a file without a last newline keeps having none."""
    found = text.find("\n", end)
    if found < 0:
        return len(text), newline + line
    return found + 1, line + newline


def _new_key(text: str, ledger: _Ledger, item: str, newline: str, in_json: bool) -> tuple[int, str]:
    """The ledger made at the end of the mapping: a block `advancement:` list, or a key of a flow (JSON)
    mapping."""
    end = ledger.last_end or 0
    if not ledger.flow:
        return _line_after(text, end, f"{LEDGER}:{newline}- {item}", newline)
    key = json.dumps(LEDGER) if in_json else LEDGER
    comma = "" if text[:end].rstrip().endswith("{") else ", "
    if text.count("\n", end, ledger.close) == 0:  # the mapping closes on its last value's line
        return end, f"{comma}{key}: [{item}]"
    return end, f"{comma.rstrip()}{newline}{' ' * (ledger.first_key_column or 0)}{key}: [{item}]"


def _flow_item(text: str, ledger: _Ledger, item: str, newline: str) -> tuple[int, str]:
    if ledger.seq_last is None:  # `[]`
        return ledger.seq_end, item
    if text.count("\n", ledger.seq_last, ledger.seq_end) == 0:
        return ledger.seq_last, f", {item}"
    return ledger.seq_last, f",{newline}{' ' * ledger.item_column}{item}"


def _in_place_of_null(text: str, ledger: _Ledger, item: str, newline: str) -> str:
    """`advancement:` (or `advancement: null`) given a list: in a block mapping the key's line stays (with
    any comment on it) and the entry follows it; in a flow one the null becomes a list."""
    assert ledger.null is not None and ledger.key_column is not None
    start, end = ledger.null
    if ledger.flow:
        return text[:start] + f"[{item}]" + text[end:]
    kept = text[:start].rstrip(" ") + text[end:] if end > start else text
    at, insert = _line_after(kept, start - 1, " " * ledger.key_column + "- " + item, newline)
    return kept[:at] + insert + kept[at:]
