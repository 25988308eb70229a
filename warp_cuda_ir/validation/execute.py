"""CPU compile and launch of a row (the reference), its output digest and launch time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, warp_session
from warp_cuda_ir.errors import ExtractionError, one_line
from warp_cuda_ir.validation import outputs
from warp_cuda_ir.validation.compile_cuda import LOG_LIMIT
from warp_cuda_ir.warp_session import captured_stderr

TIMING_LAUNCHES = 5


@dataclass
class CpuRun:
    compile_status: str  # "ok" | "error" | "skipped"
    run_status: str  # "ok" | "error" | "skipped"
    error: str | None = None
    digest: str | None = None
    trivial: str | None = None  # reason, when the outputs are trivial
    nonfinite: bool | None = None  # an output holds NaN/Inf
    kernel_ms: float | None = None
    inputs: dict[str, np.ndarray] = field(default_factory=dict)  # arrays before the launch
    results: dict[str, np.ndarray] = field(default_factory=dict)  # arrays after the launch


def median_launch_ms(prepared: launch.Launch, device: str, repeats: int = TIMING_LAUNCHES) -> float:
    """Median wall time of `wp.launch` + synchronize (includes Warp's launch overhead, ~10 us)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        launch.start(prepared, device)
        wp.synchronize_device(device)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


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


def run_cpu(row: Mapping[str, Any], kernel: Any, namespace: Mapping[str, Any], timing: bool = True) -> CpuRun:
    """Compile the loaded kernel for the CPU, launch it with the row's inputs, describe the outputs."""
    error = load_module(kernel, "cpu", row)
    if error is not None:
        return CpuRun("error", "skipped", error)
    try:
        prepared = launch.prepare(row, kernel, namespace, "cpu")
        before = {name: a.numpy().copy() for name, a in prepared.arrays().items()}
        after = launch.run(prepared, "cpu")
    except Exception as e:
        return CpuRun("ok", "error", f"{type(e).__name__}: {one_line(e)}")
    names = outputs.output_names(prepared.arguments)
    trivial, nonfinite = outputs.trivial_reason(before, after, names), outputs.nonfinite(after, names)
    kernel_ms = median_launch_ms(prepared, "cpu") if timing else None
    return CpuRun("ok", "ok", None, outputs.digest(after), trivial, nonfinite, kernel_ms, before, after)


def validate_cpu(row: Mapping[str, Any]) -> CpuRun:
    """Load the row's source and run it on the CPU (for callers without a loaded kernel)."""
    try:
        with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
            return run_cpu(row, kernel, namespace)
    except ExtractionError as e:
        return CpuRun("error", "skipped", str(e))
