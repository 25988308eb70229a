#!/usr/bin/env python
"""Build benchmark (run by hand; not a test): how close a build runs to Warp's own codegen limit.

    python benchmarks/build_benchmark.py                      # ~3-8 min on 2 cores
    python benchmarks/build_benchmark.py --big-build-mb 200   # adds the 200 MB build (~4 min more)

Prints, for the machine it runs on:
  * a real build (`run_build`, all cores), twice: rows/s and MB/min until its last shard (the
    builder writes each shard's rows while later shards are generated) and after it;
  * per-stage rates in one process, measured between the two builds on rows spread over the
    first: synthesis, source facts, bare Warp codegen (`extract` on the build's own Python
    sources), Parquet writing;
  * efficiency = build rows/s / (cores x bare codegen rows/s), side by side in this run;
  * a loss budget per build from its shard timeline: core time inside shards, worker start-up,
    the tail (cores idle while others finish their last shard) and after the last shard;
  * RSS per worker: worker processes generating `--rss-rows` rows each, RSS after every 1,000 rows
    (peak, and growth from the first to the last thousand); no recycling, so this is the worst case;
  * optionally the wall time, row count and efficiency of a `--big-build-mb` build;
  * optionally (`--real warp`) the real rows' part of a build once harvest and capture are cached: the
    cached harvest read back, real rows shaped with their captured launches, their Parquet files
    written; CPU and wall time, scaled to the default build's 5,714 real rows.
Timings on a shared machine are noisy: the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import math
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

# Not `warp_cuda_ir.build` (it imports `datasets`) at the top: spawned pool workers re-run this
# module's top level, and the build's workers must start as they do under scripts/build.py.
from warp_cuda_ir import extraction, schema, source_facts, warp_session, writing
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.shards import BuildSpec, ShardStats, ShardTiming, generate_shard
from warp_cuda_ir.synthesis import synthesize

RSS_EVERY = 1000
DEFAULT_REAL_ROWS = 5_714  # real rows of the default build (newton, mujoco-warp, warp-lang)


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
    """A real build, with each shard's worker and busy time: where the cores were idle, and when."""
    from warp_cuda_ir.build import run_build

    made: list[ShardTiming] = []

    def on_shard(stats: ShardStats) -> None:
        if stats.made_by:
            made.append(stats.made_by)

    from warp_cuda_ir.record import BuildOptions

    started, cpu_before = time.time(), cpu_seconds()
    result = run_build(BuildOptions(out=out, target_mb=target_mb, workers=workers), on_shard=on_shard)
    ended = time.time()
    while multiprocessing.active_children():  # reap the pool's workers so their CPU time is counted
        time.sleep(0.1)
    last_shard = max(t.ended for t in made)
    by_worker: dict[int, list[ShardTiming]] = {}
    for t in made:
        by_worker.setdefault(t.pid, []).append(t)
    first_starts = sorted(min(t.started for t in shards) for shards in by_worker.values())
    return {
        "cpu_s": cpu_seconds() - cpu_before,
        "rows": sum(result.rows_per_split.values()),
        "mb": result.bytes / 1e6,
        "wall": ended - started,
        "generation_s": last_shard - started,
        "parquet_pass_s": ended - last_shard,
        "shards": result.num_shards,
        # Core-seconds: shards running (wall, CPU, and CPU in Warp codegen); cores waiting for their
        # first shard (worker start-up); cores idle at the end while others finish their last shard.
        "busy_s": sum(t.ended - t.started for t in made),
        "shard_cpu_s": sum(t.cpu_s for t in made),
        "codegen_cpu_s": sum(t.codegen_cpu_s for t in made),
        "startup_s": sum(t - started for t in first_starts) + (workers - len(first_starts)) * (last_shard - started),
        "tail_s": sum(last_shard - max(t.ended for t in shards) for shards in by_worker.values()),
    }


def stage_rates(out: Path, sample: int) -> dict[str, dict[str, float]]:
    """Each stage alone, in this process, on `sample` rows spread evenly over the build in `out`
    (later seeds are not cheaper or dearer on average, but a prefix would be a biased sample)."""
    table = pq.read_table(writing.all_data_files(out)).sort_by("seed")
    built = table.take(list(range(0, table.num_rows, math.ceil(table.num_rows / sample)))).to_pylist()
    # The build's own Python sources: bare codegen, first, nothing else.
    rates = {
        "Warp codegen (bare)": bare_codegen([(r["python_source"], r["kernel_name"], r["block_dim"]) for r in built])
    }

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
        shaped = pa.Table.from_pylist(built, schema=schema.ARROW_SCHEMA)
        pq.write_table(shaped, Path(tmp) / "rows.parquet")
        parquet_s = time.perf_counter() - t
        mb = (Path(tmp) / "rows.parquet").stat().st_size / 1e6

    n = len(built)
    rates["Warp codegen (bare)"]["mb_min"] = mb * rates["Warp codegen (bare)"]["rows_s"] / n * 60
    for name, seconds in (("synthesis", synthesis_s), ("source facts", facts_s), ("Parquet writing", parquet_s)):
        rates[name] = {"rows_s": n / seconds, "mb_min": mb / seconds * 60}
    return rates


def bare_codegen(sources: list[tuple[str, str, int]]) -> dict[str, float]:
    """Warp codegen alone in this process on (python_source, kernel_name, block_dim): rows/s, wall and CPU."""
    warp_session.init_warp()
    extraction.extract(sources[0][0], sources[0][1], block_dim=sources[0][2])  # warm caches
    t, cpu, n = time.perf_counter(), time.process_time(), 0
    for source, kernel_name, block_dim in sources:
        try:
            extraction.extract(source, kernel_name, block_dim=block_dim)
            n += 1
        except ExtractionError:  # as in a build: the time is spent, no row comes of it
            pass
    return {"rows_s": n / (time.perf_counter() - t), "rows_cpu_s": n / (time.process_time() - cpu), "rows": n}


def sources_for(seeds: range) -> list[tuple[str, str, int]]:
    """The Python sources a default build generates for `seeds`."""
    return [(p.source, p.kernel_name, p.block_dim) for p in map(synthesize, seeds)]


def print_builds(title: str, builds: list[dict[str, Any]], workers: int) -> None:
    print(f"\n## {title}, {workers} workers (local engine)\n")
    print("| build | phase | rows/s | MB/min | seconds |\n|---|---|---:|---:|---:|")
    for i, build in enumerate(builds, 1):
        for name, seconds in (
            ("until the last shard (the builder writing alongside)", build["generation_s"]),
            ("after the last shard (builder, card)", build["parquet_pass_s"]),
            ("whole build", build["wall"]),
        ):
            print(
                f"| {i} | {name} | {build['rows'] / seconds:.1f} | {build['mb'] / seconds * 60:.1f} | {seconds:.1f} |"
            )
    print(f"\n{builds[0]['rows']:,} rows, {builds[0]['mb']:.1f} MB, {builds[0]['shards']} shards")


def print_efficiency(builds: list[dict[str, Any]], stages: dict[str, dict[str, float]], workers: int) -> None:
    """Efficiency = build rows/s / (cores x bare codegen rows/s), wall clock and CPU time."""
    rates = [b["rows"] / b["wall"] for b in builds]
    build_rate = sum(rates) / len(rates)
    bare = stages["Warp codegen (bare)"]
    each = ", ".join(f"{r / (workers * bare['rows_s']):.2f}" for r in rates)
    print(
        f"efficiency = build rows/s / (cores x bare codegen rows/s) = {build_rate:.1f} / ({workers} x "
        f"{bare['rows_s']:.1f}) = {build_rate / (workers * bare['rows_s']):.2f}  (each build: {each}; target >= 0.8)"
    )
    # Load-independent view of our own overhead: rows per CPU second, build (all processes) vs bare codegen.
    per_cpu = sum(b["rows"] for b in builds) / sum(b["cpu_s"] for b in builds)
    print(
        f"CPU efficiency = build rows per CPU s / bare codegen rows per CPU s = {per_cpu:.1f} / "
        f"{bare['rows_cpu_s']:.1f} = {per_cpu / bare['rows_cpu_s']:.2f}  (our overhead without idle cores)"
    )
    # The same codegen timed inside the build: differs from the one-process figure by contention and drift.
    in_build = 1000 * sum(b["codegen_cpu_s"] for b in builds) / sum(b["rows"] for b in builds)
    print(
        f"Warp codegen CPU per row: {in_build:.1f} ms inside the build's workers, "
        f"{1000 / bare['rows_cpu_s']:.1f} ms alone in one process"
    )


def print_loss_budget(build: dict[str, Any], workers: int) -> None:
    """Where the build's core time went, in core-milliseconds per row, all measured inside the build."""
    ms = 1000 / build["rows"]
    spent = workers * build["wall"] * ms
    codegen, cpu, busy = build["codegen_cpu_s"] * ms, build["shard_cpu_s"] * ms, build["busy_s"] * ms
    after = workers * build["parquet_pass_s"] * ms
    startup, tail = build["startup_s"] * ms, build["tail_s"] * ms
    gaps = spent - busy - after - startup - tail
    print(
        f"loss budget, core-ms per row: build {spent:.1f} = Warp codegen {codegen:.1f}"
        f" + synthesis, source facts, rows, shard Parquet {cpu - codegen:.1f}"
        f" + workers waiting for a core (the builder runs then) {busy - cpu:.1f}"
        f" + worker start-up {startup:.1f} + between shards {gaps:.1f} + tail {tail:.1f}"
        f" + after the last shard {after:.1f}."
        f" Codegen's share of the build's core time: {codegen / spent:.2f}"
    )


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


def real_part(targets: tuple[str, ...], out: Path, capture_jobs: int, workers: int) -> dict[str, Any]:
    """The real rows' part of a build once harvest and capture are cached in the machine cache (filled first)."""
    from warp_cuda_ir import build
    from warp_cuda_ir.cache import Cache
    from warp_cuda_ir.engines import get_executor
    from warp_cuda_ir.record import BuildOptions

    options = BuildOptions(
        out=out,
        spec=BuildSpec(seeds_per_shard=8),
        target_mb=0.01,
        workers=workers,
        real=targets,
        capture=True,
        capture_jobs=capture_jobs,
        overwrite=True,
    )
    build.run_build(options)  # harvest and capture, or check their caches are current; not timed
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
        with get_executor(options.engine, workers) as executor:
            started, cpu = time.time(), cpu_seconds()
            cache = Cache.from_options(options.cache_dir)
            harvested = build.harvest_targets(options, cache)
            assert harvested is not None
            rows = build.real_rows(options, cache, executor, harvested)
            build.write_real_rows(Path(tmp), rows, options.max_shard_mb * 10**6)
            wall, cpu = time.time() - started, cpu_seconds() - cpu
    n = len(rows.rows)
    return {
        "rows": n,
        "launched": sum(r["launch_dim"] is not None for r in rows.rows),
        "wall": wall,
        "cpu_s": cpu,
        "scaled_cpu_s": cpu / n * DEFAULT_REAL_ROWS,
    }


def main() -> int:
    from warp_cuda_ir.cli import default_workers

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target-mb", type=float, default=20.0, help="size of the measured build (default: 20)")
    p.add_argument("--workers", type=int, default=default_workers(), help="cores to use (default: all)")
    p.add_argument("--sample", type=int, default=1000, help="rows for the one-process stage rates (default: 1000)")
    p.add_argument("--rss-rows", type=int, default=20_000, help="rows per worker for RSS; 0 skips (default: 20000)")
    p.add_argument("--big-build-mb", type=float, default=0, help="also time a build of this size, e.g. 200")
    p.add_argument("--real", default="", help="also time the real rows' part for these --real targets, e.g. warp")
    p.add_argument("--real-out", type=Path, help="build folder kept for the real part's caches (default: temporary)")
    p.add_argument("--capture-jobs", type=int, default=8, help="capture jobs of the real part (default: 8)")
    args = p.parse_args()

    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(f"machine: {platform.node()}, {cpu}, {args.workers} workers of {os.cpu_count()} CPUs")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
        # Build, bare codegen on its sources, the same build again: on a VM whose speed drifts by
        # 10-20% within minutes, the mean of the two builds is compared with what ran between them.
        builds = [timed_build(Path(tmp) / "first", args.target_mb, args.workers)]
        stages = stage_rates(Path(tmp) / "first", args.sample)
        builds.append(timed_build(Path(tmp) / "second", args.target_mb, args.workers))
    print_builds(f"build --target-mb {args.target_mb:g}", builds, args.workers)
    print(f"\n## one process, {stages['Warp codegen (bare)']['rows']:.0f} rows of the first build\n")
    print("| stage | rows/s | MB/min | ms/row |\n|---|---:|---:|---:|")
    for name, r in stages.items():
        print(f"| {name} | {r['rows_s']:.0f} | {r['mb_min']:.1f} | {1000 / r['rows_s']:.2f} |")
    print()
    print_efficiency(builds, stages, args.workers)
    for build in builds:
        print_loss_budget(build, args.workers)

    if args.rss_rows:
        print(f"\n## RSS per worker over {args.rss_rows:,} rows (no recycling)\n")
        print("| worker | RSS at first 1k rows MB | at last 1k MB | growth MB | peak MB |\n|---|---:|---:|---:|---:|")
        for w, samples in enumerate(rss_per_worker(args.workers, args.rss_rows)):
            first, last = samples[0], samples[-1]
            print(f"| {w} | {first[1]:.0f} | {last[1]:.0f} | {last[1] - first[1]:+.0f} | {last[2]:.0f} |")

    if args.big_build_mb:
        # Bare codegen just before and just after the big build, on sources spread over the seeds it
        # will cover (estimated from the first build's MB per seed); the mean of the two is compared.
        seeds_per_mb = builds[0]["shards"] * BuildSpec().seeds_per_shard / builds[0]["mb"]
        num_seeds = int(args.big_build_mb * seeds_per_mb)
        sources = sources_for(range(0, num_seeds, math.ceil(num_seeds / args.sample)))
        before = bare_codegen(sources)
        with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
            big = timed_build(Path(tmp) / "build", args.big_build_mb, args.workers)
        after = bare_codegen(sources)
        bare = {k: (before[k] + after[k]) / 2 for k in before}
        print_builds(
            f"build --target-mb {args.big_build_mb:g}: {big['wall'] / 60:.1f} min (target < 15 min)",
            [big],
            args.workers,
        )
        print(
            f"bare Warp codegen on {len(sources)} of its sources: {before['rows_s']:.1f} rows/s just before, "
            f"{after['rows_s']:.1f} just after\n"
        )
        print_efficiency([big], {"Warp codegen (bare)": bare}, args.workers)
        print_loss_budget(big, args.workers)
    if args.real:
        targets = tuple(t for t in args.real.split(",") if t)
        with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_bench_") as tmp:
            real = real_part(targets, (args.real_out or Path(tmp) / "real").absolute(), args.capture_jobs, args.workers)
        print(
            f"\n## real rows' part, harvest and capture cached"
            f" ({','.join(targets)}, {args.capture_jobs} capture jobs)\n\n"
            f"{real['rows']:,} real rows ({real['launched']:,} with a captured launch): {real['wall']:.1f} s wall,"
            f" {real['cpu_s']:.1f} CPU s ({1000 * real['cpu_s'] / real['rows']:.2f} ms per row); scaled to the default"
            f" build's {DEFAULT_REAL_ROWS:,} real rows: {real['scaled_cpu_s']:.0f} CPU s (target <= 60 s)"
        )
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
