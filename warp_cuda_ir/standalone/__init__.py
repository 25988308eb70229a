"""Standalone programs: every row as a CUDA program (nvcc) and a CPU twin (C++ compiler) that run without Python."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
        count, size = literal_count(values), sum(v.values.nbytes for v in with_fields(values))
        if count > MAX_PROGRAM_VALUES:  # index-like inputs take fewer literals as runs of progressions
            with_runs(values)
            count = literal_count(values)
        if count > MAX_PROGRAM_VALUES:
            values, reason = None, f"{schema.INPUTS_TOO_LARGE} ({count:,} values, at most {MAX_PROGRAM_VALUES:,})"
        elif size > MAX_PROGRAM_BYTES:
            values, reason = None, f"{schema.INPUTS_TOO_LARGE} ({size:,} bytes, at most {MAX_PROGRAM_BYTES:,})"
    data_text = data(values) if values is not None else None
    return {
        "cuda_program": programs.program(row, values, "cuda", reason, data_text),
        "cpu_program": programs.program(row, values, "cpu", reason, data_text),
        "makefile": programs.makefile(row),
    }


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
