#!/usr/bin/env python
"""Generator validity over consecutive seeds (run by hand; not a test): compile and run rates.

    python benchmarks/validity.py --seeds 10000                    # hours on 2 cores
    python benchmarks/validity.py --seeds 10000 --cpu-seeds 2000   # CPU stage on the first 2,000
    python benchmarks/validity.py --seeds 512 --first 20000 --json out.json
    python benchmarks/validity.py --first 2000 --seeds 8000 --no-nvrtc   # CPU stage for seeds measured before
    python benchmarks/validity.py --only changed.json   # a JSON list of seeds, e.g. those a fix touched

For every seed: Warp codegen (`rows.make_row`), NVRTC compile of the CUDA module (batches of
16, bisected on failure, as the validation pass does), then Warp's CPU compile and a launch with
the row's seeded inputs, checking for faults, NaN/Inf outputs and degenerate outputs (every output degenerate,
`output_stats`). No gradient check and no dedup: this measures the generator, seed by seed.
Prints rates and every failure.
Warp's CPU compile (Clang, one module per kernel) costs several times NVRTC's batched compile,
hence `--cpu-seeds`.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CHUNK = 16  # seeds per task: one NVRTC batch


def _init_worker(root: str) -> None:
    # A folder of its own: this worker deletes its compiled modules while the others load theirs.
    scratch = Path(root) / str(os.getpid())
    scratch.mkdir()
    os.environ["TMPDIR"] = str(scratch)
    tempfile.tempdir = str(scratch)
    import warp as wp

    wp.config.kernel_cache_dir = str(scratch / "kernel_cache")
    wp.config.quiet = True
    from warp_cuda_ir import warp_session

    warp_session.init_warp()


def check_seeds(task: tuple[list[int], int, bool]) -> list[dict[str, Any]]:
    """One result per seed: category, and the first failing stage with its message (or none).
    Seeds from `cpu_end` on stop after the NVRTC compile; without `nvrtc` that stage is skipped."""
    seeds, cpu_end, nvrtc = task
    from warp_cuda_ir import rows, warp_session
    from warp_cuda_ir.errors import ExtractionError
    from warp_cuda_ir.synthesis import CATEGORIES
    from warp_cuda_ir.validation import compile_cuda, execute

    results: dict[int, dict[str, Any]] = {}
    made = []
    for seed in seeds:
        try:
            made.append(rows.make_row(seed, CATEGORIES))
        except ExtractionError as e:
            results[seed] = {"seed": seed, "category": None, "failed": "codegen", "error": str(e)[:300]}
    scratch = Path(tempfile.gettempdir())
    compiled = compile_cuda.compile_rows(made, 90, scratch / "nvrtc") if made and nvrtc else [None] * len(made)
    for row, cuda in zip(made, compiled, strict=True):
        result = {"seed": row["seed"], "category": row["category"], "failed": None, "error": None}
        result |= {"cpu": row["seed"] < cpu_end, "trivial": None}
        results[row["seed"]] = result
        if cuda is not None and cuda.status != "ok":
            result |= {"failed": "nvrtc", "error": (cuda.log or "")[-300:]}
        if result["failed"] or not result["cpu"]:
            continue
        cpu = execute.validate_cpu(dict(row))
        for module_dir in (scratch / "kernel_cache").glob(f"wp_{warp_session.MODULE_NAME}_*"):
            shutil.rmtree(module_dir, ignore_errors=True)  # one module per row, never reused
        if cpu.run_status != "ok":
            result |= {"failed": "cpu", "error": (cpu.error or "")[-300:]}
        elif cpu.nonfinite:
            result |= {"failed": "nonfinite", "error": "an output holds NaN or Inf"}
        result["trivial"] = bool(cpu.output_stats) and all(o.degenerate for o in cpu.output_stats)
    return [results[s] for s in seeds]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=10_000, help="how many consecutive seeds (default: 10000)")
    p.add_argument("--first", type=int, default=0, help="first seed (default: 0)")
    p.add_argument("--cpu-seeds", type=int, help="run the CPU stage on the first N seeds only (default: all)")
    p.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    p.add_argument("--no-nvrtc", action="store_true", help="skip the NVRTC stage (for seeds measured before)")
    p.add_argument("--only", type=Path, help="a JSON list of seeds to check instead of a consecutive range")
    p.add_argument("--json", type=Path, help="also write every seed's result here")
    args = p.parse_args()
    if args.seeds < 1 or args.workers < 1:
        p.error("--seeds and --workers must be at least 1")

    if args.only:
        seeds = sorted(json.loads(args.only.read_text()))
        cpu_end = seeds[-1] + 1
    else:
        seeds = list(range(args.first, args.first + args.seeds))
        cpu_end = args.first + (args.seeds if args.cpu_seeds is None else args.cpu_seeds)
    first = seeds[0]
    chunks = [(seeds[i : i + CHUNK], cpu_end, not args.no_nvrtc) for i in range(0, len(seeds), CHUNK)]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="validity_") as scratch:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(args.workers, initializer=_init_worker, initargs=(scratch,), maxtasksperchild=64) as pool:
            for i, chunk_results in enumerate(pool.imap(check_seeds, chunks)):
                results.extend(chunk_results)
                for r in chunk_results:  # as they come: a run stopped early still shows its failures
                    if r["failed"]:
                        print(f"  seed {r['seed']} ({r['category']}): {r['failed']}", file=sys.stderr, flush=True)
                if (i + 1) % 16 == 0 or i + 1 == len(chunks):
                    rate = len(results) / (time.perf_counter() - started)
                    print(f"  {len(results):,}/{len(seeds):,} seeds, {rate:.2f} seeds/s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started

    n = len(results)
    failed = Counter(r["failed"] for r in results if r["failed"])
    reached = {"codegen": n, "nvrtc": n - failed["codegen"]}
    reached["cpu"] = reached["nvrtc"] - failed["nvrtc"]
    reached["cpu"] -= sum(1 for r in results if not r["failed"] and not r.get("cpu"))
    reached["nonfinite"] = reached["cpu"] - failed["cpu"]
    print(f"seeds {first}..{seeds[-1]} ({n:,}) in {elapsed:.0f} s on {args.workers} workers")
    for stage, label in (
        ("codegen", "Warp codegen"),
        ("nvrtc", "NVRTC compile (sm_90)"),
        ("cpu", "CPU compile + launch"),
        ("nonfinite", "finite outputs"),
    ):
        if stage == "nvrtc" and args.no_nvrtc:
            print(f"  {label:<22} not run")
            continue
        ok = reached[stage] - failed[stage]
        print(f"  {label:<22} {ok:,}/{reached[stage]:,} ({100.0 * ok / max(1, reached[stage]):.2f}%)")
    ran = [r for r in results if r["failed"] in (None, "nonfinite") and r.get("cpu")]
    trivial = Counter(r["category"] for r in ran if r["trivial"])
    per_category = Counter(r["category"] for r in ran)
    print(f"  degenerate outputs     {sum(trivial.values()):,}/{len(ran):,} of the kernels that ran")
    for category in sorted(per_category):
        print(f"    {category:<22} {trivial[category]:>4}/{per_category[category]}")
    for r in results:
        if r["failed"]:
            print(f"  seed {r['seed']} ({r['category']}): {r['failed']}: {r['error'].strip().splitlines()[-1:]}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
