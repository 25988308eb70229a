"""The feed: the shards one build is made of, handed to the builder in index order as they finish.

It sits above the executor (it drives one through `shard_engine`) and below the builder (which iterates it).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from warp_cuda_ir.engines import Executor, Resources, Ticket, always
from warp_cuda_ir.shards import BuildSpec, ShardCache, ShardStats, generate_shard, run_shard

H = TypeVar("H", bound=Hashable)


class RunShards(Protocol):
    """Given the spec, shard indices (possibly endless), the shard cache folder and a worker count, yield
    each finished shard's stats. Before each submission it asks `wanted(in_flight)`; the caller updates
    what that answers while it consumes the stats, so a size target stops new work without over-shooting
    by a queue's worth of shards."""

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
    """Shards already cached are reported without running; the others are submitted lazily in index
    order, at most `capacity` in flight, while `wanted(in_flight)`. `submit` starts one shard and returns
    a handle; `wait` blocks until some finish.
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


def _write_shard(job: tuple[BuildSpec, int, str]) -> ShardStats:
    return run_shard(*job)


def _make_shard(job: tuple[BuildSpec, int]) -> Any:
    return generate_shard(*job)


def shard_engine(executor: Executor) -> RunShards:
    """Run shards on `executor`. Workers that share this machine's files write their shard into the
    cache themselves; elsewhere (Ray) a worker returns the shard's Arrow tables and the driver writes
    them, so a cluster needs no shared file system. Either way the bytes are the same."""

    def run(
        spec: BuildSpec,
        indices: Iterable[int],
        cache_root: str,
        workers: int,
        wanted: Callable[[int], bool] = always,
    ) -> Iterator[ShardStats]:
        cache = ShardCache(cache_root)
        running: set[Ticket] = set()
        fn: Callable[[Any], Any] = _write_shard if executor.shares_files else _make_shard

        def submit(index: int) -> Ticket:
            job = (spec, index, cache_root) if executor.shares_files else (spec, index)
            ticket = executor.submit(fn, job, index=index, time_limit=None, resources=Resources())
            running.add(ticket)
            return ticket

        def finished(tickets: list[Ticket]) -> Iterator[tuple[Ticket, ShardStats]]:
            for ticket, outcome in executor.wait(tickets):
                running.discard(ticket)
                if outcome.status != "ok":  # a shard is a pure function of (spec, index): a bug, not bad input
                    raise RuntimeError(f"shard {ticket.index} {outcome.status}: {outcome.detail}")
                value = outcome.value
                yield ticket, value if executor.shares_files else cache.write(ticket.index, *value)

        # Two shards per worker keep the workers busy while the builder writes; more would over-shoot
        # a size target.
        try:
            yield from schedule(indices, cache, 2 * executor.capacity(), wanted, submit, finished)
        finally:
            if running:  # stopped early or failed: shards nobody will read
                executor.cancel(list(running))

    return run


class ShardFeed:
    """The shards one build is made of, handed out in index order as they are finished.

    A build is either a fixed number of shards or, with `target_bytes`, the first K shards
    whose Parquet files together hold that many bytes. K depends only on the shards'
    contents, never on which worker finished first, so the same arguments give the same
    rows on any machine and with any worker count.

    The first iteration drives `engine` (generating what the cache lacks) and yields shard
    k as soon as shards 0..k are all finished: the builder writes shard k while later ones
    are still being generated. Later iterations replay the same indices. Alongside, `dropped`
    collects the seeds whose program already appeared at a lower seed, so no program is
    written twice; it covers shard k by the time k is yielded.
    """

    def __init__(
        self,
        spec: BuildSpec,
        cache_root: str,
        engine: RunShards,
        workers: int,
        *,
        num_shards: int | None = None,
        target_bytes: int | None = None,
        on_shard: Callable[[ShardStats], None] = lambda _: None,
        exclude_ids: Collection[str] = (),
        on_handed: Callable[[int], None] = lambda _: None,
    ) -> None:
        if (num_shards is None) == (target_bytes is None):
            raise ValueError("give exactly one of num_shards and target_bytes")
        self.spec, self.cache, self.engine, self.workers = spec, ShardCache(cache_root), engine, workers
        self.num_shards = num_shards  # with a size target: known once the first iteration ends
        self.target_bytes = target_bytes
        self.on_shard = on_shard
        self.on_handed = on_handed  # called with each shard's index as it is handed out (`dropped` covers it)
        self.dropped: set[int] = set()
        # Ids already taken by rows written elsewhere (the build's real rows win over synthetic ones).
        self._exclude = frozenset(exclude_ids)
        self.excluded = 0  # seeds dropped because a real row has their program
        self._first_seen: set[str] = set(self._exclude)
        self._sizes: dict[int, int] = {}  # Parquet bytes of each finished shard
        self._finished = 0  # shards 0.._finished-1 are finished and handed out
        self._handed_bytes = 0  # their bytes
        self._done = False

    def __iter__(self) -> Iterator[int]:
        if self._done:
            yield from range(self._finished)
            return
        if self._finished:
            raise RuntimeError("a ShardFeed is iterated once while it generates")
        indices = itertools.count() if self.num_shards is None else range(self.num_shards)
        stream = self.engine(self.spec, indices, str(self.cache.root), self.workers, self._wanted)
        try:
            for stats in stream:
                self._sizes[stats.index] = stats.nbytes
                self.on_shard(stats)
                while not self._complete() and self._finished in self._sizes:
                    self._deduplicate(self._finished)
                    self.on_handed(self._finished)
                    self._handed_bytes += self._sizes[self._finished]
                    self._finished += 1
                    yield self._finished - 1
                if self._complete():
                    break
        finally:
            stream.close()  # stops the engine: shards still running are not needed
        if not self._complete():
            raise RuntimeError(f"the engine stopped after {self._finished} shards")
        self.num_shards, self._done = self._finished, True

    def _complete(self) -> bool:
        if self.target_bytes is None:
            return self._finished == self.num_shards
        return self._handed_bytes >= self.target_bytes

    def _wanted(self, in_flight: int) -> bool:
        """Whether the engine should start one more shard, given `in_flight` started and unfinished.

        Near a size target, only as many are started as the mean shard size says are missing.
        """
        if self.target_bytes is None:
            return True
        if not self._sizes:  # no shard size known yet: one shard per worker
            return in_flight < self.workers
        # Shards run in index order, so every finished shard will be part of the build.
        done = sum(self._sizes.values())  # a few thousand shards at most: cheap next to a shard
        missing = self.target_bytes - done
        return missing > 0 and in_flight < math.ceil(missing / (done / len(self._sizes)))

    def _deduplicate(self, index: int) -> None:
        table = self.cache.read(index, ["id", "seed"])
        for rid, seed in zip(table.column("id").to_pylist(), table.column("seed").to_pylist(), strict=True):
            if rid in self._first_seen:
                self.dropped.add(seed)
                self.excluded += rid in self._exclude
            else:
                self._first_seen.add(rid)
