"""What a Warp Python expression evaluates to, for given values of the names it reads.

Two readers ask what a condition of a generated program does on its inputs: the generator (`synthesis.probe`:
is a comparison it drew decided by its form?) and the measure of conditions (`clauses`: can a clause change its
condition's outcome?). Both evaluate the expression on sampled values; this module is that evaluation, for the
arithmetic, comparisons, casts, vector constructors and the built-ins listed in `FUNCTIONS`. Anything else
raises `Unreadable`, and a reader then treats the expression as unknown, never as decided.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


class Unreadable(Exception):
    """A construct not evaluated here: its reader treats the expression as unknown."""


def _cast(kind: str, bits: int | None = None) -> Callable[[Any], Any]:
    def convert(x: Any) -> Any:
        if kind == "float":
            return float(x)
        if kind == "bool":
            return bool(x)
        value = math.trunc(float(x))
        return value % (1 << bits) if bits else value

    return convert


def _vector(*parts: Any) -> np.ndarray:
    return np.array([float(p) for p in parts]) if parts else np.zeros(3)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": lambda x: np.abs(x),
    "sqrt": lambda x: math.sqrt(x),
    "sin": math.sin,
    "cos": math.cos,
    "tanh": math.tanh,
    "exp": lambda x: math.exp(min(x, 50.0)),
    "floor": math.floor,
    "ceil": math.ceil,
    "trunc": math.trunc,
    "min": lambda a, b: np.minimum(a, b),
    "max": lambda a, b: np.maximum(a, b),
    "clamp": lambda x, lo, hi: min(max(x, lo), hi),
    "length": lambda v: float(np.linalg.norm(v)),
    "length_sq": lambda v: float(np.dot(v, v)),
    "dot": lambda a, b: float(np.dot(a, b)),
    "where": lambda c, a, b: a if c else b,
    "isfinite": lambda x: bool(np.all(np.isfinite(x))),
    "isnan": lambda x: bool(np.any(np.isnan(x))),
    "isinf": lambda x: bool(np.any(np.isinf(x))),
    "float": _cast("float"),
    "int": _cast("int"),
    "bool": _cast("bool"),
}
for _name, _kind, _bits in (
    ("float16", "float", None),
    ("float32", "float", None),
    ("float64", "float", None),
    ("int8", "int", None),
    ("int16", "int", None),
    ("int32", "int", None),
    ("int64", "int", None),
    ("uint8", "int", 8),
    ("uint16", "int", 16),
    ("uint32", "int", 32),
    ("uint64", "int", 64),
):
    FUNCTIONS[_name] = _cast(_kind, _bits)
for _n in range(2, 5):
    for _suffix in ("", "f", "d", "h"):
        FUNCTIONS[f"vec{_n}{_suffix}"] = _vector
for _suffix in ("", "f", "d", "h"):
    FUNCTIONS[f"quat{_suffix}"] = _vector


def evaluate(node: ast.AST, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise Unreadable(node.id)
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        value = evaluate(node.operand, env)
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.Not):
            return not value
        raise Unreadable(type(node.op).__name__)
    if isinstance(node, ast.BinOp):
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        op = type(node.op)
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            both_composite = isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
            return a @ b if both_composite and (a.ndim == 2 or b.ndim == 2) else a * b
        if op is ast.Div:
            return a / b if np.all(b != 0) else _raise("division by zero")
        raise Unreadable(op.__name__)
    if isinstance(node, ast.Subscript):
        value = evaluate(node.value, env)
        index = evaluate(node.slice, env)
        return value[index]
    if isinstance(node, ast.Tuple):
        return tuple(evaluate(e, env) for e in node.elts)
    if isinstance(node, ast.Attribute) and node.attr in ("x", "y", "z", "w") and not _is_wp(node.value):
        return evaluate(node.value, env)["xyzw".index(node.attr)]
    if isinstance(node, ast.Call) and not node.keywords:
        name = node.func.attr if isinstance(node.func, ast.Attribute) and _is_wp(node.func.value) else None
        if isinstance(node.func, ast.Name):
            name = node.func.id
        function = FUNCTIONS.get(name or "")
        if function is None:
            raise Unreadable(str(name))
        return function(*(evaluate(a, env) for a in node.args))
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = evaluate(node.left, env), evaluate(node.comparators[0], env)
        return _compare(type(node.ops[0]), a, b)
    raise Unreadable(type(node).__name__)


def _is_wp(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "wp"


def _raise(why: str) -> Any:
    raise Unreadable(why)


def _compare(op: type, a: Any, b: Any) -> bool:
    if op is ast.Lt:
        return bool(a < b)
    if op is ast.Gt:
        return bool(a > b)
    if op is ast.LtE:
        return bool(a <= b)
    if op is ast.GtE:
        return bool(a >= b)
    if op is ast.Eq:
        return bool(a == b)
    if op is ast.NotEq:
        return bool(a != b)
    raise Unreadable(op.__name__)


def constant_value(tree: ast.AST, draw: Callable[[], Mapping[str, Any]], samples: int) -> bool | None:
    """The truth value `tree` takes on every one of `samples` environments `draw()` makes; None when it takes
    both (it stops at the second) or when an evaluation fails (a construct not known here, a domain error)."""
    seen: set[bool] = set()
    with np.errstate(all="ignore"):  # infinities and NaN among the samples are meant
        for _ in range(samples):
            try:
                seen.add(bool(evaluate(tree, draw())))
            except (Unreadable, ArithmeticError, ValueError, TypeError, IndexError, KeyError):
                return None
            if len(seen) == 2:
                return None
    return seen.pop() if seen else None
