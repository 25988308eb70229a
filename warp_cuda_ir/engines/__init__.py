"""Engines schedule shards; every engine runs the same shard function (`generation.generate_shard`).

An engine is a `RunShards` callable: given the spec, shard indices (possibly endless), the
shard cache folder, a worker count and a `stop` predicate, it yields each finished shard's
stats and submits no new shard once `stop` returned True. `local` uses processes on this
machine, `ray` a Ray cluster; `shards_for_target` and the builder do not care which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from warp_cuda_ir.generation import BuildSpec, ShardStats

ENGINES = ("local", "ray")


class RunShards(Protocol):
    def __call__(
        self,
        spec: BuildSpec,
        indices: Iterable[int],
        cache_root: str,
        workers: int,
        stop: Callable[[ShardStats], bool] = ...,
    ) -> Iterator[ShardStats]: ...


def get_engine(name: str, workers: int, ray_address: str | None = None) -> RunShards:
    """The engine called `name`, ready to run (Ray: connected; raises `ray.RayUnavailable`)."""
    if name == "local":
        from warp_cuda_ir.engines import local

        return local.run_shards
    if name == "ray":
        from warp_cuda_ir.engines import ray

        ray.connect(ray_address, num_cpus=workers)
        return ray.run_shards
    raise ValueError(f"unknown engine {name!r}; choose from: {', '.join(ENGINES)}")
