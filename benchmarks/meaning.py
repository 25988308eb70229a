#!/usr/bin/env python
"""How much of the generator's programs means something, over consecutive seeds.

    python benchmarks/meaning.py --seeds 0:1000 --dynamic 200
    python benchmarks/meaning.py --seeds 0:10000 --dynamic 500 --json out.json

    python benchmarks/meaning.py --seeds 0:10000 --dynamic 2000 --dynamic-only   # CPU launches only

Static (every seed, no Warp codegen): dead local assignments, input arguments without influence,
uncalled helpers, conditions decided before they run, category fidelity, honest built-in count,
distinct program shapes, Jensen-Shannon distances to the real kernels' distributions
(`warp_cuda_ir/real_reference.json`). Dynamic (the first `--dynamic` seeds, one CPU launch each):
blocks never executed on the row's own inputs, degenerate outputs, launches that fail or give
non-finite values; 32 rows per CPU compile, forward only at -O0 (`coverage.measure_many`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import coverage, program_analysis, source_facts, warp_session
from warp_cuda_ir.synthesis import GENERATOR_VERSION, KernelProgram, synthesize


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


def measure(seeds: range, launched: int) -> dict:
    t0 = time.perf_counter()
    tally = program_analysis.Tally()
    shapes: set[str] = set()
    programs = []
    for seed in seeds:
        p = synthesize(seed)
        tally.add(program_analysis.analyse(p.source, p.category), p.category)
        shapes.add(source_facts.analyse(p.source).shape)
        if len(programs) < launched:
            programs.append((seed, p))
    static_s = time.perf_counter() - t0
    out = {"generator": GENERATOR_VERSION, "seeds": f"{seeds.start}:{seeds.stop}", **tally.figures()}
    out["distinct_shapes_pct"] = round(100.0 * len(shapes) / len(seeds), 2)
    out["static_seconds"] = round(static_s, 1)
    if programs:
        out.update(dynamic(programs))
        out["dynamic_seconds"] = round(time.perf_counter() - t0 - static_s, 1)
    return out


def dynamic(programs: list[tuple[int, KernelProgram]], batch: int = 32) -> dict:
    """Blocks never executed, degenerate outputs and failed or non-finite launches, `batch` rows per CPU
    compile (`coverage.measure_many`); a running total goes to stderr after each batch."""
    # a kernel cache of this process's own: two processes compiling same-named modules in one cache
    # folder broke a run here ("LLVM ERROR: IO failure on output stream")
    scratch = Path(tempfile.mkdtemp(prefix="meaning_dynamic_"))
    import warp as wp

    wp.config.kernel_cache_dir = str(scratch / "kernel_cache")
    warp_session.init_warp()
    blocks = never = outputs = ran = 0
    degenerate: Counter[str] = Counter()
    failed, nonfinite = [], []
    t0 = time.perf_counter()
    for k in range(0, len(programs), batch):
        part = programs[k : k + batch]
        for (seed, _), c in zip(part, coverage.measure_many([row_of(seed, p) for seed, p in part]), strict=True):
            if c.error:
                failed.append((seed, c.error))
                continue
            ran += 1
            blocks += c.blocks
            never += c.never_executed
            outputs += c.outputs
            for d in c.degenerate:
                degenerate[d.split(": ", 1)[1].split(" ")[0]] += 1
            if c.nonfinite:
                nonfinite.append(seed)
        for module_dir in (scratch / "kernel_cache").glob("wp_*"):
            shutil.rmtree(module_dir, ignore_errors=True)  # each batch is a module of its own, never reused
        seconds = time.perf_counter() - t0
        print(f"  dynamic: {k + len(part)} rows (seeds {programs[0][0]}-{part[-1][0]}), {seconds:.0f} s: "
              f"never executed {never}/{blocks}, degenerate {sum(degenerate.values())}/{outputs}, "
              f"failed {len(failed)}, non-finite {len(nonfinite)}", file=sys.stderr, flush=True)  # fmt: skip
    shutil.rmtree(scratch, ignore_errors=True)
    return {
        "dynamic_rows": len(programs),
        "launched_ok": ran,
        "never_executed_blocks_pct": round(100.0 * never / blocks, 2) if blocks else None,
        "never_executed_blocks": [never, blocks],
        "degenerate_outputs_pct": round(100.0 * sum(degenerate.values()) / outputs, 2) if outputs else None,
        "degenerate_outputs": [sum(degenerate.values()), outputs, dict(degenerate)],
        "launch_failed": failed[:20],
        "launch_failed_count": len(failed),
        "nonfinite_rows": nonfinite[:20],
        "nonfinite_count": len(nonfinite),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:1000", help="start:stop")
    p.add_argument("--dynamic", type=int, default=0, help="launch this many of the programs on the CPU")
    p.add_argument("--dynamic-only", action="store_true", help="skip the static measures (the --seeds range)")
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args()
    start, stop = (int(x) for x in args.seeds.split(":"))
    if args.dynamic_only:
        seeds = range(start, min(stop, start + args.dynamic))
        figures = {"generator": GENERATOR_VERSION, "seeds": f"{seeds.start}:{seeds.stop}"}
        figures |= dynamic([(s, synthesize(s)) for s in seeds])
    else:
        figures = measure(range(start, stop), args.dynamic)
    text = json.dumps(figures, indent=1, default=lambda o: o.tolist() if isinstance(o, np.ndarray) else str(o))
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
