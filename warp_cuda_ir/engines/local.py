"""Local engine: a pool of worker processes on this machine."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from warp_cuda_ir.generation import BuildSpec, ShardStats, run_shard

# Workers are replaced after this many shards: Warp keeps some per-kernel state we
# cannot reach, so recycling bounds memory over very long builds.
SHARDS_PER_WORKER = 64


def run_shards(
    spec: BuildSpec,
    indices: Iterable[int],
    cache_root: str,
    workers: int,
    stop: Callable[[ShardStats], bool] = lambda _: False,
) -> Iterator[ShardStats]:
    """Run shards in index order with `workers` processes, yielding stats as each finishes.

    Indices are consumed lazily, so `indices` may be endless; once `stop` returns True
    no new shard is submitted and the ones in flight are awaited.
    """
    if workers == 1:  # in-process: simplest to debug, no start-up cost
        for i in indices:
            stats = run_shard(spec, i, cache_root)
            yield stats
            if stop(stats):
                return
        return
    # spawn: a fork of a process that already initialised Warp or a thread pool is unsafe.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx, max_tasks_per_child=SHARDS_PER_WORKER) as pool:
        pending: set[Future[ShardStats]] = set()
        todo = iter(indices)
        stopping = False
        while True:
            while not stopping and len(pending) < 2 * workers:
                index = next(todo, None)
                if index is None:
                    stopping = True
                    break
                pending.add(pool.submit(run_shard, spec, index, cache_root))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result().index):
                stats = future.result()
                yield stats
                stopping = stopping or stop(stats)
