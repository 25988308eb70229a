"""Variety statistics of a built dataset folder, computed from its Parquet files.

Rows per category, distinct Warp built-ins used (against the number Warp offers, read from
Warp), distinct normalized program shapes (the Python AST with identifiers and literals
erased) as a fraction of rows, Python/CUDA length distributions and a dtype histogram.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from warp_cuda_ir.synthesis.catalogue import offered_builtins

COLUMNS = ["category", "python_source", "cuda_forward", "arguments"]
# Python operators Warp implements as built-ins of these names.
_OPERATORS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Mod: "mod", ast.FloorDiv: "floordiv",
    ast.BitAnd: "bit_and", ast.BitOr: "bit_or", ast.BitXor: "bit_xor", ast.LShift: "lshift", ast.RShift: "rshift",
    ast.USub: "neg", ast.Invert: "invert", ast.Not: "unot", ast.MatMult: "mul",
}  # fmt: skip


def parquet_files(out: Path) -> list[Path]:
    files = sorted((Path(out) / "data").glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"no Parquet files under {Path(out) / 'data'}")
    return files


def _warp_name(node: ast.AST, offered: frozenset[str]) -> str | None:
    """`name` when `node` spells `wp.<name>` for a Warp built-in."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp":
        return node.attr if node.attr in offered else None
    return None


def builtins_used(tree: ast.AST, offered: frozenset[str]) -> set[str]:
    """`wp.<name>(...)` calls naming a Warp built-in, built-ins passed as functions (`wp.tile_map(wp.sin, t)`,
    `wp.tile_reduce(wp.max, t)`), plus operators Warp maps to built-ins."""
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (name := _warp_name(node.func, offered)):
            used.add(name)
            # Positional arguments only: keywords such as `dtype=wp.float64` name types, not calls.
            used.update(n for arg in node.args if (n := _warp_name(arg, offered)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in offered:
            used.add(node.func.id)  # float(x), int(x), min/max/abs/range as Warp resolves them
        elif isinstance(node, ast.BinOp | ast.UnaryOp | ast.AugAssign) and type(node.op) in _OPERATORS:
            used.add(_OPERATORS[type(node.op)])
    return used


def shape_of(tree: ast.AST) -> str:
    """The program's shape: its AST dump with every identifier and literal erased."""
    for node in ast.walk(tree):
        for attr in ("id", "arg", "name", "attr"):
            if isinstance(getattr(node, attr, None), str):
                setattr(node, attr, "_")
        if isinstance(node, ast.Constant):
            node.value = 0
    return ast.dump(tree, annotate_fields=False)


def _distribution(values: list[int]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])  # noqa: E731
    return {"min": float(ordered[0]), "p50": pick(0.5), "p90": pick(0.9), "max": float(ordered[-1])}


def variety(out: Path) -> dict[str, Any]:
    """Variety figures of the dataset folder `out` (raises FileNotFoundError without Parquet)."""
    offered = offered_builtins()
    categories: Counter[str] = Counter()
    dtypes: Counter[str] = Counter()
    used: Counter[str] = Counter()
    shapes: set[str] = set()
    py_lengths: list[int] = []
    cuda_lengths: list[int] = []
    rows = 0
    for path in parquet_files(out):
        table = pq.read_table(path, columns=COLUMNS).to_pylist()
        for row in table:
            rows += 1
            categories[row["category"]] += 1
            tree = ast.parse(row["python_source"])
            used.update(builtins_used(tree, offered))
            shapes.add(shape_of(tree))
            py_lengths.append(len(row["python_source"]))
            cuda_lengths.append(len(row["cuda_forward"]))
            dtypes.update(a["dtype"] for a in row["arguments"])
    if rows == 0:
        raise FileNotFoundError(f"no rows in the Parquet files under {out}")
    return {
        "rows": rows,
        "rows_per_category": dict(sorted(categories.items())),
        "builtins_used": len(used),
        "builtins_offered": len(offered),
        "builtin_counts": dict(used.most_common()),
        "distinct_shapes": len(shapes),
        "distinct_shape_fraction": len(shapes) / rows,
        "python_chars": _distribution(py_lengths),
        "cuda_forward_chars": _distribution(cuda_lengths),
        "dtypes": dict(dtypes.most_common()),
    }


def variety_markdown(out: Path, with_categories: bool = True) -> str:
    """Markdown tables of the variety figures (the card leaves out categories: it has its own table)."""
    v = variety(out)
    lines = [
        "| measure | value |",
        "|---|---|",
        f"| rows | {v['rows']} |",
        f"| distinct Warp built-ins used | {v['builtins_used']} of {v['builtins_offered']} |",
        f"| distinct program shapes | {v['distinct_shapes']} ({v['distinct_shape_fraction']:.1%} of rows) |",
    ]
    for key, label in (("python_chars", "Python source"), ("cuda_forward_chars", "CUDA forward")):
        d = v[key]
        spread = f"min {d['min']:.0f}, median {d['p50']:.0f}, p90 {d['p90']:.0f}, max {d['max']:.0f}"
        lines.append(f"| {label} length (chars) | {spread} |")
    if with_categories:
        lines += [
            "",
            "| category | rows |",
            "|---|---|",
            *(f"| {c} | {n} |" for c, n in v["rows_per_category"].items()),
        ]
    lines += ["", "| argument dtype | count |", "|---|---|", *(f"| {d} | {n} |" for d, n in v["dtypes"].items())]
    return "\n".join(lines) + "\n"


def to_json(out: Path) -> str:
    return json.dumps(variety(out), indent=2)
