#!/usr/bin/env python
"""How many generated kernels have trivial outputs (issue #3), by category and by pattern.

    python benchmarks/trivial.py --seeds 0:512 [--show 5] [--category math]

For each seed: synthesize, compile for the CPU, launch with the seeded inputs the validation
pass uses, and apply `validation.outputs.trivial_reason` (see `validation.trivial`). Prints the
rate per category and per pattern (all_zero / constant / equal_to_input), and with --show the
sources of a few trivial ones.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir.synthesis import CATEGORIES, GENERATOR_VERSION, synthesize
from warp_cuda_ir.validation.trivial import program_trivial_reason


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:256", help="start:stop")
    p.add_argument("--category", default=None, help="only this category")
    p.add_argument("--show", type=int, default=0, help="print this many trivial sources")
    args = p.parse_args()
    start, stop = map(int, args.seeds.split(":"))
    categories = (args.category,) if args.category else CATEGORIES
    scratch = tempfile.mkdtemp(prefix="trivial_")
    os.environ["TMPDIR"] = scratch  # Clang's precompiled headers
    import warp as wp

    wp.config.kernel_cache_dir = os.path.join(scratch, "kernel_cache")  # not the user's cache
    totals: collections.Counter[str] = collections.Counter()
    trivial: collections.Counter[str] = collections.Counter()
    patterns: collections.Counter[str] = collections.Counter()
    errors: list[str] = []
    shown = 0
    began = time.perf_counter()
    for seed in range(start, stop):
        program = synthesize(seed, categories)
        try:
            reason = program_trivial_reason(program, seed)
        except RuntimeError as e:  # counted apart, not as trivial or not
            errors.append(f"seed {seed}: {str(e).splitlines()[0]}")
            continue
        totals[program.category] += 1
        if reason is None:
            continue
        trivial[program.category] += 1
        for pattern in {part.split(": ")[1].split(" ")[0] for part in reason.split("; ")}:
            patterns[pattern] += 1
        if shown < args.show:
            shown += 1
            print(f"--- seed {seed} {program.category}: {reason}\n{program.source}", flush=True)
    n = sum(totals.values())
    print(f"generator {GENERATOR_VERSION}, seeds {start}:{stop}, {time.perf_counter() - began:.0f} s")
    print(f"trivial: {sum(trivial.values())}/{n} = {100 * sum(trivial.values()) / n:.1f}%  patterns: {dict(patterns)}")
    print(f"not run: {len(errors)}", *errors, sep="\n  ")
    for category in sorted(totals):
        print(f"  {category:22s} {trivial[category]:4d}/{totals[category]:<4d}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
