"""One row's annotations: every stage's result folded into the schema's validation columns."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import warp as wp

from warp_cuda_ir import schema, warp_session
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.validation import gradients
from warp_cuda_ir.validation.compile_cuda import CudaCompile
from warp_cuda_ir.validation.execute import CpuRun, load_module, run_cpu
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


Stage = Callable[[str, dict[str, Any]], None]


def _cpu_columns(cpu: CpuRun) -> dict[str, Any]:
    return {
        "cpu_compile_status": cpu.compile_status,
        "cpu_run_status": cpu.run_status,
        "cpu_error": cpu.error,
        "output_digest": cpu.digest,
        "trivial_output": None if cpu.run_status != "ok" else cpu.trivial is not None,
        "trivial_reason": cpu.trivial,
        "nonfinite_output": cpu.nonfinite if cpu.run_status == "ok" else None,
        "cpu_kernel_ms": cpu.kernel_ms,
    }


def _gpu_columns(gpu: GpuRun) -> dict[str, Any]:
    return {
        "gpu_run_status": gpu.status,
        "gpu_error": gpu.error,
        "gpu_matches_reference": gpu.matches,
        "gpu_max_abs_diff": gpu.max_abs,
        "gpu_max_rel_diff": gpu.max_rel,
        "gpu_kernel_ms": gpu.kernel_ms,
    }


def execution_columns(
    row: Mapping[str, Any],
    gpu_skip_reason: str | None,
    environment: Mapping[str, str | None],
    on_stage: Stage = lambda stage, so_far: None,
) -> dict[str, Any]:
    """CPU run, GPU run (unless skipped) and gradient check of one row, as columns.

    `on_stage(stage, columns so far)` is called before the GPU run and the gradient check, so
    whoever watches a worker that then hangs or dies knows which stage to blame and what held.
    """
    columns: dict[str, Any] = {
        "validation_gpu_name": environment.get("gpu_name"),
        "validation_driver_version": environment.get("driver_version"),
        "validation_warp_version": wp.config.version,
    }
    if row.get("launch_dim") is None:  # a real row: nothing to launch it with (#13)
        return columns | compile_only_columns(row)
    columns |= _gpu_columns(GpuRun("skipped", gpu_skip_reason))
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    try:
        with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
            cpu = run_cpu(row, kernel, namespace)
            columns |= _cpu_columns(cpu)
            seconds["cpu"] = time.perf_counter() - clock
            if gpu_skip_reason is None:
                on_stage("gpu", columns)
                gpu = run_gpu(row, kernel, namespace, cpu.results if cpu.run_status == "ok" else None)
                columns |= _gpu_columns(gpu)
                seconds["gpu"] = time.perf_counter() - clock - seconds["cpu"]
    except ExtractionError as e:
        cpu = CpuRun("error", "skipped", str(e))
        columns |= _cpu_columns(cpu)
        if gpu_skip_reason is None:
            columns |= _gpu_columns(GpuRun("skipped", "the source does not load"))
    clock = time.perf_counter()
    if cpu.run_status == "ok":
        on_stage("gradcheck", columns)
        grad = gradients.check(row)
    else:
        grad = gradients.skipped("the kernel did not run on the CPU")
    seconds["gradcheck"] = time.perf_counter() - clock
    return columns | grad.columns() | {"_seconds": seconds}  # stage timings for the pass's report; not a column


def compile_only_columns(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row without a launch record (real rows): CPU compile only; run, GPU and gradient check skipped."""
    clock = time.perf_counter()
    why = schema.NO_LAUNCH_RECORD
    try:
        with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, _):
            error = load_module(kernel, "cpu", row)
    except ExtractionError as e:
        error = str(e)
    cpu = CpuRun("error" if error else "ok", "skipped", error or why)
    return (
        _cpu_columns(cpu)
        | _gpu_columns(GpuRun("skipped", why))
        | gradients.skipped(why).columns()
        | {"_seconds": {"cpu": time.perf_counter() - clock}}
    )


def skipped_gpu(reason: str | None) -> dict[str, Any]:
    """GPU columns of a row not run on the GPU (`reason` None: a GPU is present, not reached yet)."""
    return _gpu_columns(GpuRun("skipped", reason))


def failed_execution(status: str, why: str, stage: str, so_far: Mapping[str, Any]) -> dict[str, Any]:
    """Columns for a row whose worker hung or died in `stage` ("cpu", "gpu" or "gradcheck").

    What finished before that stage is kept; the stage gets `status` and `why`; later stages
    are `skipped`. In the CPU stage compile and launch are not told apart, so both are marked.
    """
    columns = {k: v for k, v in schema.UNVALIDATED.items() if not k.startswith("cuda_") and k != "ptx"}
    columns |= {"validation_warp_version": wp.config.version, "gradcheck_detail": f"not reached: {stage} {status}"}
    columns |= dict(so_far)
    if stage == "cpu":
        columns |= {"cpu_compile_status": "error", "cpu_run_status": status, "cpu_error": why}
        if columns.get("gpu_error") is None:  # a GPU is present; the row never got to it
            columns["gpu_error"] = f"not reached: cpu {status}"
    elif stage == "gpu":
        columns |= {"gpu_run_status": status, "gpu_error": why}
    else:
        # gradients branch: a hang in the gradient check is that stage's `timeout`, not an `error`
        columns |= {"gradcheck_status": status, "gradcheck_detail": why}
    return columns
