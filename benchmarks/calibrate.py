#!/usr/bin/env python
"""Recompute the generator's frozen built-in calibration (`calibration_meaning3` in
`warp_cuda_ir/synthesis/real_weights.json`).

    python benchmarks/calibrate.py --seeds 0:2000 --rounds 2

Each round generates the programs of the seeds with the factors found so far, counts built-in uses honestly
(`program_analysis`), and multiplies each drawn built-in's factor by (real share / generated share) ** 0.7
(clipped to [0.15, 8] in all), the real shares being `real_reference.json`'s. Built-ins the grammar never
draws keep factor 1. Changing the factors changes the generator's programs: do it only with a new generator
version (`GENERATOR_VERSION`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import program_analysis
from warp_cuda_ir.synthesis import meaning, synthesize

EXPONENT = 0.7
LOW, HIGH = 0.15, 8.0


def shares(counts: Counter[str] | dict[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:2000")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--write", action="store_true", help="store the factors in real_weights.json")
    args = p.parse_args()
    start, stop = (int(x) for x in args.seeds.split(":"))
    real = shares(program_analysis.real_reference()["builtins"])
    factors: dict[str, float] = {}
    for r in range(args.rounds):
        meaning.CALIBRATION = factors
        tally = program_analysis.Tally()
        for seed in range(start, stop):
            prog = synthesize(seed)
            tally.add(program_analysis.analyse(prog.source, prog.category), prog.category)
        figures = tally.figures()
        print(f"round {r}: js {figures['js_distance']} mean {figures['js_distance_mean']} "
              f"built-ins {figures['distinct_builtins']}", flush=True)  # fmt: skip
        ours = shares(tally.builtins)
        for name, share in ours.items():
            want = real.get(name, 0.0)
            f = factors.get(name, 1.0) * ((want / share) ** EXPONENT if want else LOW)
            factors[name] = round(min(HIGH, max(LOW, f)), 4)
    if args.write:
        path = Path(meaning.__file__).with_name("real_weights.json")
        data = json.loads(path.read_text())
        data["calibration_meaning3"] = dict(sorted(factors.items()))
        path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
        print(f"wrote {len(factors)} factors to {path}")


if __name__ == "__main__":
    main()
