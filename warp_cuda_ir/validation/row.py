"""One row's annotations: every stage's result folded into the schema's validation columns.

Each stage (`schema.STAGES`) gets its own status, error and skip reason. A failure is written on the
stage that failed; the stages that needed it are `skipped` with a reason from `schema.SKIP_REASONS`;
columns that do not apply to what ran are null. Messages are plain text: numpy scalar reprs
(`np.int64(196)`) are printed as their value.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import warp as wp

from warp_cuda_ir import schema, warp_session
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.launch import has_launch_record
from warp_cuda_ir.validation import gradients
from warp_cuda_ir.validation.compile_cuda import CudaCompile
from warp_cuda_ir.validation.execute import CpuRun, run_cpu
from warp_cuda_ir.validation.gpu import GpuRun, run_gpu
from warp_cuda_ir.validation.output_stats import degenerate_count

_NUMPY_SCALAR = re.compile(r"\bnp\.(?:u?int\d*|float\d*|bool_?|str_|complex\d*)\(([^()]*)\)")
_NUMPY_BOOL = re.compile(r"\bnp\.(True|False)_")


def plain(text: str | None) -> str | None:
    """`text` with numpy scalar reprs replaced by their value: `a[np.int64(3)]` -> `a[3]`."""
    return None if text is None else _NUMPY_BOOL.sub(r"\1", _NUMPY_SCALAR.sub(r"\1", text))


def stage(name: str, status: str, error: str | None = None, skip_reason: str | None = None) -> dict[str, Any]:
    """The three columns of stage `name`; `skip_reason` only when skipped, `error` only when failed."""
    if status == "skipped":
        if skip_reason not in schema.SKIP_REASONS:
            raise ValueError(f"skip reason {skip_reason!r} is not in schema.SKIP_REASONS")
        return {f"{name}_status": status, f"{name}_error": None, f"{name}_skip_reason": skip_reason}
    return {
        f"{name}_status": status,
        f"{name}_error": plain(error) if status in ("error", "timeout") else None,
        f"{name}_skip_reason": None,
    }


def cuda_columns(
    result: CudaCompile | None, arch: int, toolkit: str | None, status: str = "error", why: str | None = None
) -> dict[str, Any]:
    """CUDA compile columns; `result` None: the compile batch failed as a whole (`status`, `why`)."""
    if result is None:
        return stage("cuda_compile", status, why) | {"cuda_arch": arch, "cuda_toolkit_version": toolkit, "ptx": None}
    return stage("cuda_compile", result.status, result.log) | {
        "cuda_arch": arch,
        "cuda_toolkit_version": toolkit,
        "ptx": result.ptx,
    }


Stage = Callable[[str, dict[str, Any]], None]


def _cpu_columns(cpu: CpuRun) -> dict[str, Any]:
    ran = cpu.run_status == "ok"
    stats = [s.to_row() for s in cpu.output_stats] if ran else None
    compile_skip = schema.SOURCE_DOES_NOT_LOAD if cpu.compile_status == "skipped" else None
    return {
        **stage("cpu_compile", cpu.compile_status, cpu.error, compile_skip),
        **stage("cpu_run", cpu.run_status, cpu.error, cpu.run_skip_reason),
        "output_digest": cpu.digest if ran else None,
        "output_stats": stats,
        "degenerate_output": (bool(stats) and degenerate_count(cpu.output_stats) == len(stats)) if ran else None,
        "degenerate_output_count": degenerate_count(cpu.output_stats) if ran else None,
        "nonfinite_output": cpu.nonfinite if ran else None,
    }


def _gpu_columns(gpu: GpuRun) -> dict[str, Any]:
    return {
        **stage("gpu_run", gpu.status, gpu.error, gpu.skip_reason),
        "gpu_matches_reference": gpu.matches,
        "gpu_max_abs_diff": gpu.max_abs,
        "gpu_max_rel_diff": gpu.max_rel,
    }


def gradcheck_columns(grad: gradients.GradientCheck) -> dict[str, Any]:
    """The gradient check's result as columns: the stage's three, then the check's numbers (null if none)."""
    return stage("gradcheck", grad.status, grad.error, grad.skip_reason) | grad.numbers()


def skipped_gradcheck(reason: str) -> dict[str, Any]:
    return gradcheck_columns(gradients.skipped(reason))


def execution_columns(
    row: Mapping[str, Any],
    gpu_skip_reason: str | None,
    environment: Mapping[str, str | None],
    on_stage: Stage = lambda stage, so_far: None,
    reference: Callable[[], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """CPU compile, CPU run, GPU run (unless skipped) and gradient check of one row, as columns.

    `on_stage(stage, columns so far)` is called as each stage starts, so whoever watches a worker
    that then hangs or dies knows which stage to blame and what held. `reference`: more columns from Warp's
    CPU launch (the standalone programs' reference digest), made after a CPU run that ended `ok` and before
    the gradient check, so a backward that crashes the gradient check does not take them along
    (mujoco-warp's `_cfrc_world`: the worker died in the gradient check and the row had no reference digest).
    """
    columns: dict[str, Any] = {
        "validation_gpu_name": environment.get("gpu_name"),
        "validation_driver_version": environment.get("driver_version"),
        "validation_warp_version": wp.config.version,
    }
    columns |= skipped_gpu(gpu_skip_reason or schema.NOT_REACHED)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    try:
        with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
            # Entering the launch means the compile finished: what the parent keeps if the launch hangs.
            compiled = stage("cpu_compile", "ok")
            cpu = run_cpu(
                row, kernel, namespace, lambda name: on_stage(name, columns | (compiled if name == "cpu_run" else {}))
            )
            columns |= _cpu_columns(cpu)
            seconds["cpu"] = time.perf_counter() - clock
            if gpu_skip_reason is None:
                if not has_launch_record(row):
                    columns |= skipped_gpu(schema.NO_LAUNCH_RECORD)
                else:
                    on_stage("gpu_run", dict(columns))
                    gpu = run_gpu(row, kernel, namespace, cpu.results if cpu.run_status == "ok" else None)
                    columns |= _gpu_columns(gpu)
                    seconds["gpu"] = time.perf_counter() - clock - seconds["cpu"]
    except ExtractionError as e:  # the source does not load: the CPU compile's first step failed
        cpu = CpuRun("error", "skipped", str(e), run_skip_reason=schema.SOURCE_DOES_NOT_LOAD)
        columns |= _cpu_columns(cpu)
        if gpu_skip_reason is None:
            columns |= skipped_gpu(schema.SOURCE_DOES_NOT_LOAD)
    if reference is not None and cpu.run_status == "ok":
        on_stage("cpu_run", dict(columns))  # Warp's CPU launch again: a hang or a crash is the CPU run's
        columns |= reference()
    clock = time.perf_counter()
    if cpu.run_status == "ok":
        on_stage("gradcheck", dict(columns))
        columns |= gradcheck_columns(gradients.check(row))
    else:
        passed_on = (schema.NO_LAUNCH_RECORD, schema.SOURCE_DOES_NOT_LOAD)  # the rest: "did not run on the CPU"
        upstream = cpu.run_skip_reason if cpu.run_skip_reason in passed_on else None
        columns |= skipped_gradcheck(upstream or schema.DID_NOT_RUN_CPU)
    seconds["gradcheck"] = time.perf_counter() - clock
    return columns | {"_seconds": seconds}  # stage timings for the pass's report; not a column


def skipped_gpu(reason: str) -> dict[str, Any]:
    """GPU columns of a row not run on the GPU."""
    return _gpu_columns(GpuRun("skipped", skip_reason=reason))


def skip_reason(stage: schema.Stage, columns: Mapping[str, Any]) -> str | None:
    """Why `stage` cannot run on a row with `columns`: a stage it needs did not end `ok` (None: it can run).

    The reason is the one the needed stage gives its dependents (`Stage.unmet`), or the needed stage's own
    skip reason when that one carries over (`schema.PASSED_ON`: no launch record, a source that does not load).
    """
    for need in stage.needs:
        status = columns.get(f"{need}_status")
        if status == "ok":
            continue
        own = columns.get(f"{need}_skip_reason")
        if status == "skipped" and own in schema.PASSED_ON:
            return own
        return schema.STAGES_BY_NAME[need].unmet or schema.NOT_REACHED
    return None


def failed_step(status: str, why: str, failed: str, so_far: Mapping[str, Any]) -> dict[str, Any]:
    """Columns of the step of stage `failed` (`Stage.run`) for a row whose worker hung (`timeout`) or died
    (`error`) in that stage.

    What finished before it is kept (`so_far`); the stage gets `status` and `why`; the stages of the step
    after it are skipped: for the reason that a stage they need did not succeed (`skip_reason`), else the
    reason they already had (a GPU run skipped for want of a GPU keeps it), else NOT_REACHED.
    """
    step = schema.STAGES_BY_NAME[failed].run
    stages = [s for s in schema.PASS if s.run == step]
    columns = {n: schema.UNVALIDATED[n] for s in stages for n in (*(c for c, _, _ in s.columns), *s.result_names)}
    columns |= dict(so_far)
    columns |= stage(failed, status, why)
    names = [s.name for s in stages]
    for later in stages[names.index(failed) + 1 :]:
        reason = skip_reason(later, columns)
        had = so_far.get(f"{later.name}_skip_reason")
        if reason is None:
            reason = had if had not in (None, schema.NOT_REACHED) else schema.NOT_REACHED
        columns |= (
            skipped_gradcheck(reason) if later.name == "gradcheck" else stage(later.name, "skipped", None, reason)
        )
    return columns


def failed_execution(status: str, why: str, failed: str, so_far: Mapping[str, Any]) -> dict[str, Any]:
    """`failed_step` for a stage Warp runs in the worker (CPU compile, CPU run, GPU run, gradient check),
    with the row's environment columns."""
    environment = {n: schema.UNVALIDATED[n] for n, _, _ in schema.ENVIRONMENT_COLUMNS}
    return environment | {"validation_warp_version": wp.config.version} | failed_step(status, why, failed, so_far)


def failed_programs(status: str, why: str, so_far: Mapping[str, Any]) -> dict[str, Any]:
    """`failed_step` for the first standalone program stage `so_far` lacks (the worker died compiling or
    running the row's programs)."""
    first = next(s.name for s in schema.PASS if s.run == "programs" and f"{s.name}_status" not in so_far)
    return failed_step(status, why, first, so_far)
