"""The number a literal spells in Warp source: one reading for every module that reads programs."""

from __future__ import annotations

import ast


def number(e: ast.expr) -> float | None:
    """The value of a numeric literal, through signs and casts (`-0.5`, `wp.int64(-2)`, `float(0.5)`); None for
    anything else (a bool is no number here)."""
    if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
        return float(e.value)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        inner = number(e.operand)
        return None if inner is None else (-inner if isinstance(e.op, ast.USub) else inner)
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords:
        return number(e.args[0])
    return None
