"""The real rows' part of a default build, once the harvest and the capture are in the machine cache.

    python benchmarks/real_rows.py --cache ~/.cache/warp_cuda_ir              # both ways, same rows?
    python benchmarks/real_rows.py --cache C --workers 1                       # one process only

Reads the default packages' harvest and capture from `--cache` (run the README's first command, or
`scripts/build.py --no-validate`, with that cache first: nothing is captured or replayed here that the cache
does not hold), then times `build.real_rows`' steps: the cached harvest, the launches matched to records, and
the rows (sources' facts, hazards, standalone programs, near-duplicates, splits), in this process and in
`--workers` workers, and checks that both give the same rows. Wall and CPU seconds (this process and its
children).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from warp_cuda_ir import build, real
from warp_cuda_ir.cache import Cache
from warp_cuda_ir.capture.pipeline import DEFAULT_CAPTURE_JOBS
from warp_cuda_ir.engines import get_executor
from warp_cuda_ir.harvest import DEFAULT_PACKAGES
from warp_cuda_ir.record import BuildOptions

T = TypeVar("T")


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed(label: str, fn: Callable[[], T]) -> T:
    wall, cpu = time.perf_counter(), _cpu()
    value = fn()
    print(f"{label}: {time.perf_counter() - wall:.1f} s wall, {_cpu() - cpu:.1f} CPU-s", flush=True)
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--cache", required=True, help="a machine cache holding the default build's harvest and capture"
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    options = BuildOptions(
        out=Path("unused"),
        real=DEFAULT_PACKAGES,
        capture=True,
        cache_dir=Path(args.cache),
        workers=args.workers,
        capture_jobs=DEFAULT_CAPTURE_JOBS,
    )
    cache = Cache.from_options(options.cache_dir)
    with get_executor("local", args.workers) as executor:
        harvested = _timed("harvest from the cache", lambda: build.harvest_targets(options, cache))
        records = harvested["records"]
        launches = _timed(
            "launches (capture and replay verdicts from the cache)",
            lambda: build._launches(options, cache, executor, records, None),
        )
    serial = _timed(f"rows in one process ({len(records):,} records)", lambda: real.real_rows(records, launches))
    if args.workers > 1:

        def in_workers() -> real.RealRows:
            with get_executor("local", args.workers) as rows_executor:
                return real.real_rows(records, launches, rows_executor)

        made = _timed(f"rows in {args.workers} workers (their start included)", in_workers)
        same = (made.rows, made.splits) == (serial.rows, serial.splits)
        print(f"same rows and splits both ways: {same}")
    print(f"{len(serial.rows):,} rows, {serial.near_duplicate_pairs:,} near-duplicate pairs")


if __name__ == "__main__":
    main()
