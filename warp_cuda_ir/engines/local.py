"""Local engine: a pool of worker processes on this machine."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from warp_cuda_ir.engines import always, schedule
from warp_cuda_ir.shards import BuildSpec, ShardCache, ShardStats, run_shard

# Workers are replaced after this many shards (about 16,000 rows): a safety margin for very long
# builds (per-sample cleanup keeps RSS flat, measured by benchmarks/build_benchmark.py).
SHARDS_PER_WORKER = 128


def run_shards(
    spec: BuildSpec,
    indices: Iterable[int],
    cache_root: str,
    workers: int,
    wanted: Callable[[int], bool] = always,
) -> Iterator[ShardStats]:
    """Run shards with `workers` processes (`engines.RunShards`), yielding stats as each finishes."""
    cache = ShardCache(cache_root)
    if workers == 1:  # in-process: simplest to debug, no start-up cost
        run_now = lambda ready: [(ready[0], run_shard(spec, ready[0], cache_root))]  # noqa: E731
        yield from schedule(indices, cache, 1, wanted, lambda i: i, run_now)
        return
    # spawn: a fork of a process that already initialised Warp or a thread pool is unsafe.
    # The pool starts its processes at the first submission: a fully resumed build starts none.
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, max_tasks_per_child=SHARDS_PER_WORKER)

    def finished(futures: list[Future[ShardStats]]) -> list[tuple[Future[ShardStats], ShardStats]]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return sorted(((f, f.result()) for f in done), key=lambda fs: fs[1].index)

    try:
        # One queued shard per worker keeps the workers busy while the builder writes; more would
        # over-shoot a size target.
        yield from schedule(
            indices, cache, 2 * workers, wanted, lambda i: pool.submit(run_shard, spec, i, cache_root), finished
        )
    finally:
        # Workers exit in the background while the caller goes on (the rest of the Parquet pass).
        pool.shutdown(wait=False, cancel_futures=True)
