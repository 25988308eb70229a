#!/usr/bin/env python
"""Generation cost per row of the generator, on the build's row path.

    python benchmarks/generator.py --rows 200
    python benchmarks/generator.py --rows 200 --breakdown

Earlier generators were compared here side by side, in one process, interleaved (their code is at the git tag
`generators-before-removal`): the first typed generator cost 2.94x the template generator per row (23.96 vs 8.15
ms/row; its rows carry 60.0 vs 25.2 kB of Python + C++, so 1.24x per kB, 300 rows); `meaning-3` cost 0.92x
`typed-5` per row and 1.19x per kB of generated text (1,000 rows, load 0.8-1.6; the target was 1.3x).

Each row goes the way a build's rows go: synthesize, then `rows.row_for_program` (Warp codegen for
CUDA and CPU, cutting the texts, the source facts, row shaping).

`--breakdown` splits the time into stages by timing Warp's and our entry points:
synthesis; load (our `exec` plus Warp's kernel registration: source parse, reference scan);
Warp's adjoint build (module hashing plus overload resolution, forward and reverse, done once for
both targets); codegen for CUDA and for CPU; the source facts (row id, shape, built-ins: one AST
pass); and what is left, which is ours (options, cutting the texts, row shaping, releasing the
module). Time spent in the cycle collector is reported alongside (it overlaps the stages it interrupts).
"""

from __future__ import annotations

import argparse
import functools
import gc
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import rows, source_facts, warp_session
from warp_cuda_ir.synthesis import GENERATOR_VERSION, synthesize

# The generated text a row carries: what a model trains on, and what Warp's cost grows with.
TEXT_COLUMNS = (
    "python_source", "cuda_helpers", "cuda_forward", "cuda_backward", "cpu_helpers", "cpu_forward", "cpu_backward",
)  # fmt: skip
STAGES = ("synthesis", "load", "warp build", "codegen cuda", "codegen cpu", "source facts", "ours")


class Stages:
    """Accumulates seconds per stage by wrapping the functions a row goes through."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.gc_seconds = 0.0
        self._gc_start = 0.0

    def wrap(self, owner: Any, name: str, stage: Callable[..., str] | str) -> None:
        inner = getattr(owner, name)

        @functools.wraps(inner)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                label = stage(*args, **kwargs) if callable(stage) else stage
                self.seconds[label] += time.perf_counter() - t

        setattr(owner, name, timed)

    def on_gc(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_seconds += time.perf_counter() - self._gc_start


def instrument(stages: Stages) -> None:
    from warp._src import context

    stages.wrap(warp_session, "load_kernel", "load")
    stages.wrap(context.ModuleBuilder, "__init__", "warp build")
    stages.wrap(context.ModuleBuilder, "codegen", lambda _self, device: f"codegen {device}")
    stages.wrap(source_facts, "analyse", "source facts")
    gc.callbacks.append(stages.on_gc)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=200)
    p.add_argument("--breakdown", action="store_true", help="time each stage of a row (adds a little overhead)")
    args = p.parse_args()
    warp_session.init_warp()
    stages = Stages()
    if args.breakdown:
        instrument(stages)
    synth = row_seconds = 0.0
    text_bytes = 0
    for seed in range(args.rows):
        t0 = time.perf_counter()
        program = synthesize(seed)
        t1 = time.perf_counter()
        row = rows.row_for_program(seed, program)
        synth += t1 - t0
        row_seconds += time.perf_counter() - t1
        text_bytes += sum(len(row[c] or "") for c in TEXT_COLUMNS)
    per = (synth + row_seconds) / args.rows * 1000
    kb = text_bytes / args.rows / 1000
    print(
        f"{GENERATOR_VERSION} {per:7.2f} ms/row ({1000 / per:6.1f} rows/s): synthesize {synth / args.rows * 1000:.2f}"
        f" ms, extract + row {row_seconds / args.rows * 1000:.2f} ms; {kb:.1f} kB of Python + C++ per row,"
        f" {per / kb:.2f} ms/kB"
    )
    if args.breakdown:
        seconds = stages.seconds
        seconds["synthesis"] = synth
        seconds["ours"] = synth + row_seconds - sum(seconds[s] for s in STAGES if s != "ours")
        split = ", ".join(f"{s} {seconds[s] / args.rows * 1000:.2f}" for s in STAGES)
        print(f"ms/row: {split}; in the collector {stages.gc_seconds / args.rows * 1000:.2f}")


if __name__ == "__main__":
    main()
