"""The worker process: compiles a chunk of rows for CUDA in one batch, then runs each row.

It reports every step to the parent through a pipe (`compiled`, `start`, `done`), so when it
hangs or dies the parent knows which row was running, blames only that row, and starts a
fresh worker for the rest. Scratch files (NVRTC/Clang precompiled headers, Warp's kernel
cache) live in the worker's own folder, which the parent removes whatever way the worker ends.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WorkerConfig:
    arch: int
    scratch: str  # this worker's own folder
    gpu_skip_reason: str | None  # a value of schema.SKIP_REASONS; None: run on the GPU too
    environment: dict[str, str | None]
    standalone: bool = True  # standalone programs: Warp's CPU digests for the CPU twin to match


def main(conn: Connection, config: WorkerConfig) -> None:
    scratch = Path(config.scratch)
    (scratch / "tmp").mkdir(parents=True, exist_ok=True)
    # Before Warp starts: its kernel cache and every temp file (PCH folders) go to our scratch.
    os.environ["TMPDIR"] = str(scratch / "tmp")
    tempfile.tempdir = str(scratch / "tmp")
    import warp as wp

    wp.config.kernel_cache_dir = str(scratch / "kernel_cache")
    from warp_cuda_ir import standalone, warp_session
    from warp_cuda_ir.validation import compile_cuda, row

    warp_session.init_warp()
    toolkit = warp_session.toolkit_version()
    _warm_up()
    conn.send(("ready",))
    while True:
        message = conn.recv()
        if message is None:
            return
        rows, compile_first = message
        if compile_first:
            results = compile_cuda.compile_rows(rows, config.arch, scratch / "nvrtc")
            conn.send(("compiled", [row.cuda_columns(r, config.arch, toolkit) for r in results]))
        for i, r in enumerate(rows):
            conn.send(("start", i))

            def on_stage(stage: str, so_far: dict[str, Any], i: int = i) -> None:
                conn.send(("stage", i, stage, so_far))

            columns = row.execution_columns(r, config.gpu_skip_reason, config.environment, on_stage)
            if config.standalone and columns.get("cpu_run_status") == "ok":  # the CPU twin's reference
                columns |= standalone.reference_columns(r)
            warp_session.forget_compiled_rows(scratch / "kernel_cache")
            conn.send(("done", i, columns))


WARM_UP_SOURCE = """import warp as wp

@wp.kernel
def warm_up(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0
"""


def _warm_up() -> None:
    """Pay Clang's one-time header precompile before the first row, so row timeouts measure rows."""
    from warp_cuda_ir import warp_session
    from warp_cuda_ir.validation.execute import load_module

    with warp_session.loaded_kernel(WARM_UP_SOURCE) as (kernel, _):
        load_module(kernel, "cpu")
