"""The CPU modules of a batch of rows, compiled by Warp's Clang in few calls before the rows run.

A row's Warp step loads up to three CPU modules: the row's own (CPU compile and run, output digest),
the same module with its backward for the standalone reference launch (the same module when the source
enables backward, as generated rows do), and the gradient check's (float scalars exposed as arrays, widened
to float64 when that generates; the row's own precision otherwise; at `gradients.optimization_level`).
Each used to be one Clang call of its own; `cpu_units` compiles a batch's modules in one translation unit
per optimisation level into Warp's kernel cache, so nothing else in the row's step changes (checked on the
Parquet of a 64-row pass: byte-identical files). A module that fails there is compiled by Warp in the row's
step, as before, and the row's stage reports Warp's own error.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from warp_cuda_ir import cpu_units, extraction, warp_session
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.launch import has_launch_record
from warp_cuda_ir.standalone.program import runs_backward
from warp_cuda_ir.validation import gradients


class _Variant(NamedTuple):
    """A module the row's step loads: its source, loaded with backward or not, at which optimisation level
    (None: Warp's), and whether it is the gradient check's float64 variant."""

    source: str
    backward: bool
    level: int | None = None
    widened: bool = False


def _variants(row: Mapping[str, Any], standalone: bool) -> Iterator[_Variant]:
    """The modules the row's step loads, as `row.execution_columns`, `standalone.reference_columns` and
    `gradients.check` load them."""
    yield _Variant(row["python_source"], False)
    if not has_launch_record(row):
        return  # nothing runs: the CPU compile alone
    if standalone and runs_backward(row, "cpu"):
        yield _Variant(row["python_source"], True)
    if row.get("cuda_backward") and row.get("cpu_backward"):
        level = gradients.optimization_level(row)
        try:
            yield _Variant(gradients.expose_parameters(gradients.widen_row(row))[0]["python_source"], True, level, True)
        except Exception:
            yield _Variant(gradients.expose_parameters(row)[0]["python_source"], True, level)


def _module(variant: _Variant, kernel_name: str | None, known: Container[str]) -> warp_session.CpuModule | None:
    source, backward, level = variant.source, variant.backward, variant.level
    try:
        with warp_session.loaded_kernel(source, kernel_name, backward=backward, optimization_level=level) as loaded:
            return warp_session.cpu_module(loaded[0], extraction.CPU_BLOCK_DIM, known)
    except (ExtractionError, SyntaxError):
        return None


def modules_of(rows: Sequence[Mapping[str, Any]], standalone: bool) -> list[warp_session.CpuModule]:
    """The CPU modules the rows' Warp steps will load and Warp's kernel cache lacks, each once."""
    found: dict[str, warp_session.CpuModule] = {}
    for row in rows:
        name = row.get("kernel_name")
        for variant in _variants(row, standalone):
            # A variant already found is not generated twice (the reference launch's module is the row's own
            # when the source enables backward); the widened one is always, so that None means it failed.
            module = _module(variant, name, () if variant.widened else found)
            if module is None and variant.widened:  # the check falls back to the row's own precision
                fallback = gradients.expose_parameters(row)[0]["python_source"]
                module = _module(_Variant(fallback, True, variant.level), name, found)
            if module is not None:
                found.setdefault(module.identifier, module)
    return list(found.values())


def prebuild(rows: Sequence[Mapping[str, Any]], standalone: bool, workdir: Path) -> int:
    """Compile the CPU modules the rows' Warp steps will load, batched, into Warp's kernel cache; returns
    how many modules it put there."""
    return cpu_units.compile_into_kernel_cache(modules_of(rows, standalone), workdir)
