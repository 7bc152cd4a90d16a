"""The working behind a derived value: the formula the tables (or a ruleset) state, its inputs with their values
and where each came from, the rule, and what the character holds when the value is read.

A Working holds the very Formula object that computed the value, so `recomputed()` evaluates it again on the
stated inputs: the working can never drift from the number it explains. A value the tables give as a sum
(a characteristic and its modifiers, modified Agility) has no formula: its terms add up.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from chargen.errors import InputError, Problem
from chargen.errors import shown as quoted
from chargen.formulas import Formula, written

MINUS = "\u2212"


@dataclass(frozen=True, slots=True)
class Term:
    """One input: the formula's name for it, its value (None: the tables give none) and where it came from."""

    name: str
    value: int | None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Override:
    """A value the GM ruled: what the rules compute is kept beside it."""

    computed: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class Node:
    """Which value of the graph: a value of the character (`defense`), or a value of one row of the record
    (a weapon line, found by its place among the weapons, whatever its id is spelled like)."""

    name: str  # the value's name: `defense`, `characteristics.PS`, or within a row `strike_chance`
    row: int | None = None  # the weapon line's place in combat.weapons; None: not a weapon line
    row_key: str = ""  # the row's name in keys, `weapons.dagger-2` or `unarmed`; "": not a row

    @property
    def key(self) -> str:
        """The value's name as `chargen explain` takes it and an override names it."""
        return f"{self.row_key}.{self.name}" if self.row_key else self.name

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups `chargen explain` also finds it by: `weapons` and `weapons.dagger-2` for a weapon
        line's value, `unarmed`, `defense_postures`; none for a characteristic or the armored TMR."""
        if self.row is not None:
            return ("weapons", self.row_key)
        return (self.row_key,) if self.row_key in ("unarmed", "defense_postures") else ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Working:
    """How one derived value was reached: the node of the graph it is, and its working."""

    node: Node
    label: str
    value: int | None
    rule: str
    terms: tuple[Term, ...]
    formula: Formula | None = None  # None: the terms add up
    minimum: int | None = None  # the least the value may be (5.6's TMR)
    held: str = ""  # the configuration the value assumes: what is held, prepared or slung
    other: str = ""  # the value in the other configuration, where it differs
    alternative: int | None = None  # that value, for the record's short note
    shown: str = ""  # the value as the record prints it, when not the number itself (a damage: D10+4)
    override: Override | None = None

    @property
    def key(self) -> str:
        return self.node.key

    def recomputed(self) -> int | None:
        """The formula evaluated again on the stated inputs (or the terms added up), at least the minimum."""
        result = self._worked_out()
        if self.minimum is not None and result is not None:
            result = max(self.minimum, result)
        return result

    def _worked_out(self) -> int | None:
        """What the formula (or the sum) gives before any minimum."""
        values = [term.value for term in self.terms]
        if self.formula is not None:
            return self.formula.maybe(*values)
        return None if None in values else sum(value for value in values if value is not None)

    def raised(self) -> str:
        """`, raised to the minimum of 1` where the arithmetic gives less than the least the value may be
        (5.6: no TMR below 1); "" otherwise."""
        result = self._worked_out()
        if self.minimum is None or result is None or result >= self.minimum:
            return ""
        return f", raised to the minimum of {_number(self.minimum)}"

    def arithmetic(self) -> str:
        """The formula with the inputs' values written in, and what it gives: `18 + 2 x 2 = 22` (with times
        and minus signs); below a minimum, `2 - 4 = -2, raised to the minimum of 1`."""
        raised = self.raised()
        result = self._worked_out() if raised else self.recomputed()
        given = "—" if result is None else _number(result)
        worked = self.sum_text()
        return (given if worked == given else f"{worked} = {given}") + raised

    def headline(self) -> str:
        """`Defense 22 = 18 + 2 x 2`; a damage `Dagger damage D10, modifier 0`; an override says so."""
        if self.override is not None:
            computed = "—" if self.override.computed is None else _number(self.override.computed)
            worked = self.sum_text()
            rules = computed if worked == computed else f"{computed} = {worked}{self.raised()}"
            return f"{self.label} {self.value} (the GM's: {self.override.reason}); the rules give {rules}"
        if self.shown:
            return f"{self.label} {self.shown}, modifier {self.arithmetic()}"
        given = "—" if self.value is None else _number(self.value)
        worked = self.sum_text()
        return (
            f"{self.label} {given}" if worked == given else f"{self.label} {given} = {worked}{self.raised()}"
        )

    def used_terms(self) -> tuple[Term, ...]:
        """The inputs the formula names (all the terms of a sum)."""
        if self.formula is None:  # a sum: what it adds (a 0 left out)
            return tuple(term for index, term in enumerate(self.terms) if index == 0 or term.value != 0)
        return tuple(term for term in self.terms if term.name in self.formula.used)

    def lines(self) -> list[str]:
        """The working as `chargen explain` prints it: the value and its arithmetic, then each input."""
        lines = [f"{self.headline()} ({self.rule})"]
        if self.formula is not None:
            lines.append(f"  formula: {self.formula_text()}")
        for term in self.used_terms():
            value = "—" if term.value is None else _number(term.value)
            source = f": {term.source}" if term.source else ""
            lines.append(f"  {term.name.replace('_', ' ')} {value}{source}")
        if self.held:
            lines.append(f"  held: {self.held}")
        if self.other:
            lines.append(f"  otherwise: {self.other}")
        return lines

    def sum_text(self) -> str:
        """The formula (or the sum) with the inputs' values written in."""
        if self.formula is None:
            return _added(self.terms)
        values = {term.name: term.value for term in self.terms}
        if any(values[name] is None for name in self.formula.used if name in values):
            return written(self.formula.folded)
        tree = ast.parse(self.formula.folded, mode="eval")
        body = _Substituted(values).visit(tree).body
        text = written(ast.unparse(body))
        return _minus(text)

    def formula_text(self) -> str:
        """The formula as the tables state it (its numbers written in), or its terms' names added up."""
        if self.formula is not None:
            return _minus(written(self.formula.folded))
        return " + ".join(term.name.replace("_", " ") for term in self.terms)

    def overridden(self, value: int, reason: str) -> Working:
        """This working with the GM's value in place of the one its formula gives (kept beside it)."""
        return replace(self, value=value, override=Override(self.recomputed(), reason))


def _number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _minus(text: str) -> str:
    """A negative number written with a minus sign, as the record writes it."""
    text = f"{MINUS}{text[1:]}" if text.startswith("-") else text
    return text.replace("(-", f"({MINUS}").replace(", -", f", {MINUS}")


def _added(terms: tuple[Term, ...]) -> str:
    """`13 - 1`: the terms' values added up, each after its sign (a 0 left out)."""
    parts = []
    for index, term in enumerate(terms):
        value = term.value
        if value == 0 and index > 0:
            continue  # nothing added, as the book writes its sums
        if value is None:
            parts.append("—" if index == 0 else "+ —")
        elif index == 0:
            parts.append(_number(value))
        else:
            parts.append(f"+ {value}" if value >= 0 else f"{MINUS} {-value}")
    return " ".join(parts)


class _Substituted(ast.NodeTransformer):
    """The folded formula with each input's value written in; a term that comes to nothing (`5 x 0`, `+ 0`)
    left out, as the book writes its arithmetic ([18 + (2 x 2%)] = 22%)."""

    def __init__(self, values: dict[str, int | None]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.values.get(node.id)
        if value is None:
            return node
        return ast.copy_location(ast.Constant(value), node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        left, right, operation = node.left, node.right, node.op
        if isinstance(operation, ast.Mult) and (_zero(left) or _zero(right)):
            return ast.Constant(0)
        if isinstance(operation, (ast.Add, ast.Sub)) and _zero(right):
            return left
        if isinstance(operation, ast.Add) and _zero(left):
            return right
        negative = isinstance(right, ast.Constant) and isinstance(right.value, int) and right.value < 0
        if negative and isinstance(operation, (ast.Add, ast.Sub)):  # `a + -4` is written `a - 4`
            flipped = ast.Sub() if isinstance(operation, ast.Add) else ast.Add()
            return ast.BinOp(left, flipped, ast.Constant(-right.value))  # type: ignore[attr-defined]
        return node


def _zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


WorkingDocument = dict[str, object]


def as_document(working: Working) -> WorkingDocument:
    """A working as `chargen explain --format json` writes it."""
    document: WorkingDocument = {
        "key": working.key,
        "label": working.label,
        "value": working.value,
        "shown": working.shown or None,
        "rule": working.rule,
        "formula": working.formula_text(),
        "arithmetic": working.arithmetic(),
        "inputs": [
            {"name": term.name, "value": term.value, "source": term.source} for term in working.used_terms()
        ],
        "held": working.held or None,
        "otherwise": working.other or None,
    }
    if working.override is not None:
        document["override"] = {"computed": working.override.computed, "reason": working.override.reason}
    return document


def selected(found: list[Working], names: Sequence[str]) -> list[Working]:
    """The workings `names` name (each a value, as `defense`, or a group, as `weapons.broadsword`), in the
    order asked; all of them for no name. A name no value has is one InputError with the nearest names."""
    if not names:
        return found
    chosen: list[Working] = []
    for name in names:
        wanted = _spelled(name)
        matched = [item for item in found if wanted in _names_of(item)]
        if not matched:
            raise _unknown(name, found)
        chosen += [item for item in matched if item not in chosen]
    return chosen


def _unknown(name: str, found: list[Working]) -> InputError:
    spellings = sorted({item.key for item in found})
    close = difflib.get_close_matches(_spelled(name), spellings, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"one of {', '.join(spellings[:12])}, ..."
    message = (
        f"{quoted(name)} is not a value chargen works out; {hint} (`chargen explain FILE` lists them all)"
    )
    return InputError(Problem(label="explain", message=message, value=name))


def _spelled(name: str) -> str:
    """A name as people type it: any case, spaces or hyphens for underscores, `combat.` left off."""
    text = "_".join(name.strip().casefold().replace("-", " ").split())
    return text.removeprefix("combat.").replace("._", ".").replace("_.", ".")


def _names_of(item: Working) -> set[str]:
    """The names a working answers to: its key, each group it stands in, and its label."""
    node = item.node
    short = node.name if node.row_key == "characteristics" else _spelled(item.key)
    groups = {_spelled(group) for group in node.groups}
    return {_spelled(item.key), _spelled(short), _spelled(item.label), *groups}
