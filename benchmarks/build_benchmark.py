#!/usr/bin/env python
"""Build benchmark (run by hand; not a test): how close a build runs to Warp's own codegen limit.

    python benchmarks/build_benchmark.py                      # ~2-6 min on 2 cores
    python benchmarks/build_benchmark.py --big-build-mb 200   # adds the 200 MB build (minutes)

Prints, for the machine it runs on:
  * a real build (`run_build`, all cores): rows/s and MB/min, split into the generation phase
    (shards: synthesis + Warp codegen + shard Parquet) and the final Parquet pass (the builder);
  * per-stage rates in one process on the same seeds: synthesis, bare Warp codegen (`extract` on
    the build's own Python sources), row shaping + Parquet writing;
  * efficiency = build rows/s / (cores x bare codegen rows/s), measured side by side in this run;
  * RSS per worker: worker processes generating `--rss-rows` rows each, RSS after every 1,000 rows
    (peak, and growth from the first to the last thousand); no recycling, so this is the worst case;
  * optionally the wall time and row count of a `--big-build-mb` build.
Timings on a shared machine are noisy: the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import extraction, schema, source_facts, writing
from warp_cuda_ir.build import default_workers, run_build
from warp_cuda_ir.generation import BuildSpec, ShardStats, generate_shard
from warp_cuda_ir.synthesis import synthesize

RSS_EVERY = 1000


def rss_mb() -> float:
    with open("/proc/self/statm") as f:  # Linux: resident pages
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


def peak_rss_mb() -> float:
    # VmHWM, not ru_maxrss: a spawned worker's ru_maxrss keeps the parent's peak across exec.
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:")) * 1024 / 1e6  # kB


def cpu_seconds() -> float:
    """CPU time of this process and its finished children: unlike wall time, not inflated by load."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_build(out: Path, target_mb: float, workers: int) -> dict[str, Any]:
    """A real build; the time of the last finished shard separates generation from the Parquet pass."""
    last_shard = {"t": 0.0}

    def on_shard(_: ShardStats) -> None:
        last_shard["t"] = time.perf_counter()

    started, cpu_before = time.perf_counter(), cpu_seconds()
    result = run_build(out, BuildSpec(), target_mb, workers, on_shard=on_shard)
    wall = time.perf_counter() - started
    while multiprocessing.active_children():  # reap the pool's workers so their CPU time is counted
        time.sleep(0.1)
    n = sum(result.rows_per_split.values())
    return {
        "cpu_s": cpu_seconds() - cpu_before,
        "rows": n,
        "mb": result.bytes / 1e6,
        "wall": wall,
        "generation_s": last_shard["t"] - started,
        "parquet_pass_s": wall - (last_shard["t"] - started),
        "shards": result.num_shards,
    }


def stage_rates(out: Path, sample: int) -> dict[str, dict[str, float]]:
    """Each stage alone, in this process, on the first `sample` rows of the build in `out`."""
    table = pq.read_table(sorted((out / writing.DATA_DIR).glob("*.parquet")))
    table = table.sort_by("seed").slice(0, sample)
    built = table.to_pylist()
    extraction.init_warp()
    extract_one = built[0]
    extraction.extract(extract_one["python_source"], extract_one["kernel_name"])  # warm caches
    synthesize(extract_one["seed"])  # and the generator's catalogue of Warp built-ins

    t, cpu = time.perf_counter(), time.process_time()
    for r in built:  # the build's own Python sources: bare codegen, first, nothing else
        extraction.extract(r["python_source"], r["kernel_name"], block_dim=r["block_dim"])
    codegen_s = time.perf_counter() - t
    codegen_cpu_s = time.process_time() - cpu

    t = time.perf_counter()
    for r in built:
        synthesize(r["seed"])
    synthesis_s = time.perf_counter() - t

    t = time.perf_counter()
    for r in built:
        source_facts.analyse(r["python_source"])
    facts_s = time.perf_counter() - t

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        shaped = pa.Table.from_pylist(built, schema=schema.FEATURES.arrow_schema)
        pq.write_table(shaped, Path(tmp) / "rows.parquet")
        parquet_s = time.perf_counter() - t
        mb = (Path(tmp) / "rows.parquet").stat().st_size / 1e6

    n = len(built)
    rates = {
        name: {"rows_s": n / s, "mb_min": mb / s * 60}
        for name, s in (
            ("synthesis", synthesis_s),
            ("source facts", facts_s),
            ("Warp codegen (bare)", codegen_s),
            ("Parquet writing", parquet_s),
        )
    }
    rates["Warp codegen (bare)"]["rows_cpu_s"] = n / codegen_cpu_s
    return rates


def rss_worker(first_shard: int, num_rows: int) -> list[tuple[int, float, float]]:
    """What a pool worker does, without recycling: (rows so far, RSS MB, peak RSS MB) every 1,000 rows."""
    spec = BuildSpec(seed=10_000_000, seeds_per_shard=250)
    samples: list[tuple[int, float, float]] = []
    done, index = 0, first_shard
    while done < num_rows:
        table, _ = generate_shard(spec, index)
        before, done, index = done, done + table.num_rows, index + 1000
        if done // RSS_EVERY > before // RSS_EVERY:
            samples.append((done, rss_mb(), peak_rss_mb()))
    return samples


def rss_per_worker(workers: int, num_rows: int) -> list[list[tuple[int, float, float]]]:
    ctx = multiprocessing.get_context("spawn")  # as the local engine starts its workers
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        return list(pool.map(rss_worker, range(workers), [num_rows] * workers))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target-mb", type=float, default=20.0, help="size of the measured build (default: 20)")
    p.add_argument("--workers", type=int, default=default_workers(), help="cores to use (default: all)")
    p.add_argument("--sample", type=int, default=1000, help="rows for the one-process stage rates (default: 1000)")
    p.add_argument("--rss-rows", type=int, default=20_000, help="rows per worker for RSS; 0 skips (default: 20000)")
    p.add_argument("--big-build-mb", type=float, default=0, help="also time a build of this size, e.g. 200")
    args = p.parse_args()

    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(f"machine: {platform.node()}, {cpu}, {args.workers} workers of {os.cpu_count()} CPUs")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
        build = timed_build(Path(tmp) / "build", args.target_mb, args.workers)
        stages = stage_rates(Path(tmp) / "build", args.sample)
    build_rate = build["rows"] / build["wall"]
    codegen_rate = stages["Warp codegen (bare)"]["rows_s"]
    efficiency = build_rate / (args.workers * codegen_rate)

    print(f"\n## build --target-mb {args.target_mb:g}, {args.workers} workers (local engine)\n")
    print("| stage | rows/s | MB/min | seconds |\n|---|---:|---:|---:|")
    gen_rate, gen_s = build["rows"] / build["generation_s"], build["generation_s"]
    print(f"| generation phase (shards) | {gen_rate:.0f} | {build['mb'] / gen_s * 60:.1f} | {gen_s:.1f} |")
    pq_s = build["parquet_pass_s"]
    print(f"| final Parquet pass (builder) | {build['rows'] / pq_s:.0f} | {build['mb'] / pq_s * 60:.1f} | {pq_s:.1f} |")
    print(f"| whole build | {build_rate:.0f} | {build['mb'] / build['wall'] * 60:.1f} | {build['wall']:.1f} |")
    print(f"\n{build['rows']:,} rows, {build['mb']:.1f} MB, {build['shards']} shards")
    print(f"\n## one process, same {args.sample} rows\n")
    print("| stage | rows/s | MB/min | ms/row |\n|---|---:|---:|---:|")
    for name, r in stages.items():
        print(f"| {name} | {r['rows_s']:.0f} | {r['mb_min']:.1f} | {1000 / r['rows_s']:.2f} |")
    ratio = f"{build_rate:.0f} / ({args.workers} x {codegen_rate:.0f}) = {efficiency:.2f}"
    print(f"\nefficiency = build rows/s / (cores x bare codegen rows/s) = {ratio}  (target >= 0.8)")
    # Load-independent view of our own overhead: rows per CPU second, build (all processes) vs bare codegen.
    build_per_cpu, codegen_per_cpu = build["rows"] / build["cpu_s"], stages["Warp codegen (bare)"]["rows_cpu_s"]
    print(
        f"CPU efficiency = build rows per CPU s / bare codegen rows per CPU s = {build_per_cpu:.0f} / "
        f"{codegen_per_cpu:.0f} = {build_per_cpu / codegen_per_cpu:.2f}  (the part of the loss that is ours, not load)"
    )
    # Where the loss goes, in core-milliseconds per row: what the build spends beyond bare codegen.
    per_row = {name: 1000 / r["rows_s"] for name, r in stages.items()}
    spent = args.workers * 1000 / build_rate
    ours = per_row["synthesis"] + per_row["source facts"] + per_row["Parquet writing"]
    final_pass = args.workers * 1000 * build["parquet_pass_s"] / build["rows"]
    rest = spent - per_row["Warp codegen (bare)"] - ours - final_pass
    print(
        f"loss budget, core-ms per row: build {spent:.1f} = bare codegen {per_row['Warp codegen (bare)']:.1f}"
        f" + synthesis, source facts, Parquet {ours:.1f} + final pass (all cores) {final_pass:.1f}"
        f" + the rest (parallelism, start-up, tail, row shaping) {rest:.1f}"
    )

    if args.rss_rows:
        print(f"\n## RSS per worker over {args.rss_rows:,} rows (no recycling)\n")
        print("| worker | RSS at first 1k rows MB | at last 1k MB | growth MB | peak MB |\n|---|---:|---:|---:|---:|")
        for w, samples in enumerate(rss_per_worker(args.workers, args.rss_rows)):
            first, last = samples[0], samples[-1]
            print(f"| {w} | {first[1]:.0f} | {last[1]:.0f} | {last[1] - first[1]:+.0f} | {last[2]:.0f} |")

    if args.big_build_mb:
        with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
            big = timed_build(Path(tmp) / "build", args.big_build_mb, args.workers)
        print(f"\n## build --target-mb {args.big_build_mb:g}: {big['wall'] / 60:.1f} min (target < 15 min)")
        print(f"{big['rows']:,} rows, {big['mb']:.1f} MB, {big['rows'] / big['wall']:.0f} rows/s")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
