#!/usr/bin/env python
"""Generation cost: synthesize + extract per row, the first template generator vs the typed one.

    python benchmarks/generator.py --rows 200

Runs both in one process, interleaved in blocks so machine load affects both alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import extraction
from warp_cuda_ir.synthesis import CATEGORIES, synthesize, templates


def _template(seed: int) -> tuple[str, str]:
    p = templates.generate(seed, templates.CATEGORIES)
    return p.source, p.kernel_name


def _typed(seed: int) -> tuple[str, str]:
    p = synthesize(seed, CATEGORIES)
    return p.source, p.kernel_name


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=200)
    p.add_argument("--block", type=int, default=20)
    args = p.parse_args()
    extraction.init_warp()
    totals = {"templates": [0.0, 0.0], "typed": [0.0, 0.0]}  # synthesize seconds, extract seconds
    generators = {"templates": _template, "typed": _typed}
    for start in range(0, args.rows, args.block):
        for name, make in random.Random(start).sample(list(generators.items()), 2):
            for seed in range(start, min(start + args.block, args.rows)):
                t0 = time.perf_counter()
                source, kernel = make(seed)
                t1 = time.perf_counter()
                extraction.extract(source, kernel)
                totals[name][0] += t1 - t0
                totals[name][1] += time.perf_counter() - t1
    for name, (synth, extract) in totals.items():
        per = (synth + extract) / args.rows * 1000
        print(
            f"{name:10s} {per:7.2f} ms/row ({1000 / per:6.1f} rows/s): synthesize {synth / args.rows * 1000:.2f} ms, "
            f"extract {extract / args.rows * 1000:.2f} ms"
        )
    ratio = (sum(totals["typed"]) / sum(totals["templates"])) if sum(totals["templates"]) else float("nan")
    print(f"typed / templates cost ratio: {ratio:.2f}x")


if __name__ == "__main__":
    main()
