#!/usr/bin/env python
"""Generation cost per row: the first template generator, typed-5 and the default (meaning-3), on the build's row path.

    python benchmarks/generator.py --rows 200
    python benchmarks/generator.py --rows 200 --breakdown

The figure that matters is the last line: the default generator's cost per kB of generated text against typed-5's
(target: at most 1.3x), both measured in this one process, interleaved.

Each row goes the way a build's rows go: synthesize, then `rows.row_for_program` (Warp codegen for
CUDA and CPU, cutting the texts, the source facts, row shaping). Both generators run in one process,
interleaved in blocks, so machine load affects both alike.

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
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import templates  # the retired first generator, beside this file

from warp_cuda_ir import rows, source_facts, warp_session
from warp_cuda_ir.synthesis import CATEGORIES, GENERATOR_VERSION, KernelProgram, synthesize

# The generated text a row carries: what a model trains on, and what Warp's cost grows with.
TEXT_COLUMNS = (
    "python_source", "cuda_helpers", "cuda_forward", "cuda_backward", "cpu_helpers", "cpu_forward", "cpu_backward",
)  # fmt: skip
STAGES = ("synthesis", "load", "warp build", "codegen cuda", "codegen cpu", "source facts", "ours")


def _template(seed: int) -> KernelProgram:
    return templates.generate(seed, templates.CATEGORIES)


def _typed(seed: int) -> KernelProgram:
    return synthesize(seed, CATEGORIES, "typed-5")


def _meaning(seed: int) -> KernelProgram:
    return synthesize(seed, CATEGORIES, GENERATOR_VERSION)


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
    p.add_argument("--block", type=int, default=20)
    p.add_argument("--breakdown", action="store_true", help="time each stage of a row (adds a little overhead)")
    args = p.parse_args()
    warp_session.init_warp()
    generators = {"templates": _template, "typed": _typed, "meaning": _meaning}
    totals = {name: [0.0, 0.0] for name in generators}  # synthesize seconds, row seconds
    text_bytes = dict.fromkeys(generators, 0)
    stages = {name: Stages() for name in generators}
    current = Stages()
    if args.breakdown:
        instrument(current)
    for start in range(0, args.rows, args.block):
        for name, make in random.Random(start).sample(list(generators.items()), len(generators)):
            current.seconds, current.gc_seconds = stages[name].seconds, 0.0
            for seed in range(start, min(start + args.block, args.rows)):
                t0 = time.perf_counter()
                program = make(seed)
                t1 = time.perf_counter()
                row = rows.row_for_program(seed, program)
                totals[name][0] += t1 - t0
                totals[name][1] += time.perf_counter() - t1
                text_bytes[name] += sum(len(row[c] or "") for c in TEXT_COLUMNS)
            stages[name].gc_seconds += current.gc_seconds
    for name, (synth, row) in totals.items():
        per = (synth + row) / args.rows * 1000
        kb = text_bytes[name] / args.rows / 1000
        print(
            f"{name:10s} {per:7.2f} ms/row ({1000 / per:6.1f} rows/s): synthesize {synth / args.rows * 1000:.2f} ms, "
            f"extract + row {row / args.rows * 1000:.2f} ms; {kb:.1f} kB of Python + C++ per row, {per / kb:.2f} ms/kB"
        )
        if args.breakdown:
            seconds = stages[name].seconds
            seconds["synthesis"] = synth
            seconds["ours"] = synth + row - sum(seconds[s] for s in STAGES if s != "ours")
            split = ", ".join(f"{s} {seconds[s] / args.rows * 1000:.2f}" for s in STAGES)
            print(f"{'':10s} ms/row: {split}; in the collector {stages[name].gc_seconds / args.rows * 1000:.2f}")
    for new, old in (("typed", "templates"), ("meaning", "typed")):
        ratio = (sum(totals[new]) / sum(totals[old])) if sum(totals[old]) else float("nan")
        per_kb = ratio * text_bytes[old] / max(1, text_bytes[new])
        print(f"{new} / {old} cost ratio: {ratio:.2f}x per row, {per_kb:.2f}x per kB of generated text")


if __name__ == "__main__":
    main()
