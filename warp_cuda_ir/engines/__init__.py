"""Engines schedule shards; every engine runs the same shard function (`shards.generate_shard`).

An engine is a `RunShards` callable: given the spec, shard indices (possibly endless), the shard
cache folder and a worker count, it yields each finished shard's stats. Before each submission it
asks `wanted(in_flight)`; the caller updates what that answers while it consumes the stats, so a
size target stops new work without over-shooting by a queue's worth of shards. `local` uses
processes on this machine, `ray` a Ray cluster; `ShardFeed` and the builder do not care which.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Protocol, TypeVar

from warp_cuda_ir.errors import UsageError
from warp_cuda_ir.shards import BuildSpec, ShardCache, ShardStats

ENGINES = ("local", "ray")
H = TypeVar("H", bound=Hashable)


def always(_: int) -> bool:
    return True


class RunShards(Protocol):
    def __call__(
        self,
        spec: BuildSpec,
        indices: Iterable[int],
        cache_root: str,
        workers: int,
        wanted: Callable[[int], bool] = ...,
    ) -> Iterator[ShardStats]: ...


def schedule(
    indices: Iterable[int],
    cache: ShardCache,
    capacity: int,
    wanted: Callable[[int], bool],
    submit: Callable[[int], H],
    wait: Callable[[list[H]], Iterable[tuple[H, ShardStats]]],
) -> Iterator[ShardStats]:
    """What every engine shares: shards already cached are reported without running; the others
    are submitted lazily in index order, at most `capacity` in flight, while `wanted(in_flight)`.
    `submit` starts one shard and returns a handle; `wait` blocks until some finish.
    """
    pending: dict[H, int] = {}
    todo = iter(indices)
    exhausted = False
    while True:
        while not exhausted and len(pending) < capacity and wanted(len(pending)):
            index = next(todo, None)
            if index is None:
                exhausted = True
            elif cache.has(index):  # resumed: nothing to run
                yield cache.stats(index)
            else:
                pending[submit(index)] = index
        if not pending:
            return
        for handle, stats in wait(list(pending)):
            del pending[handle]
            yield stats


def get_engine(name: str, workers: int, ray_address: str | None = None) -> RunShards:
    """The engine called `name`, ready to run (Ray: connected; raises `ray.RayUnavailable`)."""
    if name == "local":
        from warp_cuda_ir.engines import local

        return local.run_shards
    if name == "ray":
        from warp_cuda_ir.engines import ray

        ray.connect(ray_address, num_cpus=workers)
        return ray.run_shards
    raise UsageError(f"unknown engine {name!r}; choose from: {', '.join(ENGINES)}")
