#!/usr/bin/env python
"""How much of a generator's programs means something, over consecutive seeds (issue 15's measures).

    python benchmarks/meaning.py --generator typed-5 --seeds 0:1000 --dynamic 200
    python benchmarks/meaning.py --generator meaning-1 --seeds 0:10000 --dynamic 500 --json out.json

Static (every seed, no Warp codegen): dead local assignments, input arguments without influence,
uncalled helpers, conditions decided before they run, category fidelity, honest built-in count,
distinct program shapes, Jensen-Shannon distances to the real kernels' distributions
(`warp_cuda_ir/real_reference.json`). Dynamic (the first `--dynamic` seeds, one CPU launch each):
blocks never executed on the row's own inputs, degenerate outputs, launches that fail or give
non-finite values.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import coverage, program_analysis, source_facts, warp_session
from warp_cuda_ir.synthesis import CATEGORIES, GENERATOR_VERSION, KernelProgram, synthesize


def row_of(seed: int, program: KernelProgram) -> dict:
    """What `launch` needs of a row, without Warp codegen."""
    return {
        "seed": seed,
        "python_source": program.source,
        "kernel_name": program.kernel_name,
        "arguments": [a.to_row() for a in program.arguments],
        "launch_dim": list(program.launch_dim),
        "block_dim": program.block_dim,
        "launch_tiled": program.launch_tiled,
    }


def measure(generator: str, seeds: range, dynamic: int) -> dict:
    t0 = time.perf_counter()
    tally = program_analysis.Tally()
    shapes: set[str] = set()
    programs = []
    for seed in seeds:
        p = synthesize(seed, CATEGORIES, generator)
        tally.add(program_analysis.analyse(p.source, p.category), p.category)
        shapes.add(source_facts.analyse(p.source).shape)
        if len(programs) < dynamic:
            programs.append((seed, p))
    static_s = time.perf_counter() - t0
    out = {"generator": generator, "seeds": f"{seeds.start}:{seeds.stop}", **tally.figures()}
    out["distinct_shapes_pct"] = round(100.0 * len(shapes) / len(seeds), 2)
    out["static_seconds"] = round(static_s, 1)
    if programs:
        warp_session.init_warp()
        blocks = never = outputs = 0
        degenerate: Counter[str] = Counter()
        failed, nonfinite = [], []
        for seed, p in programs:
            row = row_of(seed, p)
            c = coverage.measure(row)
            if c.error:
                failed.append((seed, c.error))
                continue
            blocks += c.blocks
            never += c.never_executed
            outputs += c.outputs
            for d in c.degenerate:
                degenerate[d.split(": ", 1)[1].split(" ")[0]] += 1
            if c.nonfinite:
                nonfinite.append(seed)
        out["dynamic_rows"] = len(programs)
        out["never_executed_blocks_pct"] = round(100.0 * never / blocks, 2) if blocks else None
        out["never_executed_blocks"] = [never, blocks]
        out["degenerate_outputs_pct"] = round(100.0 * sum(degenerate.values()) / outputs, 2) if outputs else None
        out["degenerate_outputs"] = [sum(degenerate.values()), outputs, dict(degenerate)]
        out["launch_failed"] = failed[:20]
        out["launch_failed_count"] = len(failed)
        out["nonfinite_rows"] = nonfinite[:20]
        out["nonfinite_count"] = len(nonfinite)
        out["dynamic_seconds"] = round(time.perf_counter() - t0 - static_s, 1)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--generator", default=GENERATOR_VERSION)
    p.add_argument("--seeds", default="0:1000", help="start:stop")
    p.add_argument("--dynamic", type=int, default=0, help="launch this many of the programs on the CPU")
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args()
    start, stop = (int(x) for x in args.seeds.split(":"))
    figures = measure(args.generator, range(start, stop), args.dynamic)
    text = json.dumps(figures, indent=1, default=lambda o: o.tolist() if isinstance(o, np.ndarray) else str(o))
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
