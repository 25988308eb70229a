"""One row's annotations: every stage's result folded into the schema's validation columns."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import warp as wp

from warp_cuda_ir import extraction, schema
from warp_cuda_ir.validation import gradcheck
from warp_cuda_ir.validation.compile_cuda import CudaCompile
from warp_cuda_ir.validation.execute import CpuRun, run_cpu
from warp_cuda_ir.validation.gpu import GpuRun, run_gpu


def cuda_columns(result: CudaCompile | None, arch: int, toolkit: str, why: str | None = None) -> dict[str, Any]:
    if result is None:
        return {
            "cuda_compile_status": "error",
            "cuda_compile_log": why,
            "cuda_arch": arch,
            "cuda_toolkit_version": toolkit,
        }
    return {
        "cuda_compile_status": result.status,
        "cuda_compile_log": result.log,
        "cuda_arch": arch,
        "cuda_toolkit_version": toolkit,
        "ptx": result.ptx,
    }


def execution_columns(
    row: Mapping[str, Any], gpu_skip_reason: str | None, environment: Mapping[str, str | None]
) -> dict[str, Any]:
    """CPU run, GPU run (unless skipped) and gradient check of one row, as columns."""
    gpu = GpuRun("skipped", gpu_skip_reason)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    try:
        with extraction.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
            cpu = run_cpu(row, kernel, namespace)
            seconds["cpu"] = time.perf_counter() - clock
            if gpu_skip_reason is None:
                gpu = run_gpu(row, kernel, namespace, cpu.results if cpu.run_status == "ok" else None)
                seconds["gpu"] = time.perf_counter() - clock - seconds["cpu"]
    except extraction.ExtractionError as e:
        cpu = CpuRun("error", "skipped", str(e))
        gpu = GpuRun("skipped", "the source does not load") if gpu_skip_reason is None else gpu
    clock = time.perf_counter()
    grad = (
        gradcheck.check(row)
        if cpu.run_status == "ok"
        else gradcheck.GradCheck("skipped", None, None, "the kernel did not run on the CPU")
    )
    seconds["gradcheck"] = time.perf_counter() - clock
    return {
        "cpu_compile_status": cpu.compile_status,
        "cpu_run_status": cpu.run_status,
        "cpu_error": cpu.error,
        "output_digest": cpu.digest,
        "trivial_output": None if cpu.run_status != "ok" else cpu.trivial is not None,
        "trivial_reason": cpu.trivial,
        "gpu_run_status": gpu.status,
        "gpu_error": gpu.error,
        "gpu_matches_reference": gpu.matches,
        "gpu_max_abs_diff": gpu.max_abs,
        "gpu_max_rel_diff": gpu.max_rel,
        "gradcheck_status": grad.status,
        "gradcheck_max_error": grad.max_error,
        "gradcheck_dtype": grad.dtype,
        "gradcheck_detail": grad.detail,
        "cpu_kernel_ms": cpu.kernel_ms,
        "gpu_kernel_ms": gpu.kernel_ms,
        "validation_gpu_name": environment.get("gpu_name"),
        "validation_driver_version": environment.get("driver_version"),
        "validation_warp_version": wp.config.version,
        "_seconds": seconds,  # stage timings for the pass's report; not a column
    }


def failed_execution(status: str, why: str, environment: Mapping[str, str | None], gpu_too: bool) -> dict[str, Any]:
    """Columns for a row whose worker hung or died: the culprit stage is marked, nothing else claimed."""
    columns = dict(schema.UNVALIDATED)
    columns |= {
        "cpu_compile_status": "error",  # unknown which step hung or crashed: claim nothing ran
        "cpu_run_status": status,
        "cpu_error": why,
        "gpu_run_status": status if gpu_too else "skipped",
        "gpu_error": why if gpu_too else environment.get("gpu_skip_reason"),
        "gradcheck_detail": "the kernel did not run on the CPU",
        "validation_warp_version": wp.config.version,
    }
    return {k: v for k, v in columns.items() if not k.startswith("cuda_") and k != "ptx"}
