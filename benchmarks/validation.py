#!/usr/bin/env python
"""Validation pass throughput: CUDA compile vs `wp.compile_aot_module` per kernel, and kernels/s per stage.

    python benchmarks/validation.py --rows 64 --workers 2
    python benchmarks/validation.py --side-by-side OLD_CHECKOUT [--rounds 2] [--no-standalone]   # old vs new

`--side-by-side` measures the whole pass (`scripts/validate.py --no-gpu`) in rows/s on a 128-seed
build, for an older checkout of this repository (e.g. `git archive <commit> | tar -x -C OLD`) and for
this one, both passes running at the same time (each with --workers processes) so both see the same
machine load; each side validates a fresh copy of a folder built by its own code (same seeds). Prints
each run and the median per side. Do not change either checkout while it runs.

Both compile routes run on the same N generated rows in one run and produce PTX for --arch:
  baseline  each kernel alone through Warp's public AOT route (`wp.compile_aot_module`, one process)
  pass      the validation pass's compile stage: rows batched per NVRTC call (`--chunk-size`),
            chunks spread over `--workers` processes (`compile_cuda.compile_rows`, as the workers run it)
Each side pays its one-time NVRTC header precompile before the clock starts. The baseline also
runs Warp's codegen for each kernel (the pass reads generated code from the rows), as a user
compiling kernels one by one would. Timings on a shared machine are noisy: rerun on a quiet one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import rows, warp_session
from warp_cuda_ir.cli import default_workers
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.synthesis import CATEGORIES
from warp_cuda_ir.validation import compile_cuda, execute, gradients

_scratch: Path | None = None


def _start_worker(root: str, arch: int, warm_row: dict[str, Any]) -> None:
    """Pool initializer: own scratch + TMPDIR (NVRTC's PCH), Warp started, headers precompiled."""
    global _scratch
    _scratch = Path(tempfile.mkdtemp(dir=root))
    os.environ["TMPDIR"] = str(_scratch)
    tempfile.tempdir = str(_scratch)
    compile_cuda.compile_rows([warm_row], arch, _scratch / "nvrtc")  # same folder: Warp's PCH is reused


def _compile_chunk(args: tuple[list[dict[str, Any]], int]) -> list[str]:
    chunk, arch = args
    assert _scratch is not None
    return [r.status for r in compile_cuda.compile_rows(chunk, arch, _scratch / "nvrtc")]


def _noop(_: int) -> None:
    time.sleep(0.2)  # keeps each worker busy long enough that every worker takes one


def baseline_seconds(sample: list[dict[str, Any]], arch: int, root: Path) -> float:
    import warp as wp

    def compile_one(row: dict[str, Any], module_dir: Path) -> None:
        with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, _):
            wp.compile_aot_module(kernel.module, arch=arch, module_dir=str(module_dir), use_ptx=True)

    compile_one(sample[0], root / "warm")  # one-time header precompile, as the pass's workers do
    start = time.perf_counter()
    for i, row in enumerate(sample):
        compile_one(row, root / f"aot{i}")  # a fresh folder each: the AOT route skips existing output
    return time.perf_counter() - start


def pass_seconds(sample: list[dict[str, Any]], arch: int, workers: int, chunk_size: int, root: Path) -> float:
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(str(root), arch, sample[0])) as pool:
        pool.map(_noop, range(workers), chunksize=1)  # every worker started and warmed up
        chunks = [(sample[i : i + chunk_size], arch) for i in range(0, len(sample), chunk_size)]
        start = time.perf_counter()
        statuses = [s for part in pool.map(_compile_chunk, chunks, chunksize=1) for s in part]
        seconds = time.perf_counter() - start
    if statuses.count("ok") != len(sample):
        print(f"  note: {len(sample) - statuses.count('ok')} rows failed to compile")
    return seconds


def single_process_seconds(sample: list[dict[str, Any]], arch: int, chunk_size: int, root: Path) -> tuple[float, float]:
    """(each row's module alone, rows batched) through NVRTC in this process: the batching gain alone."""
    compile_cuda.compile_rows(sample[:1], arch, root / "nvrtc")
    start = time.perf_counter()
    for row in sample:
        compile_cuda.compile_rows([row], arch, root / "nvrtc")
    alone = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(0, len(sample), chunk_size):
        compile_cuda.compile_rows(sample[i : i + chunk_size], arch, root / "nvrtc")
    return alone, time.perf_counter() - start


def stage_rates(sample: list[dict[str, Any]]) -> dict[str, float]:
    """Kernels/s of the per-row CPU stages in one process (Clang compile + launch; gradient check)."""
    execute.validate_cpu(sample[0])  # Clang header precompile
    start = time.perf_counter()
    for row in sample:
        execute.validate_cpu(row)
    cpu = time.perf_counter() - start
    start = time.perf_counter()
    for row in sample:
        gradients.check(row)
    grad = time.perf_counter() - start
    return {"cpu compile + launch": len(sample) / cpu, "gradient check": len(sample) / grad}


def _build_side(checkout: Path, root: Path, seed: int, workers: int, extra: list[str]) -> dict[str, Any]:
    """Per side: build the folder once, then a list of validation runs (each on a fresh copy)."""
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(checkout))
    built = root / f"built_{checkout.name}" / "warp_cuda_ir"
    build = [sys.executable, str(checkout / "scripts" / "build.py"), "--out", str(built), "--target-mb", "0.01"]
    build += ["--seeds-per-shard", "128", "--seed", str(seed), "--workers", str(workers)]
    if "--real" in (checkout / "scripts" / "build.py").read_text():
        build += ["--real", "none"]  # generated rows only, as older checkouts build
    subprocess.run(build, env=env, check=True, capture_output=True)
    return {"checkout": checkout, "built": built, "env": env, "runs": [], "extra": extra}


def _start_validation(side: dict[str, Any], root: Path, workers: int) -> tuple[Any, Path]:
    import subprocess

    copy = root / f"run_{side['checkout'].name}_{len(side['runs'])}" / "warp_cuda_ir"
    shutil.copytree(side["built"], copy)
    command = [sys.executable, str(side["checkout"] / "scripts" / "validate.py"), str(copy), "--no-gpu"]
    command += ["--workers", str(workers), *side["extra"]]
    proc = subprocess.Popen(command, env=side["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, copy


def _rate(proc: Any, copy: Path, side: dict[str, Any]) -> float:
    import re

    stdout, stderr = proc.communicate()
    found = re.search(r"validated .*: ([\d,]+) rows \(([\d,]+) now, ([\d.]+) rows/s\)", stdout)
    if proc.returncode != 0 or found is None:
        raise RuntimeError(f"{side['checkout']}: validate.py failed: {(stderr or stdout)[-800:]}")
    rate = float(found.group(3))
    side["runs"].append(rate)
    shutil.rmtree(copy.parent, ignore_errors=True)
    return rate


def side_by_side(old: Path, seed: int, workers: int, rounds: int, no_standalone: bool = False) -> None:
    """Both sides' passes run at the same time (each with `workers` processes), so they share the load.

    `no_standalone`: this checkout's pass without its standalone stage (which older checkouts lack),
    so the two passes do the same stages."""
    import statistics

    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_sbs_"))
    here = Path(__file__).resolve().parent.parent
    try:
        sides = {
            "old": _build_side(old.resolve(), root, seed, workers, []),
            "new": _build_side(here, root, seed, workers, ["--no-standalone"] if no_standalone else []),
        }
        for r in range(rounds):
            running = {name: _start_validation(side, root, workers) for name, side in sides.items()}
            for name, (proc, copy) in running.items():
                print(f"  round {r + 1} {name}: {_rate(proc, copy, sides[name]):.2f} rows/s", flush=True)
        for name, side in sides.items():
            print(f"{name} ({side['checkout']}): median {statistics.median(side['runs']):.2f} rows/s over {rounds}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--arch", type=int, default=90)
    p.add_argument("--workers", type=int, default=default_workers())
    p.add_argument("--chunk-size", type=int, default=16)
    p.add_argument("--stage-rows", type=int, default=16, help="rows for the CPU stage rates (default: 16)")
    p.add_argument("--side-by-side", type=Path, default=None, help="older checkout: whole pass, old vs this one")
    p.add_argument("--rounds", type=int, default=2, help="validation runs per side with --side-by-side")
    p.add_argument(
        "--no-standalone", action="store_true", help="with --side-by-side: this checkout's pass, standalone stage off"
    )
    args = p.parse_args()
    if args.side_by_side is not None:
        side_by_side(args.side_by_side, args.seed, args.workers, args.rounds, args.no_standalone)
        return 0

    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_bench_"))
    import warp as wp

    wp.config.kernel_cache_dir = str(root / "kernel_cache")  # a cold cache: no CPU module is reused
    warp_session.init_warp()
    sample = []
    seed = args.seed
    while len(sample) < args.rows:
        try:
            sample.append(rows.make_row(seed, CATEGORIES, args.arch))
        except ExtractionError:
            pass
        seed += 1
    try:
        n = len(sample)
        print(
            f"{n} rows, arch {args.arch}, {args.workers} workers, chunks of {args.chunk_size}, {os.cpu_count()} cores"
        )
        base = baseline_seconds(sample, args.arch, root)
        print(f"  wp.compile_aot_module, each kernel alone: {base:7.2f} s  {n / base:7.1f} kernels/s")
        ours = pass_seconds(sample, args.arch, args.workers, args.chunk_size, root)
        print(f"  validation pass compile stage:            {ours:7.2f} s  {n / ours:7.1f} kernels/s")
        print(f"  ratio (baseline / pass): {base / ours:.2f}x")
        alone, batched = single_process_seconds(sample, args.arch, args.chunk_size, root)
        print(f"  one process, NVRTC per row alone: {n / alone:.1f} kernels/s; batched: {n / batched:.1f} kernels/s")
        for stage, rate in stage_rates(sample[: args.stage_rows]).items():
            print(f"  one process, {stage}: {rate:.1f} kernels/s")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
