#!/usr/bin/env python
"""How many generated kernels have degenerate outputs, by category and by kind.

    python benchmarks/degenerate.py --seeds 0:512 [--show 5] [--category math]

For each seed: synthesize, compile for the CPU, launch with the seeded inputs the validation
pass uses, and take `validation.output_stats` of its outputs. Prints the rows whose every output
is degenerate (`degenerate_output`), rows with at least one, outputs per kind, per category, and
with --show the sources of a few fully degenerate ones. For a validated build, the card and
`scripts/stats.py` give the same figures from the files.
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
from warp_cuda_ir.validation.execute import program_output_stats


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:256", help="start:stop")
    p.add_argument("--category", default=None, help="only this category")
    p.add_argument("--show", type=int, default=0, help="print this many fully degenerate sources")
    args = p.parse_args()
    start, stop = map(int, args.seeds.split(":"))
    categories = (args.category,) if args.category else CATEGORIES
    scratch = tempfile.mkdtemp(prefix="degenerate_")
    os.environ["TMPDIR"] = scratch  # Clang's precompiled headers
    import warp as wp

    wp.config.kernel_cache_dir = os.path.join(scratch, "kernel_cache")  # not the user's cache
    totals: collections.Counter[str] = collections.Counter()
    degenerate: collections.Counter[str] = collections.Counter()  # category -> rows, every output degenerate
    some: collections.Counter[str] = collections.Counter()  # category -> rows, at least one
    kinds: collections.Counter[str] = collections.Counter()  # kind -> outputs
    outputs = 0
    errors: list[str] = []
    shown = 0
    began = time.perf_counter()
    for seed in range(start, stop):
        program = synthesize(seed, categories)
        try:
            stats = program_output_stats(program, seed)
        except RuntimeError as e:  # counted apart, not as degenerate or not
            errors.append(f"seed {seed}: {str(e).splitlines()[0]}")
            continue
        totals[program.category] += 1
        outputs += len(stats)
        found = [s.degenerate for s in stats if s.degenerate]
        kinds.update(found)
        some[program.category] += bool(found)
        if not found or len(found) < len(stats):
            continue
        degenerate[program.category] += 1
        if shown < args.show:
            shown += 1
            print(f"--- seed {seed} {program.category}: {found}\n{program.source}", flush=True)
    n = sum(totals.values())
    print(f"generator {GENERATOR_VERSION}, seeds {start}:{stop}, {time.perf_counter() - began:.0f} s")
    print(f"rows, every output degenerate: {sum(degenerate.values())}/{n} = {100 * sum(degenerate.values()) / n:.1f}%")
    print(f"rows, some output degenerate:  {sum(some.values())}/{n} = {100 * sum(some.values()) / n:.1f}%")
    print(f"outputs degenerate: {sum(kinds.values())}/{outputs}  by kind: {dict(kinds.most_common())}")
    print(f"not run: {len(errors)}", *errors, sep="\n  ")
    for category in sorted(totals):
        print(f"  {category:22s} {degenerate[category]:4d} all, {some[category]:4d} some /{totals[category]:<4d}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
