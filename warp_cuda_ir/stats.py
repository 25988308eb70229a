"""Variety statistics of a built dataset folder, computed from its Parquet files.

Rows per category, distinct Warp built-ins used (against the number Warp offers, read from
Warp), distinct normalized program shapes (the Python AST with identifiers and literals
erased) as a fraction of rows, Python/CUDA length distributions and a dtype histogram.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from warp_cuda_ir.synthesis.catalogue import offered_builtins

COLUMNS = ["category", "warp_builtins", "program_shape", "python_source", "cuda_forward", "arguments"]


def parquet_files(out: Path) -> list[Path]:
    files = sorted((Path(out) / "data").glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"no Parquet files under {Path(out) / 'data'}")
    return files


def _distribution(values: list[int]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])  # noqa: E731
    return {"min": float(ordered[0]), "p50": pick(0.5), "p90": pick(0.9), "max": float(ordered[-1])}


def variety(out: Path) -> dict[str, Any]:
    """Variety figures of the dataset folder `out` (raises FileNotFoundError without Parquet)."""
    # Only counting in Arrow: the per-row facts were computed by the build (`source_facts`).
    table = pq.read_table(parquet_files(out), columns=COLUMNS)
    rows = table.num_rows
    if rows == 0:
        raise FileNotFoundError(f"no rows in the Parquet files under {out}")

    def counts(values: pa.Array | pa.ChunkedArray) -> Counter[str]:
        return Counter({c["values"].as_py(): c["counts"].as_py() for c in pc.value_counts(values)})

    categories = counts(table["category"])
    used = counts(pc.list_flatten(table["warp_builtins"]))
    dtypes = counts(pc.struct_field(pc.list_flatten(table["arguments"]), "dtype"))
    shapes = len(pc.unique(table["program_shape"]))
    offered = offered_builtins()
    return {
        "rows": rows,
        "rows_per_category": dict(sorted(categories.items())),
        "builtins_used": len(used),
        "builtins_offered": len(offered),
        "builtin_counts": dict(used.most_common()),
        "distinct_shapes": shapes,
        "distinct_shape_fraction": shapes / rows,
        "python_chars": _distribution(pc.utf8_length(table["python_source"]).to_pylist()),
        "cuda_forward_chars": _distribution(pc.utf8_length(table["cuda_forward"]).to_pylist()),
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
