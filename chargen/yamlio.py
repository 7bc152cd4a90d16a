"""YAML in and out. Reading keeps the line and column of every node so messages can point into the file."""

from __future__ import annotations

import os
import stat
import sys
import textwrap
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from chargen.errors import ChargenError, KeyPath, Problem

try:  # the C loader is several times faster; fall back to pure Python where libyaml is absent
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass
class Located:
    """A parsed YAML document plus the 1-based (line, column) of every key path in it."""

    data: Any
    source: str
    marks: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    #: What is wrong in a file that could still be read (a key given twice), told beside the rest.
    problems: list[Problem] = field(default_factory=list)

    def where(self, path: Iterable[str | int]) -> str:
        """`source:line:column` of the deepest known node on `path`."""
        key = tuple(path)
        while key and key not in self.marks:
            key = key[:-1]
        line, column = self.marks.get(key, (1, 1))
        return f"{self.source}:{line}:{column}"

    def line_column(self, path: Iterable[str | int]) -> tuple[int, int] | None:
        """The line and column of the deepest known node on `path`; None when not even its top key is."""
        key = tuple(path)
        while key and key not in self.marks:
            key = key[:-1]
        return self.marks.get(key) if key else None


#: A character file or table over this size is refused before it is parsed (a real one is a few kB).
MAX_BYTES = 1_000_000
#: Nesting deeper than this is refused: no real file nests more than a handful of levels.
MAX_DEPTH = 32
#: Numbers beyond this size are refused: no rule of the book comes near, and bigger ones overflow.
MAX_NUMBER = 10**15
#: Tables may reuse a block through an anchor and aliases, up to this many values in all (a character
#: file may not use aliases at all): nine nested aliases of nine would otherwise expand to 387 million.
TABLE_ALIAS_BUDGET = 10_000

_PLAIN_TAGS = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:str",
}
_RESOLVER = yaml.resolver.Resolver()


def _at(source: str, mark: Any) -> str:
    return f"{source}:{mark.line + 1}:{mark.column + 1}"


def _line_column(event: Any) -> tuple[int, int]:
    return event.start_mark.line + 1, event.start_mark.column + 1


def _sentence(problem: str) -> str:
    """PyYAML's own sentence, whole (cut mid-word, `violates i...` says nothing); one that quotes much of the
    file (an alias's long name) is shortened between words."""
    return textwrap.shorten(problem, width=200, placeholder=" ...")


def _short(value: str) -> str:
    return value if len(value) <= 40 else value[:37] + "..."


@dataclass
class _Open:
    """A mapping or sequence being filled, with what is needed to place its values."""

    value: dict[Any, Any] | list[Any]
    path: KeyPath
    anchor: str | None
    size: int = 1
    key: Any = None
    has_key: bool = False
    #: The value being read is a repeated key's: read past, never stored.
    repeated: bool = False


class _Builder:
    """Builds Python data from the parser's events, noting each value's position. Only plain values
    (null, booleans, numbers, strings) are made: no tags, no merge keys, aliases only within a budget."""

    def __init__(self, source: str, alias_budget: int) -> None:
        self.source = source
        self.alias_budget = alias_budget
        self.marks: dict[KeyPath, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Open] = []
        self.root: Any = None
        self.documents = 0
        self.problems: list[Problem] = []
        # A constructor of its own: PyYAML's keeps the nodes it is making, so one shared by the server's
        # request threads lost a node another thread finished (a KeyError, answered 500 under load).
        self.constructor = yaml.constructor.SafeConstructor()

    def fail(self, event: Any, problem: str) -> ChargenError:
        return ChargenError(f"{_at(self.source, event.start_mark)}: {problem}")

    def feed(self, event: Any) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail(event, "a file holds one YAML document, not several (---)")
            return
        if isinstance(event, yaml.AliasEvent):
            self.alias(event)
            return
        if isinstance(event, yaml.CollectionEndEvent):
            done = self.stack.pop()
            self.place(event, done.value, done.size, done.anchor)
            return
        if isinstance(event, yaml.NodeEvent):
            self.node(event)

    def node(self, event: Any) -> None:
        if event.tag is not None and event.tag != "!":
            raise self.fail(event, f"YAML tags ({_short(event.tag)}) are not allowed: write a plain value")
        if isinstance(event, yaml.ScalarEvent):
            self.place(event, self.scalar(event), 1, event.anchor)
            return
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(event, f"nested deeper than {MAX_DEPTH} levels")
        path = self.next_path(event)
        self.marks.setdefault(path, _line_column(event))
        container: dict[Any, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
        self.stack.append(_Open(container, path, event.anchor))

    def next_path(self, event: Any) -> KeyPath:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            return (*top.path, len(top.value))
        if not top.has_key:
            raise self.fail(event, "a mapping key must be a plain value")
        return (*top.path, top.key)

    def scalar(self, event: Any) -> Any:
        if not event.implicit[0]:
            return event.value  # quoted: always a string
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))  # type: ignore[no-untyped-call]
        if tag == "tag:yaml.org,2002:merge":
            raise self.fail(event, "merge keys (<<) are not allowed: write the keys out")
        if tag not in _PLAIN_TAGS:
            return event.value  # a date or a '=' reads as the text it is
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
        # construct_document, not construct_object: the constructor then forgets the node (construct_object
        # keeps every node it made, with its marks, for the document's end: in a server, for ever)
        value = self.constructor.construct_document(node)
        if isinstance(value, int | float) and not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:
            raise self.fail(event, f"number {_short(event.value)} is out of range (at most {MAX_NUMBER:,})")
        return value

    def alias(self, event: Any) -> None:
        if event.anchor not in self.anchors:
            raise self.fail(event, f"alias *{_short(event.anchor)} refers to no finished anchor")
        if self.alias_budget <= 0:
            raise self.fail(event, f"aliases (*{_short(event.anchor)}) are not allowed in this file")
        value, size = self.anchors[event.anchor]
        self.alias_budget -= size
        if self.alias_budget < 0:
            raise self.fail(event, "aliases expand to too many values: write the data out")
        self.place(event, value, size, None)

    def place(self, event: Any, value: Any, size: int, anchor: str | None) -> None:
        """Put a finished value (a scalar, an alias's value, a closed collection) where it belongs: the
        root, the next item of a list, or a mapping's next key or value."""
        if anchor is not None:
            self.anchors[anchor] = (value, size)
        if not self.stack:
            self.marks.setdefault((), _line_column(event))
            self.root = value
            return
        top = self.stack[-1]
        top.size += size
        if isinstance(top.value, list):
            path: KeyPath = (*top.path, len(top.value))
            top.value.append(value)
        elif not top.has_key:
            if isinstance(value, dict | list):
                raise self.fail(event, "a mapping key must be a plain value")
            top.key, top.has_key, top.repeated = value, True, value in top.value
            if top.repeated:
                self.repeated(event, (*top.path, value))
            return
        else:
            path = (*top.path, top.key)
            if not top.repeated:
                top.value[top.key] = value
            top.has_key = False
        self.marks.setdefault(path, _line_column(event))

    def repeated(self, event: Any, path: KeyPath) -> None:
        """A key given twice: told with the file's other problems; the first one's value is kept."""
        line = self.marks[path][0]
        message = f"appears twice (first on line {line}); give each key once"
        where = _line_column(event)
        self.problems.append(Problem(path, message).at(f"{self.source}:{where[0]}:{where[1]}", where))


def decode(data: bytes, source: str) -> str:
    """UTF-8 text of a file's bytes; a bad byte is a ChargenError naming its line and column."""
    if len(data) > MAX_BYTES:
        raise ChargenError(
            f"{source}: {len(data):,} bytes is over the limit of {MAX_BYTES:,} for a chargen file"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise ChargenError(
            f"{source}:{line}:{column}: not UTF-8 text (byte 0x{data[error.start]:02x})"
        ) from None


def read_file(path: Path, shown: str | None = None, *, regular: bool = False) -> str:
    """The text of a character file or table; every failure one line naming the file. `regular`: only a
    regular file (a table, a ruleset): a named pipe in its place would wait for ever for a writer, a
    device never end."""
    name = shown if shown is not None else str(path)
    try:
        # O_NONBLOCK: opening a named pipe does not wait for a writer; a regular file ignores it.
        handle = os.open(path, os.O_RDONLY | (os.O_NONBLOCK if regular else 0))
        with os.fdopen(handle, "rb") as stream:
            if regular and not stat.S_ISREG(os.fstat(handle).st_mode):
                raise ChargenError(f"{_short_name(name)}: not a regular file")
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise ChargenError(f"{_short_name(name)}: cannot read ({error.strerror})") from None
    return decode(data, name)


def _short_name(name: str) -> str:
    return name if len(name) <= 80 else name[:77] + "..."


def read_stdin() -> str:
    """Standard input as text; closed, unreadable or not UTF-8 is one line."""
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise ChargenError("<stdin>: standard input is closed")
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is None:  # a text stream put in its place (tests, embedding programs)
            return str(sys.stdin.read(MAX_BYTES + 1))
        data = stream.read(MAX_BYTES + 1)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ChargenError(f"<stdin>: cannot read standard input ({reason})") from None
    return decode(data, "<stdin>")


def load_located(text: str, source: str, *, alias_budget: int = 0, gather: bool = False) -> Located:
    """Parse one YAML document of plain values, keeping marks. Broken or hostile YAML (tags, merge keys,
    aliases beyond `alias_budget` values, deep nesting, huge numbers) is a ChargenError naming line and
    column. Character files get no aliases; tables get TABLE_ALIAS_BUDGET. A key given twice is a
    ChargenError too, or with `gather` kept in the Located's `problems`, to be told beside the others."""
    if len(text) > MAX_BYTES:
        raise ChargenError(
            f"{source}: {len(text):,} characters is over the limit of {MAX_BYTES:,} for a chargen file"
        )
    builder = _Builder(source, alias_budget)
    try:
        for event in parse_events(text, source):
            builder.feed(event)
    except (ValueError, OverflowError) as error:  # a plain value PyYAML cannot construct
        raise ChargenError(f"{source}: broken YAML: {_short(str(error))}") from None
    if builder.problems and not gather:
        raise ChargenError(builder.problems[0].text)
    return Located(builder.root, source, builder.marks, builder.problems)


def parse_events(text: str, source: str) -> Iterator[yaml.Event]:
    """The parser's events for `text`, each with its start and end in the text (character offsets);
    broken YAML is a ChargenError naming its line and column."""
    try:
        yield from yaml.parse(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise ChargenError(f"{where}: broken YAML: {_sentence(_told(error))}") from None
    except yaml.YAMLError as error:
        raise ChargenError(f"{source}: broken YAML: {_sentence(str(error))}") from None


def _told(error: yaml.MarkedYAMLError) -> str:
    """PyYAML's sentence, and for a tab (which YAML never reads as indentation) what to do instead."""
    problem = str(error.problem or error.context)
    tab = "tab" in problem or "'\\t'" in problem
    return f"{problem}; indent with spaces, not tabs" if tab else problem


def dump_yaml(data: Mapping[str, Any]) -> str:
    """Block-style YAML in the mapping's own key order; short lists of numbers stay on one line."""
    return yaml.dump(data, Dumper=_FlowListDumper, sort_keys=False, allow_unicode=True, width=100)


class _FlowListDumper(_Dumper):
    pass


def _represent_list(dumper: _FlowListDumper, data: list[Any]) -> yaml.Node:
    flow = all(isinstance(item, int | float | str) and not isinstance(item, bool) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow and bool(data))


def _represent_dict(dumper: _FlowListDumper, data: dict[Any, Any]) -> yaml.Node:
    # Small all-scalar mappings ({name: dagger, rank: 1}, {race: 2, gender: 0}) read best on one line.
    scalar = all(isinstance(value, int | float | str | bool) for value in data.values())
    flow = scalar and 0 < len(data) <= 4
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


_FlowListDumper.add_representer(list, _represent_list)
_FlowListDumper.add_representer(dict, _represent_dict)


def flow_yaml(value: object) -> str:
    """A value as flow YAML on one line (`{award: 500, note: after the siege}`, `55`, `'01-08'`), quoted
    where the reader would otherwise take it for something else (`'yes'`, `'12'`)."""
    listed = yaml.dump(
        [value], Dumper=_Dumper, default_flow_style=True, sort_keys=False, allow_unicode=True, width=2**30
    )
    return listed.strip()[1:-1]  # `[value]`: a value alone would end with the document marker `...`
