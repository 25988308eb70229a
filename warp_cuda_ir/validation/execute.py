"""CPU compile and launch of a row (the reference): its output digest and output statistics.

The two steps are separate stages with their own status (`cpu_compile_status`, `cpu_run_status`):
`run_cpu` reports which one it is entering, so whoever watches a worker that then hangs or dies
blames the right one. There is no timing column: see `schema.py` (1.3) for why it was removed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, schema, warp_session
from warp_cuda_ir.errors import ExtractionError, one_line
from warp_cuda_ir.validation import outputs
from warp_cuda_ir.validation.compile_cuda import LOG_LIMIT
from warp_cuda_ir.validation.output_stats import OutputStats, output_stats
from warp_cuda_ir.warp_session import captured_stderr


@dataclass
class CpuRun:
    compile_status: str  # "ok" | "error" | "skipped"
    run_status: str  # "ok" | "error" | "skipped"
    error: str | None = None  # of the stage that failed (compile or run)
    digest: str | None = None
    output_stats: list[OutputStats] = field(default_factory=list)
    nonfinite: bool | None = None  # an output holds NaN/Inf
    inputs: dict[str, np.ndarray] = field(default_factory=dict)  # arrays before the launch
    results: dict[str, np.ndarray] = field(default_factory=dict)  # arrays after the launch
    run_skip_reason: str | None = None  # a value of schema.SKIP_REASONS when the launch was skipped


def load_module(kernel: Any, device: str, row: Mapping[str, Any] | None = None) -> str | None:
    """Compile/load the kernel's module on `device` for `row`'s launch (default: Warp's default block size);
    the compiler's message on failure."""
    with captured_stderr() as log:
        try:
            # The block size the row's launch will use, or the launch compiles the module a second time.
            kernel.module.load(wp.get_device(device), block_dim=launch.block_dim(row or {}, device))
            error = None
        except Exception as e:
            error = f"{type(e).__name__}: {e}"
    if error is not None:
        return (error + "\n" + log[0]).strip()[-LOG_LIMIT:]
    return None


def run_cpu(
    row: Mapping[str, Any],
    kernel: Any,
    namespace: Mapping[str, Any],
    on_stage: Callable[[str], None] = lambda stage: None,
) -> CpuRun:
    """Compile the loaded kernel for the CPU, launch it with the row's inputs, describe the outputs.

    `on_stage("cpu_compile")` and `on_stage("cpu_run")` are called as each step starts.
    """
    on_stage("cpu_compile")
    error = load_module(kernel, "cpu", row)
    if error is not None:
        return CpuRun("error", "skipped", error, run_skip_reason=schema.DID_NOT_COMPILE_CPU)
    if not launch.has_launch_record(row):
        return CpuRun("ok", "skipped", run_skip_reason=schema.NO_LAUNCH_RECORD)
    on_stage("cpu_run")
    try:
        prepared = launch.prepare(row, kernel, namespace, "cpu")
        before = {name: a.numpy().copy() for name, a in prepared.arrays().items()}
        after = launch.run(prepared, "cpu")
    except Exception as e:
        return CpuRun("ok", "error", f"{type(e).__name__}: {one_line(e)}")
    names = outputs.output_names(prepared.arguments)
    stats = output_stats(before, after, names)
    return CpuRun("ok", "ok", None, outputs.digest(after), stats, outputs.nonfinite(after, names), before, after)


def validate_cpu(row: Mapping[str, Any]) -> CpuRun:
    """Load the row's source and run it on the CPU (for callers without a loaded kernel)."""
    try:
        with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
            return run_cpu(row, kernel, namespace)
    except ExtractionError as e:
        return CpuRun("error", "skipped", str(e), run_skip_reason=schema.SOURCE_DOES_NOT_LOAD)


def program_output_stats(program: Any, seed: int) -> list[OutputStats]:
    """The validation pass's `output_stats` for a generated `program` launched with the inputs of row `seed`.

    Straight from the program, without extracting the CUDA/CPU texts first (for the generator's
    tests and `benchmarks/degenerate.py`). Raises RuntimeError when the program does not compile or
    launch (that is a generator bug too).
    """
    record = {
        "seed": seed,
        "arguments": [a.to_row() for a in program.arguments],
        "launch_dim": list(program.launch_dim),
        "block_dim": program.block_dim,
        "launch_tiled": program.launch_tiled,
    }
    with warp_session.own_kernel_cache():
        try:
            with warp_session.loaded_kernel(program.source, program.kernel_name) as (kernel, namespace):
                cpu = run_cpu(record, kernel, namespace)
        finally:
            # as the validation worker does after each row: compiled sample modules are never reused (read
            # again: a first `wp.init` inside the block adds Warp's version folder to it)
            warp_session.forget_compiled_rows(wp.config.kernel_cache_dir)
    if cpu.run_status != "ok":
        stage = "compile" if cpu.compile_status != "ok" else "launch"
        raise RuntimeError(f"seed {seed}: CPU {stage} failed: {(cpu.error or '').splitlines()[0]}")
    return cpu.output_stats
