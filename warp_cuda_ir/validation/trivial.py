"""Whether a generated program's outputs are trivial, straight from the program (no row needed).

The same judgement the validation pass makes (`outputs.trivial_reason` after a CPU launch with
the row's seeded inputs), made cheaper for measuring the generator: the module is compiled
forward only, since the flag depends on nothing else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir import extraction, launch
from warp_cuda_ir.synthesis import KernelProgram
from warp_cuda_ir.validation import outputs
from warp_cuda_ir.validation.execute import load_module
from warp_cuda_ir.validation.worker import _forget_compiled


def launch_record(program: KernelProgram, seed: int) -> dict[str, Any]:
    """The parts of a row `launch.prepare` reads."""
    return {"seed": seed, "arguments": [a.to_row() for a in program.arguments], "launch_dim": list(program.launch_dim)}


def program_trivial_reason(program: KernelProgram, seed: int) -> str | None:
    """`outputs.trivial_reason` of one CPU launch of `program` with the inputs of row `seed`.

    Raises RuntimeError when the program does not compile or launch (that is a generator bug too).
    """
    record = launch_record(program, seed)
    with extraction.loaded_kernel(program.source, program.kernel_name) as (kernel, namespace):
        kernel.module.options["enable_backward"] = False  # halves the Clang time; outputs are forward only
        error = load_module(kernel, "cpu")
        if error is not None:
            raise RuntimeError(f"seed {seed}: CPU compile failed: {error.splitlines()[0]}")
        try:
            prepared = launch.prepare(record, kernel, namespace, "cpu")
            before = {name: a.numpy().copy() for name, a in prepared.arrays().items()}
            after = launch.run(prepared, "cpu")
        finally:
            # As the validation worker does: a later program with the same module hash must not
            # find this one's compiled code in the cache (its symbols are gone once unloaded).
            _forget_compiled(Path(wp.config.kernel_cache_dir), extraction.MODULE_NAME)
    return outputs.trivial_reason(before, after, outputs.output_names(prepared.arguments))
