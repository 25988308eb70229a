#!/usr/bin/env python
"""Compound conditions with a clause that cannot change the outcome, and helpers defined twice (`clauses`).

    python benchmarks/conditions.py --seeds 0:640
    python benchmarks/conditions.py --seeds 0:0 --harvested <build>/.build/harvest/*.json.gz   # real kernels

Generated programs are read twice: on their source alone (an atom's range is the whole line, or what its
built-in allows) and on the row's own declared input ranges (`clauses.declared_ranges`); real kernels on their
source alone. Prints the counts, the share, and the first findings.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import clauses
from warp_cuda_ir.synthesis import GENERATOR_VERSION, synthesize


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100.0 * part / whole:.2f}%)" if whole else f"{part} of 0"


def generated(seeds: range, show: int) -> None:
    compound = idle = idle_declared = twice = 0
    examples = []
    for seed in seeds:
        p = synthesize(seed)
        n, found = clauses.findings(p.source)
        _, declared = clauses.findings(p.source, clauses.declared_ranges([a.to_row() for a in p.arguments]))
        compound += n
        idle += len({f.condition for f in found})
        idle_declared += len({f.condition for f in declared})
        twice += len(clauses.duplicate_helpers(p.source))
        examples += [(seed, f.condition, f.clause) for f in declared][: max(0, show - len(examples))]
    print(f"generator {GENERATOR_VERSION}, seeds {seeds.start}:{seeds.stop}")
    print(f"  compound conditions with a clause that cannot matter: source alone {_share(idle, compound)};"
          f" on declared input ranges {_share(idle_declared, compound)}")  # fmt: skip
    print(f"  helpers defined twice: {twice}")
    for seed, condition, clause in examples:
        print(f"  seed {seed}: `{condition}`: `{clause}` cannot matter")


def real(paths: list[Path], show: int) -> None:
    compound = idle = twice = kernels = 0
    by_package: Counter[str] = Counter()
    examples = []
    for path in paths:
        for record in json.loads(gzip.decompress(path.read_bytes()))["records"]:
            kernels += 1
            n, found = clauses.findings(record["source"])
            bad = len({f.condition for f in found})
            compound += n
            idle += bad
            by_package[record.get("package", "?")] += bad
            twice += len(clauses.duplicate_helpers(record["source"]))
            where = f"{record['file']}:{record['kernel_name']}"
            examples += [(where, f.condition, f.clause) for f in found][: max(0, show - len(examples))]
    print(f"real kernels: {kernels} from {len(paths)} harvest file(s)")
    print(f"  compound conditions with a clause that cannot matter: {_share(idle, compound)}")
    print(f"  by package: {dict(by_package)}")
    print(f"  helpers defined twice: {twice}")
    for kernel, condition, clause in examples:
        print(f"  {kernel}: `{condition}`: `{clause}` cannot matter")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:640", help="start:stop of the generated programs")
    p.add_argument("--harvested", type=Path, nargs="*", default=[], help="harvest cache files (real kernels)")
    p.add_argument("--show", type=int, default=10, help="findings to print")
    args = p.parse_args()
    start, stop = (int(x) for x in args.seeds.split(":"))
    if stop > start:
        generated(range(start, stop), args.show)
    if args.harvested:
        real(args.harvested, args.show)


if __name__ == "__main__":
    main()
