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

Number = int | float

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
        if isinstance(node, ast.Name) and node.id not in {*inputs, *constants, *FUNCTIONS}:
            known = ", ".join(sorted({*inputs, *constants}))
            raise FormulaError(f"unknown input `{node.id}` (known: {known})")


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
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise FormulaError(f"syntax error in formula {text!r}: {error.msg}") from None
    _check_nodes(tree, inputs, constants)
    body = _Fold(constants).visit(tree).body
    if any(_fractional(node) for node in ast.walk(body)):  # only `/` or a fraction makes one: whole it
        body = ast.Call(ast.Name("int", ast.Load()), [body], [])
    sample = dict.fromkeys(inputs, 1) | dict(constants)
    try:
        simpleeval.SimpleEval(names=sample, functions=FUNCTIONS).eval(text.strip())
    except Exception as error:  # any refusal by the library is a table error
        raise FormulaError(f"formula {text!r}: {error}") from None
    arguments = ast.arguments(
        posonlyargs=[], args=[ast.arg(name) for name in inputs], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    lambda_tree = ast.fix_missing_locations(ast.Expression(ast.Lambda(arguments, body)))
    scope: dict[str, Any] = {"__builtins__": {}, "int": int, **FUNCTIONS}
    function = eval(compile(lambda_tree, "<formula>", "eval"), scope)  # a checked tree, never text
    used = frozenset(node.id for node in ast.walk(body) if isinstance(node, ast.Name))
    return Formula(text.strip(), inputs, function, _unwrapped(body), used)


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
    text = formula.folded.replace("True", "1").replace("False", "0")
    text = text.replace(" // ", " div ").replace(" / ", " \u00f7 ")
    return text.replace("*", "\u00d7").replace(" - ", " \u2212 ").replace("_", " ")
