"""How each stage of `schema.PASS` runs: the steps of the pass, and `validate_batch`, what a worker runs.

The stage list (`schema.PASS`) says what each stage writes and needs; `run` names the step that runs it,
and `RUNS` maps each step to its function here. A batch of rows goes through the steps in the list's
order, each step over the rows that still lack its stages:

- "cuda": NVRTC over the whole batch (one module, rows in namespaces; bisected on failure);
- "row": the CPU modules the rows will load compiled by Warp's Clang in one unit (`cpu_batch`), then Warp in
  this process, one row at a time: the CPU compile, the CPU run (output digest, output
  statistics, and the reference digests the standalone CPU twin must print, from the same loaded
  module), the GPU run, the gradient check (`row.execution_columns`);
- "programs": the standalone programs, compiled one translation unit per batch by nvcc / g++ and run
  one row per process (`standalone.stage.run_stage`).

Adding a stage: its entry in `schema.PASS`, and its work in the step that runs it (or a new step here).

Blame. A worker that hangs or dies must cost only the row and stage it was on. Before each step and
each row's stage the worker appends a line to its batch's trail (`<trail>/<batch>.jsonl`), and after
each step the row's columns so far; the driver (`runner.run_pass`) reads the trail of a batch whose
worker was cut or died. A watchdog thread cuts a row stage that runs past the stage time limit (it
notes `timeout` in the trail, then ends the worker); the executor's own time limit is the backstop.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warp_cuda_ir import schema, warp_session
from warp_cuda_ir.engines import use_temp_folder

WATCHDOG_EXIT = 75  # the exit status of a worker its watchdog ended (a stage past its time limit)


@dataclass(frozen=True)
class Settings:
    """What every batch of one pass shares."""

    arch: int
    gpu_skip_reason: str | None  # a value of schema.SKIP_REASONS; None: run on the GPU too
    environment: dict[str, str | None]
    standalone: bool = True
    stage_timeout_s: float = 120.0  # each row stage (CPU compile, CPU run, GPU run, gradient check)
    compile_timeout_s: float = 60.0  # the NVRTC step, plus 10 s per row in the batch
    trail: str | None = None  # folder of the batches' trails; None: no trail (workers on other machines)
    scratch: str | None = None  # folder for the workers' scratch folders (removed by the driver at the end)

    def batch_compile_limit(self, rows: int) -> float:
        """Seconds for one compile of a whole batch (NVRTC's module, Clang's unit): a base and 10 s per row."""
        return self.compile_timeout_s + 10.0 * rows


@dataclass(frozen=True)
class Batch:
    settings: Settings
    name: str  # unique within the pass: names its trail
    rows: list[dict[str, Any]]
    done: list[dict[str, Any]] = field(default_factory=list)  # per row, columns already known (not run again)


def missing(stage: schema.Stage, columns: Mapping[str, Any]) -> bool:
    return f"{stage.name}_status" not in columns


def steps() -> list[tuple[str, list[schema.Stage]]]:
    """The steps in the order of the stage list: (step, its stages)."""
    out: list[tuple[str, list[schema.Stage]]] = []
    for stage in schema.PASS:
        if out and out[-1][0] == stage.run:
            out[-1][1].append(stage)
        else:
            out.append((stage.run, [stage]))
    return out


# ---- the worker ------------------------------------------------------------------------------------------


class _Worker:
    """Per worker process: its scratch folder (TMPDIR: NVRTC's and Clang's precompiled headers, Warp's
    kernel cache), Warp started, Clang's headers precompiled, the standalone compilers found."""

    def __init__(self, settings: Settings) -> None:
        root = settings.scratch if settings.scratch and Path(settings.scratch).is_dir() else None
        self.scratch = Path(tempfile.mkdtemp(dir=root, prefix=f"w{os.getpid()}_"))
        (self.scratch / "tmp").mkdir()
        # Before Warp starts: its kernel cache and every temp file (PCH folders) go to our scratch.
        use_temp_folder(self.scratch / "tmp")
        import warp as wp

        from warp_cuda_ir.standalone import stage as programs

        wp.config.kernel_cache_dir = str(self.scratch / "kernel_cache")
        warp_session.init_warp()
        self.toolkit = warp_session.toolkit_version()
        self.tools = programs.find_tools(settings.arch)
        _warm_up()
        self.trail: Any = None
        self.deadline: float | None = None
        self.cut_at: tuple[str, float] = ("", 0.0)
        threading.Thread(target=self._watch, daemon=True).start()

    def note(self, record: dict[str, Any]) -> None:
        if self.trail is not None:
            self.trail.write(json.dumps(record) + "\n")
            self.trail.flush()

    def limit(self, seconds: float | None, what: str = "") -> None:
        """Cut the worker if the work it starts now runs past `seconds` (None: no limit)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.cut_at = (what, seconds or 0.0)

    def _watch(self) -> None:
        while True:
            time.sleep(0.2)
            deadline = self.deadline
            if deadline is not None and time.monotonic() > deadline:
                what, seconds = self.cut_at
                self.note({"timeout": what, "after": seconds})
                os._exit(WATCHDOG_EXIT)


_worker: _Worker | None = None

WARM_UP_SOURCE = """import warp as wp

@wp.kernel
def warm_up(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0
"""


def _warm_up() -> None:
    """Pay Clang's one-time header precompile before the first row, so row time limits measure rows.

    The header is shared per machine (`warp_session.share_precompiled_headers`, as capture jobs share theirs):
    each worker of each pass built its own, ~2 CPU-s, which a pass over a few rows (the tests', a small build's)
    paid on every start."""
    from warp_cuda_ir import warp_session
    from warp_cuda_ir.engines import shared_temp_dir
    from warp_cuda_ir.validation.execute import load_module

    keep = warp_session.share_precompiled_headers(shared_temp_dir() / f"warp_cuda_ir_clang_headers_{os.getuid()}")
    with warp_session.loaded_kernel(WARM_UP_SOURCE) as (kernel, _):
        load_module(kernel, "cpu")
    keep()


def core_seconds() -> float:
    """CPU time of this process and its finished children (nvcc, g++, the programs), user + system."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def validate_batch(batch: Batch) -> dict[str, Any]:
    """Every stage a row of `batch` still lacks: {"columns": per row, "seconds": CPU seconds per step (this
    process and the compilers and programs it ran)}."""
    global _worker
    settings = batch.settings
    if _worker is None:
        _worker = _Worker(settings)
    worker = _worker
    columns = [dict(d) for d in batch.done] if batch.done else [{} for _ in batch.rows]
    seconds: dict[str, float] = {}
    trail = Path(settings.trail) / f"{batch.name}.jsonl" if settings.trail else None
    worker.trail = trail.open("a") if trail is not None and trail.parent.is_dir() else None
    # A kernel's own prints (`wp.print`, a failed `wp.expect_eq` of Warp's tests: "Error, expect_eq() failed") are
    # native writes to this process's stdout, the user's console, between the pass's progress lines: they go
    # nowhere (the batch's results travel back through the executor, not stdout).
    sys.stdout.flush()
    try:
        with warp_session.silenced_fd(1):
            for step, stages in steps():
                todo = [i for i, c in enumerate(columns) if any(missing(s, c) for s in stages)]
                if not todo:
                    continue
                clock = core_seconds()
                RUNS[step](worker, settings, [batch.rows[i] for i in todo], [columns[i] for i in todo], todo)
                seconds[step] = core_seconds() - clock
                for i in todo:
                    worker.note({"row": i, "columns": columns[i]})
    finally:
        worker.limit(None)
        if worker.trail is not None:
            worker.trail.close()
            worker.trail = None
    return {"columns": columns, "seconds": seconds}


Step = Callable[[_Worker, Settings, Sequence[dict[str, Any]], list[dict[str, Any]], list[int]], None]


def run_cuda(
    worker: _Worker, settings: Settings, rows: Sequence[dict[str, Any]], columns: list[dict[str, Any]], at: list[int]
) -> None:
    """NVRTC over the rows in one batch (bisected on failure): `cuda_compile` and its results."""
    from warp_cuda_ir.validation import compile_cuda
    from warp_cuda_ir.validation import row as row_columns

    worker.note({"step": "cuda", "rows": at})
    worker.limit(settings.batch_compile_limit(len(rows)), "cuda_compile")
    results = compile_cuda.compile_rows(rows, settings.arch, worker.scratch / "nvrtc")
    worker.limit(None)
    for c, result in zip(columns, results, strict=True):
        c |= row_columns.cuda_columns(result, settings.arch, worker.toolkit)


def run_row(
    worker: _Worker, settings: Settings, rows: Sequence[dict[str, Any]], columns: list[dict[str, Any]], at: list[int]
) -> None:
    """Warp in this process, one row at a time: CPU compile, CPU run, GPU run, gradient check.

    The CPU modules the rows will load are compiled first, many per Clang call (`cpu_batch`); a worker that
    dies or hangs there has blamed no row yet, so the driver splits the batch until a row stands alone, and a
    row alone compiles its modules itself, in its own stages.
    """
    from warp_cuda_ir import standalone, warp_session
    from warp_cuda_ir.validation import cpu_batch
    from warp_cuda_ir.validation import row as row_columns

    try:
        if len(rows) > 1:
            worker.note({"step": "row", "rows": at})
            worker.limit(settings.batch_compile_limit(len(rows)), "cpu_compile")
            cpu_batch.prebuild(rows, settings.standalone, worker.scratch / "clang")
            worker.limit(None)
        for i, r, c in zip(at, rows, columns, strict=True):

            def on_stage(stage: str, so_far: dict[str, Any], i: int = i) -> None:
                worker.note({"row": i, "stage": stage, "so_far": so_far})
                worker.limit(settings.stage_timeout_s, stage)

            # The digests the CPU twin must print, from Warp's launch of the module the CPU run loaded.
            reference = (lambda r=r: standalone.reference_columns(r)) if settings.standalone else None
            result = row_columns.execution_columns(
                r, settings.gpu_skip_reason, settings.environment, on_stage, reference
            )
            result.pop("_seconds", None)
            worker.limit(None)
            c |= result
            worker.note({"row": i, "columns": c})  # kept if a later row of the batch hangs or crashes
    finally:
        # Compiled row modules are never used again: the kernel cache would otherwise grow with the pass.
        warp_session.forget_compiled_rows(worker.scratch / "kernel_cache")


def run_programs(
    worker: _Worker, settings: Settings, rows: Sequence[dict[str, Any]], columns: list[dict[str, Any]], at: list[int]
) -> None:
    """The standalone programs: compiled per batch, the CPU twin run and compared (or skipped, as asked)."""
    from warp_cuda_ir.standalone import stage as programs

    worker.note({"step": "programs", "rows": at})
    if not settings.standalone:
        for c in columns:
            c |= programs.skipped_columns(schema.STANDALONE_DISABLED)
        return
    pairs = enumerate(zip(rows, columns, strict=True))
    items = [(k, r, reference_lines(c.get("standalone_reference_digest"))) for k, (r, c) in pairs]
    found = programs.run_stage(items, worker.scratch / "programs", worker.tools, settings.gpu_skip_reason)
    for k, c in enumerate(columns):
        c |= found[k]


def reference_lines(digest: str | None) -> list[str] | None:
    """The lines a twin must print: none for a launch with no array to print (warp-lang's tests of scalars and
    constants, 21 of 155 sampled rows), which Warp's launch ran; None only where there is no reference (the
    twin was compared with nothing, "" being taken for no reference)."""
    return None if digest is None else digest.splitlines()


RUNS: dict[str, Step] = {"cuda": run_cuda, "row": run_row, "programs": run_programs}
