"""Standalone programs: every row as a CUDA program (nvcc) and a CPU twin (C++ compiler) that run without Python."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from warp_cuda_ir import launch, schema, warp_session
from warp_cuda_ir.errors import one_line
from warp_cuda_ir.launch import has_launch_record
from warp_cuda_ir.standalone import program as programs
from warp_cuda_ir.standalone.program import data, literal_count, runs_backward, with_fields
from warp_cuda_ir.standalone.values import ArgumentValue, argument_values, with_runs

NO_LAUNCH_RECORD = "no launch record"
# Values (scalar components) a program may hold as literals. A captured launch can hold up to 1 MB of
# compressed arrays: written out as C literals, the largest real row's program was 11.8 MB of text (median
# 13 KB). Rows past this get programs that compile the kernel and say why they launch nothing; the values
# stay in the row's `launch_record`. 65,536 values is ~0.8 MB of text. All-zero arrays are no text (the program
# allocates them zeroed; newton's `_zero_active_count_kernel` reads 262,145 zeros), only memory, capped apart.
MAX_PROGRAM_VALUES = 65_536
MAX_PROGRAM_BYTES = 1 << 28


@dataclass(frozen=True)
class ProgramInputs:
    """What a row's programs embed: its launch's input values, or why they launch nothing."""

    values: list[ArgumentValue] | None
    reason: str | None = None


def program_inputs(row: Mapping[str, Any], kernel: Any, namespace: Mapping[str, Any]) -> ProgramInputs:
    """The row's inputs from `launch.prepare` on the CPU (as the validation pass makes them), with the kernel
    already loaded; a row without a launch record, or whose inputs cannot be made, gets the reason instead."""
    if not has_launch_record(row):
        return ProgramInputs(None, NO_LAUNCH_RECORD)
    try:
        return ProgramInputs(argument_values(launch.prepare(row, kernel, namespace, "cpu"), row))
    except Exception as e:  # never fail a build over its programs: they say why they do not run
        return ProgramInputs(None, f"inputs could not be made: {type(e).__name__}: {one_line(e)}")


def program_columns(row: Mapping[str, Any], inputs: ProgramInputs | None = None) -> dict[str, str]:
    """The row's `cuda_program`, `cpu_program` and `makefile` columns (pure text from the row).

    `inputs`: `program_inputs` of the row, made by a caller that has its kernel loaded already; without
    them a row with a launch record loads its kernel here.
    """
    if inputs is None and not has_launch_record(row):
        inputs = ProgramInputs(None, NO_LAUNCH_RECORD)
    if inputs is None:
        try:
            with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
                inputs = program_inputs(row, kernel, namespace)
        except Exception as e:  # the source does not load: the programs say so
            inputs = ProgramInputs(None, f"inputs could not be made: {type(e).__name__}: {one_line(e)}")
    values, reason = inputs.values, inputs.reason
    if values is not None:
        reason = fit_inputs(values, row)
        if reason is not None:
            values = None
    data_text = data(values) if values is not None else None
    return {
        "cuda_program": programs.program(row, values, "cuda", reason, data_text),
        "cpu_program": programs.program(row, values, "cpu", reason, data_text),
        "makefile": programs.makefile(row),
    }


def fit_inputs(values: list[ArgumentValue], row: Mapping[str, Any]) -> str | None:
    """Shapes a program's inputs to the cap on literals, in place; the reason it launches nothing if they still
    do not fit (None: they fit).

    Past the cap, index-like inputs become runs of progressions, then arrays the kernel only stores into start
    zeroed instead of as captured (`unread_arrays`: the launch never reads their values; what it leaves unwritten
    prints zero). Warp's reference launch (`reference.reference_run`) starts from the same zeros. Of the 4 real
    rows of a default build over the cap, 3 were such outputs: warp-lang's `sphere_corner_values_kernel`
    (262,144 captured floats in `out`), `torus_field_kernel`, newton's `emit_topology_voxels_hash`.
    """
    count, size = literal_count(values), sum(v.values.nbytes for v in with_fields(values))
    if count > MAX_PROGRAM_VALUES:  # index-like inputs take fewer literals as runs of progressions
        with_runs(values)
        count = literal_count(values)
    if count > MAX_PROGRAM_VALUES:
        aliased = {name for v in with_fields(values) if v.alias for name in (v.alias, v.name)}
        unread = unread_arrays(row) - aliased
        for v in values:
            if v.kind == "array" and v.name in unread:
                v.values, v.runs, v.zeroed = np.zeros_like(v.values), None, True
        count = literal_count(values)
    if count > MAX_PROGRAM_VALUES:
        return f"{schema.INPUTS_TOO_LARGE} ({count:,} values, at most {MAX_PROGRAM_VALUES:,})"
    if size > MAX_PROGRAM_BYTES:
        return f"{schema.INPUTS_TOO_LARGE} ({size:,} bytes, at most {MAX_PROGRAM_BYTES:,})"
    return None


def unread_arrays(row: Mapping[str, Any]) -> frozenset[str]:
    """Array parameters of the row's kernel that its body only stores into (`out[i, j] = v`) or asks the shape of:
    the launch never reads their values. A name passed to a call, read, or updated (`+=`, atomics) is read."""
    try:
        tree = ast.parse(row["python_source"])
    except (SyntaxError, KeyError, TypeError):
        return frozenset()
    name = row.get("kernel_name")
    kernel = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if kernel is None:
        return frozenset()
    parents = {child: node for node in ast.walk(kernel) for child in ast.iter_child_nodes(node)}
    stored: set[str] = set()
    read: set[str] = set()
    for node in ast.walk(kernel):
        if not isinstance(node, ast.Name):
            continue
        up = parents.get(node)
        if isinstance(up, ast.Attribute) and up.attr == "shape":
            continue
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Store):
            if not isinstance(parents.get(up), ast.AugAssign):
                stored.add(node.id)
                continue
        read.add(node.id)
    return frozenset(stored - read)


def reference_columns(row: Mapping[str, Any]) -> dict[str, Any]:
    """`standalone_reference_digest`: Warp's own CPU launch of the row, forward then backward, as digest lines.

    Run by the validation pass's worker right after the row's CPU stage, while the compiled CPU module is in
    Warp's kernel cache. Null when the row has no launch record or the launch fails (the CPU stage says why).
    """
    from warp_cuda_ir.standalone.reference import reference_run

    if not has_launch_record(row):
        return {"standalone_reference_digest": None}
    try:
        backward = runs_backward(row, "cpu")
        source = row["python_source"]
        with warp_session.loaded_kernel(source, row.get("kernel_name"), backward=backward) as (kernel, namespace):
            _, lines = reference_run(row, kernel, namespace)
    except Exception:  # the CPU stage reports launch failures; this digest is then simply absent
        return {"standalone_reference_digest": None}
    return {"standalone_reference_digest": "\n".join(lines)}
