"""Whether a generated program's outputs are trivial, straight from the program (no row needed).

The same judgement the validation pass makes (`outputs.trivial_reason` after a CPU launch with
the row's seeded inputs), without extracting the CUDA/CPU texts first. The module is compiled
as validation compiles it (backward included). Seen while measuring 512 programs in one process:
Warp once or twice failed to find a kernel's symbol after loading it ("Failed to find forward
kernel"), a program that runs in a fresh process; callers should count that apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir import warp_session
from warp_cuda_ir.synthesis import KernelProgram
from warp_cuda_ir.validation.execute import run_cpu
from warp_cuda_ir.validation.worker import _forget_compiled


def launch_record(program: KernelProgram, seed: int) -> dict[str, Any]:
    """The parts of a row `launch.prepare` reads."""
    return {
        "seed": seed,
        "arguments": [a.to_row() for a in program.arguments],
        "launch_dim": list(program.launch_dim),
        "block_dim": program.block_dim,
        "launch_tiled": program.launch_tiled,
    }


def program_trivial_reason(program: KernelProgram, seed: int) -> str | None:
    """The validation pass's `trivial_reason` for `program` launched with the inputs of row `seed`.

    Raises RuntimeError when the program does not compile or launch (that is a generator bug too).
    """
    try:
        with warp_session.loaded_kernel(program.source, program.kernel_name) as (kernel, namespace):
            cpu = run_cpu(launch_record(program, seed), kernel, namespace, timing=False)
    finally:
        # as the validation worker does after each row: compiled sample modules are never reused
        _forget_compiled(Path(wp.config.kernel_cache_dir), warp_session.MODULE_NAME)
    if cpu.run_status != "ok":
        stage = "compile" if cpu.compile_status != "ok" else "launch"
        raise RuntimeError(f"seed {seed}: CPU {stage} failed: {(cpu.error or '').splitlines()[0]}")
    return cpu.trivial
