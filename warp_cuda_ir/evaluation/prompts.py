"""The prompt view of a row for a target column: what a model is given and the signature its answer must have.

Build prompts from this view so every user asks the same question: the Python kernel (`python_source`),
the generated helpers the answer may call (`<target>_helpers`, compiled beside it), and the heads of the
functions the answer must define, as Warp generates them (names, template parameters, parameter lists).
The answer replaces the whole column: for `cpu_forward` that is the argument struct, the forward kernel
function and its entry-point block; for `cpu_backward` the backward kernel and its entry-point block; for
`cuda_*` one `__global__` function. The row's own other direction is compiled beside the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from warp_cuda_ir.evaluation.candidate import TARGET_COLUMNS, target_of
from warp_cuda_ir.validation.dataset import data_files

# The columns a prompt view reads.
VIEW_COLUMNS: tuple[str, ...] = (
    "id",
    "kernel_name",
    "kernel_symbol",
    "python_source",
    *(f"{t}_{part}" for t in ("cpu", "cuda") for part in ("helpers", "forward", "backward")),
)

# A function head as Warp writes it: an optional template line, then `... void name(...)` up to the line `{`.
_HEAD = re.compile(
    r"^(?P<head>(?:template <[^\n]*>\n)?(?:extern \"C\" __global__ |static WP_FORCEINLINE |static |WP_API )"
    r"void \w+\([^{}]*?\))\n\{",
    re.M,
)
_STRUCT = re.compile(r"^struct wp_args_\w+ \{\n(?:[^\n]*\n)*?\};\n", re.M)

_TASK = {
    "cpu_forward": "the C++ of the kernel's forward pass on the CPU, as NVIDIA Warp generates it",
    "cpu_backward": "the C++ of the kernel's backward (adjoint) pass on the CPU, as NVIDIA Warp generates it",
    "cuda_forward": "the CUDA C++ of the kernel's forward pass, as NVIDIA Warp generates it",
    "cuda_backward": "the CUDA C++ of the kernel's backward (adjoint) pass, as NVIDIA Warp generates it",
}


def signatures(row: Mapping[str, Any], column: str) -> list[str]:
    """What the answer must define, in order: the argument struct (cpu_forward) and every function head."""
    text = row[column] or ""
    found = [m.group("head") for m in _HEAD.finditer(text)]
    if column == "cpu_forward":
        found = [m.group(0).rstrip("\n") for m in _STRUCT.finditer(text)] + found
    return found


def prompt_view(row: Mapping[str, Any], column: str) -> dict[str, Any]:
    """The view of `row` for target `column`: ids, the kernel, helpers, required signatures and a prompt text."""
    if column not in TARGET_COLUMNS:
        raise ValueError(f"column {column!r} is not one of {', '.join(TARGET_COLUMNS)}")
    target = target_of(column)
    helpers = row.get(f"{target}_helpers") or ""
    heads = signatures(row, column)
    parts = [
        f"Write {_TASK[column]} for this Warp kernel (`{row['kernel_name']}`, compiled as `{row['kernel_symbol']}`).",
        "",
        "```python",
        row["python_source"].rstrip("\n"),
        "```",
    ]
    if helpers.strip():
        parts += ["", "These generated helpers are compiled before your code and may be called:", "", "```cpp"]
        parts += [helpers.strip("\n"), "```"]
    parts += ["", "Your answer must define, with exactly these heads:", "", "```cpp", "\n\n".join(heads), "```"]
    return {
        "id": row["id"],
        "column": column,
        "kernel_name": row["kernel_name"],
        "kernel_symbol": row["kernel_symbol"],
        "python_source": row["python_source"],
        "helpers": helpers,
        "signatures": heads,
        "prompt": "\n".join(parts) + "\n",
    }


def prompt_views(folder: Path, columns: Sequence[str], splits: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """The view of every row of a dataset folder (of `splits`; None: all) for each of `columns` it has."""
    for path in data_files(folder):
        if splits is not None and path.name.split("-", 1)[0] not in splits:
            continue
        for row in pq.read_table(path, columns=list(VIEW_COLUMNS)).to_pylist():
            yield from (prompt_view(row, column) for column in columns if row.get(column))
