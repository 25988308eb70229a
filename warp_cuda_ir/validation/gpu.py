"""GPU launch of a row and its comparison with the CPU reference (skipped without a CUDA device)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, warp_session
from warp_cuda_ir.errors import one_line
from warp_cuda_ir.validation.execute import load_module

# (atol, rtol) per element kind: float32 allows for fast-math transcendental and atomic ordering differences.
TOLERANCE: dict[str, tuple[float, float]] = {
    "f2": (1e-2, 1e-2),
    "f4": (1e-4, 1e-3),
    "f8": (1e-10, 1e-9),
}


@dataclass
class GpuRun:
    status: str  # "ok" | "error" | "timeout" | "skipped"
    error: str | None = None
    matches: bool | None = None
    max_abs: float | None = None
    max_rel: float | None = None
    skip_reason: str | None = None  # a value of schema.SKIP_REASONS when skipped


def unavailable_reason() -> str | None:
    """None when a CUDA device can run kernels, else why not (one line)."""
    warp_session.init_warp()
    if wp.get_cuda_device_count() == 0:
        why = "no CUDA driver" if warp_session.driver_version() is None else "no CUDA device"
        return f"{why} on the validating machine"
    return None


def environment() -> dict[str, str | None]:
    """GPU name and driver version of the validating machine (None without a GPU)."""
    if unavailable_reason() is not None:
        return {"gpu_name": None, "driver_version": None}
    return {"gpu_name": wp.get_device("cuda:0").name, "driver_version": warp_session.driver_version()}


def compare(reference: Mapping[str, np.ndarray], actual: Mapping[str, np.ndarray]) -> tuple[bool, float, float]:
    """(match within tolerance, max abs diff, max rel diff) over every array."""
    matches, max_abs, max_rel = True, 0.0, 0.0
    for name, ref in reference.items():
        got = actual[name]
        if ref.dtype.kind != "f":
            diff = np.abs(ref.astype(np.float64) - got.astype(np.float64))
            matches &= bool(np.array_equal(ref, got))
        else:
            atol, rtol = TOLERANCE.get(ref.dtype.str[1:], TOLERANCE["f4"])
            diff = np.abs(ref.astype(np.float64) - got.astype(np.float64))
            matches &= bool(np.allclose(got, ref, atol=atol, rtol=rtol, equal_nan=True))
        if diff.size:
            max_abs = max(max_abs, float(np.nanmax(diff)))
            rel = diff / np.maximum(np.abs(ref.astype(np.float64)), np.finfo(np.float64).tiny)
            max_rel = max(max_rel, float(np.nanmax(np.where(diff == 0, 0.0, rel))))
    return matches, max_abs, max_rel


def run_gpu(
    row: Mapping[str, Any], kernel: Any, namespace: Mapping[str, Any], reference: Mapping[str, np.ndarray] | None
) -> GpuRun:
    """Launch the loaded kernel on cuda:0 with the row's inputs and compare with the CPU arrays."""
    error = load_module(kernel, "cuda:0", row)
    if error is not None:
        return GpuRun("error", error)
    try:
        prepared = launch.prepare(row, kernel, namespace, "cuda:0")
        after = launch.run(prepared, "cuda:0")
    except Exception as e:
        return GpuRun("error", f"{type(e).__name__}: {one_line(e)}")
    if reference is None:  # ran, but the CPU reference did not: nothing to compare with
        return GpuRun("ok")
    matches, max_abs, max_rel = compare(reference, after)
    return GpuRun("ok", None, matches, max_abs, max_rel)
