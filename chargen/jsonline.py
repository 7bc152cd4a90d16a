"""A Character as one compact JSON line, written straight from its dataclasses.

The batch's JSONL line is `json.dumps(to_document(character), ensure_ascii=False, separators=(",", ":"))`.
Made that way, a batch NPC is turned into a mapping (about 150 values) and the mapping into text: together
about 29 us, a third of a compiled batch NPC. This module writes the same text in one pass (about 16 us,
json.dumps alone taking about 20), with one straight-line function per dataclass made from its fields (as
`chargen.model.to_document` makes its converters): the same keys in the same order, the same fields left
out, each value spelled as `json` spells it; the records characters share (SHARED_RECORDS) are written
once each. Any value whose type is not the one its field declares (a bool where an int is declared, a
float, a dict key that is not a string, an optional characteristic named like one of the eight) goes
through `json` itself, so the text is the very same whatever the Character holds; tests/test_jsonline.py
compares the two on rolled characters, house rules and every golden character file. The functions are
written out once as a module (chargen/jsonline_writers.py, WRITTEN), which a run imports instead of making
them.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from functools import cache
from json.encoder import encode_basestring  # json's own C string writer
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from chargen.model import (
    OMIT,
    ArmorLine,
    Carried,
    Character,
    Characteristics,
    MagicRanked,
    Modifier,
    Ranked,
    to_document_value,
)
from chargen.vocabulary import EIGHT

__all__ = ["json_text"]

Writer = Callable[[Any], str]
#: The encoder `json.dumps(..., ensure_ascii=False, separators=(",", ":"))` uses: the way out for a value
#: this module does not spell itself.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_WRITERS: dict[type, Writer] = {}
#: Records chargen makes once and shares between the characters of a run (the race and gender modifiers of
#: the tables, equipment's Carried weapons, abilities, armor lines): their text is written once and then
#: remembered. Per batch NPC, 9 Modifiers, 3 Carried, 1 Ranked and 1 ArmorLine, of which about 0.2, 0.3,
#: 0.2 and 0.05 are new: a line in 16 us instead of 20 (compiled). Weapon and unarmed lines are left out:
#: over NPCs 1-3,000 only 31% and 42% of them were met before, and remembering theirs made an NPC cost more
#: (807,000 instructions to 820,000, callgrind over NPCs 301-1,300).
SHARED_RECORDS = (Modifier, Carried, Ranked, ArmorLine, MagicRanked)
#: The most texts remembered for each of those: far more than a run meets.
KEPT_TEXTS = 4096
#: The writers of every record a Character holds, written out as a module (`module_text`; write it again
#: with `python -m chargen.jsonline` after changing chargen.model or this module): the first line of a
#: run imports them rather than making them (3.5 ms of a batch's start). Written from other dataclasses or
#: another text of this module (FINGERPRINT), the module is not used and the writers are made here.
WRITTEN = Path(__file__).with_name("jsonline_writers.py")
_PLAIN = (int, str, float, bool, type(None))


class _IntText(dict[int, str]):
    """Ints as json spells them, the small ones made once: a lookup is about half the time of int.__repr__,
    and most of a line's 80 or so ints are characteristics, ranks, chances and silver under 2,000."""

    def __missing__(self, number: int) -> str:
        return int.__repr__(number)


_INT_TEXT = _IntText((number, int.__repr__(number)) for number in range(-100, 2000))


def json_text(character: Character) -> str:
    """The character file on one line, byte for byte what `json.dumps` makes of `to_document`."""
    return _writer_of(Character)(character)


def _raw(value: object) -> str:
    """A value `to_document` passes on as it is, spelled by json."""
    return _ENCODER.encode(value)


def _doc(value: object) -> str:
    """A value `to_document` turns with `to_document_value`, spelled by json."""
    return _ENCODER.encode(to_document_value(value))


def _key(key: object) -> str:
    """A mapping's key that is not a string, as json spells it (or refuses it)."""
    return _ENCODER.encode({key: 0})[1:-3]


_str = encode_basestring
_int = _INT_TEXT
_float = float.__repr__
_finite = math.isfinite
_EIGHT = EIGHT
#: The names a writer's text reads besides its records' writers: the globals of the writers made here
#: (`_compiled`) and what the written module imports from here (`module_text`), so both read the same.
_HELPER_NAMES = ("_EIGHT", "_doc", "_finite", "_float", "_int", "_key", "_raw", "_str")
_HELPERS: dict[str, Any] = {name: globals()[name] for name in _HELPER_NAMES}


def _writer_of(kind: type) -> Writer:
    writer = _WRITERS.get(kind)
    if writer is None and not _WRITERS:
        _WRITERS.update(_written_writers())
        writer = _WRITERS.get(kind)
    if writer is None:
        writer = _dataclass_writer(kind)
        writer = _WRITERS[kind] = _remembering(writer) if kind in SHARED_RECORDS else writer
    return writer


@cache
def _written_writers() -> dict[type, Writer]:
    """The writers of the WRITTEN module, when it was written from today's records and this module's
    text (else none: they are made here)."""
    try:
        from chargen import jsonline_writers as written
    except ImportError:  # not there, or naming a record chargen.model no longer has
        return {}
    return dict(written.WRITERS) if fingerprint(written.KINDS) == written.FINGERPRINT else {}


def fingerprint(kinds: Iterable[type]) -> str:
    """What writers are made from: this module's text (its lines, whatever their endings) and each record's
    fields (name, declared type, whether left out when empty). Where a declared type is spelled otherwise
    (another Python), the written module is not used: the writers are made here, the same."""
    try:
        digest = hashlib.sha256(Path(__file__).read_text(encoding="utf-8").encode())
    except OSError:  # pragma: no cover - an installation without this module's source
        return ""
    for kind in kinds:
        described = [(item.name, item.type, bool(item.metadata.get(OMIT))) for item in fields(kind)]
        digest.update(repr((kind.__qualname__, described)).encode())
    return digest.hexdigest()[:16]


def _remembering(writer: Writer) -> Writer:
    """`writer`, remembering the text of each record it wrote, by the record's identity. The entry holds
    the record, so no other record can have its id while the entry lasts; the records are frozen and hold
    only strings and numbers, so their text never changes."""
    texts: dict[int, tuple[object, str]] = {}

    def write(value: Any) -> str:
        known = texts.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        text = writer(value)
        if len(texts) >= KEPT_TEXTS:
            texts.clear()
        texts[id(value)] = (value, text)
        return text

    return write


#: How a value of a plain type is spelled, as Python text of the value `{v}`: json's own spelling when its
#: class is exactly the declared one (a bool is an int to Python, `true` to json), else `{other}` decides.
_SPELLINGS: dict[object, str] = {
    str: "(_str({v}) if {v}.__class__ is str else {other}({v}))",
    int: "(_int[{v}] if {v}.__class__ is int else {other}({v}))",
    # json spells a finite float by its repr, and nan or infinity its own way (through `other`).
    float: "(_float({v}) if {v}.__class__ is float and _finite({v}) else {other}({v}))",
    bool: "('true' if {v} is True else 'false' if {v} is False else {other}({v}))",
}


#: The same, for a value whose class has just been checked.
_CHECKED: dict[object, str] = {
    str: "_str({v})",
    int: "_int[{v}]",
    float: "(_float({v}) if _finite({v}) else {other}({v}))",
}


def _expression(hint: Any, name: str, refs: list[type], depth: int = 0) -> str:
    """Python text that spells `name`, a field or item declared as `hint`, as json spells what
    `to_document` makes of it (chargen.model._field_converter, case for case)."""
    origin, arguments = get_origin(hint), get_args(hint)
    if hint in _PLAIN:
        return _SPELLINGS.get(hint, "{other}({v})").format(v=name, other="_raw")
    if origin is Union or origin is UnionType:
        kinds = [argument for argument in arguments if argument is not type(None)]
        if len(kinds) == 1:
            return f"('null' if {name} is None else {_expression(kinds[0], name, refs, depth)})"
        return _dynamic(hint, name, depth, "_raw" if all(kind in _PLAIN for kind in kinds) else "_doc")
    if origin is list:
        item = f"e{depth}"
        return _list_text(name, item, _expression(arguments[0], item, refs, depth + 1))
    if origin is dict:
        item, key = f"e{depth}", f"k{depth}"
        each = _expression(arguments[1], item, refs, depth + 1)
        pairs = f"[(_str({key}) if {key}.__class__ is str else _key({key})) + ':' + {each} for {key}, {item} in {name}.items()]"
        return f"','.join({pairs}).join('{{}}')"
    if isinstance(hint, type) and is_dataclass(hint):
        if hint not in refs:
            refs.append(hint)
        return f"write_{hint.__name__}({name})"
    return f"_doc({name})"


def _list_text(name: str, item: str, each: str) -> str:
    """Python text that spells the list `name` as json does, each `item` of it spelled by the text `each`."""
    return f"','.join([{each} for {item} in {name}]).join('[]')"


def _dynamic(hint: Any, name: str, depth: int, other: str = "_doc") -> str:
    """`name` by its class rather than its declared type, for a union such as a roll (an int or a list of
    ints, turned by `to_document_value`) or a weight (an int or a float, passed on as it is): each plain
    member and list spelled here, anything else by `other`."""
    origin = get_origin(hint)
    members = get_args(hint) if origin is Union or origin is UnionType else (hint,)
    choices = []
    for kind in members:
        if kind in _CHECKED:
            choices.append(
                (f"{name}.__class__ is {kind.__name__}", _CHECKED[kind].format(v=name, other=other))
            )
        elif get_origin(kind) is list:
            item = f"e{depth}"
            spelling = _list_text(name, item, _dynamic(get_args(kind)[0], item, depth + 1, other))
            choices.append((f"{name}.__class__ is list", spelling))
    text = f"{other}({name})"
    for condition, spelling in reversed(choices):
        text = f"({spelling} if {condition} else {text})"
    return text


def _dataclass_writer(kind: type) -> Writer:
    lines, refs = _writer_lines(kind)
    return _compiled(kind.__name__, lines, {f"write_{ref.__name__}": _writer_of(ref) for ref in refs})


def _writer_lines(kind: type) -> tuple[list[str], list[type]]:
    """The body of the function that writes `kind`, and the dataclasses it calls the writers of: each field
    read once, then every `"key":value` joined in one go (a field marked OMITTED only when it is neither
    None nor [], as `to_document` leaves it out). One join, not a text grown field by field: that would
    copy the line again at every field. When the first field may be left out, every field starts with its
    comma and the first comma is dropped at the end."""
    if kind is Characteristics:
        return _characteristics_lines(), []
    hints = get_type_hints(kind)
    refs: list[type] = []
    first_may_go = bool(fields(kind)[0].metadata.get(OMIT))
    lines, parts = [], []
    for number, item in enumerate(fields(kind)):
        name = f"v{number}"
        lines.append(f"    {name} = value.{item.name}")
        key = json.dumps("," * (number > 0 or first_may_go) + json.dumps(item.name) + ":")
        spelling = _expression(hints[item.name], name, refs)
        if item.metadata.get(OMIT):
            parts.append(f"({key} + {spelling} if {name} is not None and {name} != [] else '')")
        else:
            parts.extend((key, spelling))
    joined = f"''.join([{', '.join(parts)}])"
    lines.append(
        f"    return '{{' + {joined}[1:] + '}}'" if first_may_go else f"    return {joined}.join('{{}}')"
    )
    return lines, refs


def _characteristics_lines() -> list[str]:
    """One flat mapping, as `to_document` writes it: the eight in the book's order, then the optional ones.
    An optional one named like one of the eight would take that one's place: `_doc` writes that."""
    eight = ", ".join(
        f"{json.dumps(',' * (number > 0) + json.dumps(code) + ':')}, {_expression(int, f'value.{code}', [])}"
        for number, code in enumerate(EIGHT)
    )
    optional = _expression(dict[str, int], "optional", [])
    return [
        "    optional = value.optional",
        "    if optional.__class__ is not dict or any([code in optional for code in _EIGHT]):",
        "        return _doc(value)",
        f"    text = ''.join(['{{', {eight}])",
        f"    return text + (',' + {optional}[1:] if optional else '}}')",
    ]


def _compiled(name: str, body: list[str], scope: dict[str, Writer]) -> Writer:
    """`def write(value): <body>`, with `scope` and the spellings above as its globals; the text is made
    here from field names and types only, never from data."""
    source = "def write(value):\n" + "\n".join(body) + "\n"
    namespace: dict[str, Any] = {**scope, **_HELPERS}
    exec(compile(source, f"<json_text {name}>", "exec"), namespace)
    writer: Writer = namespace["write"]
    return writer


def record_kinds(root: type = Character) -> list[type]:
    """`root` and every record its writer calls the writer of, each after those it calls."""
    kinds: list[type] = []
    seen: set[type] = set()

    def visit(kind: type) -> None:
        seen.add(kind)
        for ref in _writer_lines(kind)[1]:
            if ref not in seen:
                visit(ref)
        kinds.append(kind)

    visit(root)
    return kinds


def module_text() -> str:
    """The text of the WRITTEN module: each record's writer as `_writer_lines` makes it (a shared record's
    remembering its texts), by name, with the fingerprint of what it was made from."""
    kinds = record_kinds()
    text = [
        '"""The JSONL line writers of chargen.jsonline, written out by `python -m chargen.jsonline`: do not',
        'edit (tests/test_jsonline.py checks this is what chargen.jsonline writes today)."""',
        "",
        "from typing import Any",
        "",
        f"from chargen.jsonline import {', '.join(_HELPER_NAMES)}, _remembering",
        f"from chargen.model import {', '.join(sorted(kind.__name__ for kind in kinds))}",
    ]
    for kind in kinds:
        name = kind.__name__
        made = f"_made_{name}" if kind in SHARED_RECORDS else f"write_{name}"
        text += ["", "", f"def {made}(value: Any) -> str:", *_writer_lines(kind)[0]]
        if kind in SHARED_RECORDS:
            text += ["", "", f"write_{name} = _remembering({made})"]
    names = [kind.__name__ for kind in kinds]
    text += [
        "",
        "",
        f"KINDS = ({', '.join(names)})",
        f"WRITERS = {{{', '.join(f'{name}: write_{name}' for name in names)}}}",
        f'FINGERPRINT = "{fingerprint(kinds)}"',
    ]
    return "\n".join(text) + "\n"


if __name__ == "__main__":
    WRITTEN.write_text(module_text(), encoding="utf-8")
