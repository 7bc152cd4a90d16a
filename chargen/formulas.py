"""Formulas as data: the expressions in combat.yaml (and a ruleset's changes to them), checked and compiled once
when the tables load.

Why simpleeval: it is small, pure Python, widely used and kept up, and its whole safety model is a whitelist of
AST node and operator types, which is exactly what a table formula needs. Its evaluator walks the tree on every
call, too slow for roll+derive (several formulas per character), so a formula is checked twice - against our own
narrower whitelist (arithmetic, comparisons, `x if c else y`, min/max/floor/ceil, the named inputs) and by one
simpleeval evaluation - and the checked tree, never raw text, is then compiled to a plain Python function.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import simpleeval  # type: ignore[import-untyped]

from chargen.errors import TableError
from chargen.errors import shown as shown_value

Number = int | float
#: A formula's result must fit a character file (chargen.yamlio.MAX_NUMBER, what the reader accepts).
MAX_RESULT = 10**15
#: A formula longer than this is refused when the tables load (the book's longest is under 100).
MAX_FORMULA = 1_000
#: A formula nested deeper than this is refused when the tables load: checking, folding and compiling walk
#: the tree recursively, and 500 nested terms would exhaust Python's stack (the book's deepest is 6).
MAX_DEPTH = 100

FUNCTIONS: dict[str, Callable[..., Number]] = {"min": min, "max": max, "floor": math.floor, "ceil": math.ceil}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.Not)
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_NODES: tuple[type[ast.AST], ...] = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.And, ast.Or)
_NODES += (ast.Compare, ast.IfExp, ast.Call, ast.Name, ast.Load, ast.Constant, *_OPERATORS, *_COMPARISONS)


class FormulaError(ValueError):
    """A formula that cannot be used: the loader adds its file, line, column and key."""


@dataclass(frozen=True)
class Formula:
    """One checked expression: its text, its inputs in calling order, and the compiled function."""

    text: str
    inputs: tuple[str, ...]
    function: Callable[..., int]  # always a whole number (see compile_formula)
    folded: str = ""  # the text with the table's numbers written in, for the record's caption
    used: frozenset[str] = frozenset()  # the inputs the expression names
    constant_items: tuple[tuple[str, Number], ...] = ()  # the table's numbers it was compiled with

    def __reduce__(self) -> tuple[Callable[..., Formula], tuple[object, ...]]:
        # Sent to a spawned worker with the tables (chargen.processes): compiled again there, since a
        # compiled function does not pickle.
        return _compiled, (self.text, self.inputs, self.constant_items)

    def __call__(self, *values: Number) -> int:
        """The value (a whole number: the compiled function rounds down only when the formula divides)."""
        return self.function(*values)

    def maybe(self, *values: Number | None) -> int | None:
        """None (no value: "—" on the record) when an input the formula names has no value."""
        if None not in values:
            return self.function(*values)
        for name, value in zip(self.inputs, values, strict=True):  # a loop: a batch NPC asks this 7 times
            if value is None and name in self.used:
                return None
        return self.function(*[0 if value is None else value for value in values])


def _guarded(function: Callable[..., int], text: str, inputs: tuple[str, ...]) -> Callable[..., int]:
    """`function`, giving a whole number within what a character file holds (±MAX_RESULT) or one
    TableError naming the formula: a GM's formula that overflows, gives NaN or a number no file can hold
    is never a traceback, nor a file chargen would then refuse to read."""

    def guarded(*values: Number) -> int:
        try:
            value = function(*values)
        except (ArithmeticError, TypeError, ValueError, RecursionError) as error:
            raise _failed(text, inputs, values, f"fails ({type(error).__name__})") from None
        if type(value) is not int or not -MAX_RESULT <= value <= MAX_RESULT:
            raise _failed(
                text, inputs, values, f"gives {shown_value(value)}, not a whole number within ±10^15"
            )
        return value

    return guarded


def _failed(text: str, inputs: tuple[str, ...], values: tuple[Number, ...], what: str) -> TableError:
    given = ", ".join(f"{name}={value}" for name, value in zip(inputs, values, strict=False))
    return TableError(f"formula {shown_value(text)} {what} for {shown_value(given)}")


def _check_nodes(tree: ast.AST, inputs: tuple[str, ...], constants: Mapping[str, Number]) -> None:
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise FormulaError(f"`{type(node).__name__}` is not allowed in a formula")
        if isinstance(node, ast.Constant) and (
            isinstance(node.value, bool) or not isinstance(node.value, Number)
        ):
            raise FormulaError(f"only numbers may be written in a formula, not {node.value!r}")
        if isinstance(node, ast.Call) and (
            not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords
        ):
            raise FormulaError(f"only {', '.join(FUNCTIONS)} may be called in a formula")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            _check_arguments(node.func.id, len(node.args))
        if isinstance(node, ast.Name) and node.id not in {*inputs, *constants, *FUNCTIONS}:
            known = ", ".join(sorted({*inputs, *constants}))
            raise FormulaError(f"unknown input `{node.id}` (known: {known})")


def _check_arguments(function: str, count: int) -> None:
    """min and max of two numbers or more, floor and ceil of one: `max(base)` would fail at each roll."""
    if function in ("floor", "ceil") and count != 1:
        raise FormulaError(f"{function}() takes one number")
    if function in ("min", "max") and count < 2:
        raise FormulaError(f"{function}() takes two numbers or more")


class _Fold(ast.NodeTransformer):
    """Writes the table's constants into the tree and refuses a divisor that is not a non-zero number."""

    def __init__(self, constants: Mapping[str, Number]) -> None:
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        for kept, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(node.op, ast.Mult) and isinstance(other, ast.Constant) and other.value == 1:
                return kept  # `1 * rank`, `True * modified_md`: the table's switch is on
        if (
            isinstance(node.op, (ast.Add, ast.Sub))
            and isinstance(node.right, ast.Constant)
            and node.right.value == 0
        ):
            return node.left
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            divisor = node.right
            if not isinstance(divisor, ast.Constant) or divisor.value == 0:
                raise FormulaError(
                    f"`{ast.unparse(node)}` could divide by zero: divide only by a non-zero number"
                )
        return node


def compile_formula(text: str, inputs: tuple[str, ...], constants: Mapping[str, Number]) -> Formula:
    """Check `text` and compile it to a function of `inputs` (positional), with `constants` written in: once
    per table load (the schema's check and the section's compiled formula share one compilation)."""
    return _compiled(text, inputs, tuple(constants.items()))


@functools.lru_cache(maxsize=256)
def _compiled(text: str, inputs: tuple[str, ...], constant_items: tuple[tuple[str, Number], ...]) -> Formula:
    constants = dict(constant_items)
    if len(text) > MAX_FORMULA:
        raise FormulaError(f"formula {shown_value(text)} is longer than {MAX_FORMULA:,} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise FormulaError(f"syntax error in formula {shown_value(text)}: {error.msg}") from None
    except (RecursionError, MemoryError, ValueError):  # nested past the parser's depth, a NUL byte
        raise FormulaError(f"formula {shown_value(text)} cannot be read") from None
    if _depth(tree) > MAX_DEPTH:
        raise FormulaError(
            f"formula {shown_value(text)} is nested more than {MAX_DEPTH} terms deep: split it into simpler terms"
        )
    _check_nodes(tree, inputs, constants)
    body = _Fold(constants).visit(tree).body
    if any(_fractional(node) for node in ast.walk(body)):  # only `/` or a fraction makes one: whole it
        body = ast.Call(ast.Name("int", ast.Load()), [body], [])
    sample = dict.fromkeys(inputs, 1) | dict(constants)
    try:
        simpleeval.SimpleEval(names=sample, functions=FUNCTIONS).eval(text.strip())
    except Exception as error:  # any refusal by the library is a table error
        raise FormulaError(f"formula {shown_value(text)}: {shown_value(str(error))}") from None
    arguments = ast.arguments(
        posonlyargs=[], args=[ast.arg(name) for name in inputs], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    lambda_tree = ast.fix_missing_locations(ast.Expression(ast.Lambda(arguments, body)))
    scope: dict[str, Any] = {"__builtins__": {}, "int": int, **FUNCTIONS}
    compiled = eval(compile(lambda_tree, "<formula>", "eval"), scope)  # a checked tree, never text
    function = _guarded(compiled, text.strip(), inputs)
    used = frozenset(node.id for node in ast.walk(body) if isinstance(node, ast.Name))
    return Formula(text.strip(), inputs, function, _unwrapped(body), used, constant_items)


def _depth(tree: ast.AST) -> int:
    """How deep the tree nests, measured without recursion (a deep tree is what is being guarded against)."""
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _fractional(node: ast.AST) -> bool:
    return isinstance(node, ast.Div) or (isinstance(node, ast.Constant) and isinstance(node.value, float))


def _unwrapped(body: ast.expr) -> str:
    """The folded text, without the int() put around a formula that divides."""
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id == "int":
        return ast.unparse(body.args[0])
    return ast.unparse(body)


def constants_of(section: Mapping[str, Any]) -> dict[str, Number]:
    """The numbers of a table section a formula in it may name (`rank_multiplier`, ...)."""
    return {key: value for key, value in section.items() if isinstance(value, Number)}


def shown(formula: Formula) -> str:
    """A formula as the record prints it: its numbers written in, times and minus signs, no underscores."""
    return written(formula.folded)


def written(text: str) -> str:
    """Python expression text as the record prints it: times and minus signs, no underscores."""
    text = text.replace("True", "1").replace("False", "0")
    text = text.replace(" // ", " div ").replace(" / ", " \u00f7 ")
    return text.replace("*", "\u00d7").replace(" - ", " \u2212 ").replace("_", " ")
