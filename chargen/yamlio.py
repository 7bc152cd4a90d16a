"""YAML in and out. Reading keeps the line and column of every node so messages can point into the file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from chargen.errors import ChargenError

try:  # the C loader is several times faster; fall back to pure Python where libyaml is absent
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

Path_ = tuple[str | int, ...]


@dataclass
class Located:
    """A parsed YAML document plus the 1-based (line, column) of every key path in it."""

    data: Any
    source: str
    marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Iterable[str | int]) -> str:
        """`source:line:column` of the deepest known node on `path`."""
        key = tuple(path)
        while key and key not in self.marks:
            key = key[:-1]
        line, column = self.marks.get(key, (1, 1))
        return f"{self.source}:{line}:{column}"


def parse_path(text: str) -> tuple[str | int, ...]:
    """The inverse of format_path: `weapons[2].rank` -> ("weapons", 2, "rank")."""
    parts: list[str | int] = []
    for piece in text.replace("[", ".[").split("."):
        if piece.startswith("[") and piece.endswith("]") and piece[1:-1].isdigit():
            parts.append(int(piece[1:-1]))
        elif piece:
            parts.append(piece)
    return tuple(parts)


def format_path(path: Iterable[str | int]) -> str:
    """`weapons[2].rank` style key path."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


class _Converter:
    """Turns a composed node tree into Python data, noting each node's position on the way."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.marks: dict[Path_, tuple[int, int]] = {}
        self._loader = yaml.SafeLoader("")

    def convert(self, node: yaml.Node, path: Path_) -> Any:
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.scalar(key_node)
                if key in result:
                    where = f"{self.source}:{key_node.start_mark.line + 1}:{key_node.start_mark.column + 1}"
                    raise ChargenError(f"{where}: key {format_path((*path, key))} appears twice")
                result[key] = self.convert(value_node, (*path, key))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, (*path, index)) for index, item in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node: yaml.Node) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            where = f"{self.source}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"
            raise ChargenError(f"{where}: a mapping key must be a plain value")
        return self._loader.construct_object(node, deep=True)


def load_located(text: str, source: str) -> Located:
    """Parse one YAML document, keeping marks. Broken YAML is a ChargenError naming line and column."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise ChargenError(f"{where}: broken YAML: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise ChargenError(f"{source}: broken YAML: {error}") from None
    converter = _Converter(source)
    data = None if root is None else converter.convert(root, ())
    return Located(data, source, converter.marks)


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
