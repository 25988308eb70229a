"""Focused tests of the bookkeeping that schedules work: the shard scheduler, the feed, and how the
validation runner blames a failed worker. Real shards are written to a real shard cache; what is
replaced is only the part under test's own seam (the engine callable, the worker slot).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from warp_cuda_ir import schema
from warp_cuda_ir.errors import WorkerStartError
from warp_cuda_ir.feed import ShardFeed, schedule
from warp_cuda_ir.shards import FAILURE_SCHEMA, BuildSpec, ShardCache, ShardStats
from warp_cuda_ir.validation import runner
from warp_cuda_ir.validation.runner import Chunk, PassOptions

SPEC = BuildSpec(seed=0, seeds_per_shard=4)


def write_shard(cache: ShardCache, index: int, ids: list[str], padding: int = 0) -> ShardStats:
    """A shard of rows that carry only what the scheduler and the feed read (id, seed, category)."""
    seeds = list(SPEC.shard_seeds(index))[: len(ids)]
    rows = [
        {"id": i, "seed": s, "category": "test", "python_source": "x" * padding}
        for i, s in zip(ids, seeds, strict=True)
    ]
    table = pa.Table.from_pylist(rows, schema=schema.ARROW_SCHEMA)
    return cache.write(index, table, FAILURE_SCHEMA.empty_table())


# ---- the scheduler shared by the engines ------------------------------------------------------


def run_schedule(
    cache: ShardCache, indices: Iterable[int], capacity: int, wanted: Callable[[int], bool] = lambda _: True
) -> tuple[list[int], list[int], list[int]]:
    """(submitted, reported, most in flight): shards finish in reverse order of submission."""
    submitted: list[int] = []
    reported: list[int] = []
    in_flight: list[int] = []

    def submit(index: int) -> int:
        submitted.append(index)
        return index

    def wait(handles: list[int]) -> Iterator[tuple[int, ShardStats]]:
        in_flight.append(len(handles))
        last = max(handles)  # the newest finishes first
        yield last, write_shard(cache, last, [f"id{last}"])

    for stats in schedule(indices, cache, capacity, wanted, submit, wait):
        reported.append(stats.index)
    return submitted, reported, in_flight


def test_scheduler_runs_what_the_cache_lacks_in_index_order(tmp_path: Path) -> None:
    cache = ShardCache(tmp_path)
    write_shard(cache, 1, ["cached"])
    submitted, reported, in_flight = run_schedule(cache, range(5), capacity=2)
    assert submitted == [0, 2, 3, 4], "a cached shard is reported, never run"
    assert sorted(reported) == [0, 1, 2, 3, 4] and reported.count(1) == 1
    assert max(in_flight) <= 2


def test_scheduler_submits_only_while_wanted(tmp_path: Path) -> None:
    asked: list[int] = []

    def three_wanted(in_flight: int) -> bool:
        asked.append(in_flight)
        return len(asked) <= 3

    submitted, reported, _ = run_schedule(ShardCache(tmp_path), range(100), capacity=4, wanted=three_wanted)
    assert submitted == [0, 1, 2] and sorted(reported) == [0, 1, 2]


def test_scheduler_stops_on_an_endless_index_stream_when_nothing_is_wanted(tmp_path: Path) -> None:
    import itertools

    submitted, reported, _ = run_schedule(ShardCache(tmp_path), itertools.count(), 2, wanted=lambda n: False)
    assert submitted == reported == []


# ---- the feed ------------------------------------------------------------------------------


def out_of_order_engine(ids: dict[int, list[str]], padding: int = 0) -> Callable[..., Iterator[ShardStats]]:
    """An engine (`engines.RunShards`) whose shards finish in pairs, the later one first."""

    def run(
        spec: BuildSpec, indices: Iterable[int], cache_root: str, workers: int, wanted: Callable[[int], bool]
    ) -> Iterator[ShardStats]:
        cache = ShardCache(cache_root)
        pending: list[int] = []
        for index in indices:
            if index not in ids or not wanted(len(pending)):
                break
            pending.append(index)
            if len(pending) == 2:
                for i in reversed(pending):
                    yield write_shard(cache, i, ids[i], padding)
                pending.clear()
        for i in reversed(pending):
            yield write_shard(cache, i, ids[i], padding)

    return run


def test_feed_hands_shards_out_in_index_order_and_drops_later_repeats(tmp_path: Path) -> None:
    ids = {0: ["a", "b"], 1: ["c", "a"], 2: ["d"], 3: ["b", "e"]}
    made: list[int] = []
    feed = ShardFeed(
        SPEC, str(tmp_path), out_of_order_engine(ids), 2, num_shards=4, on_shard=lambda s: made.append(s.index)
    )
    assert list(feed) == [0, 1, 2, 3]
    assert made == [1, 0, 3, 2], "the engine finished them out of order"
    # "a" repeats in shard 1 (seed 5), "b" in shard 3 (seed 12): the later seed is dropped.
    assert feed.dropped == {5, 12}
    assert list(feed) == [0, 1, 2, 3], "a second pass replays the same shards"


def test_feed_stops_at_the_first_shards_that_reach_the_size_target(tmp_path: Path) -> None:
    ids = {i: [f"id{i}"] for i in range(10)}
    probe = write_shard(ShardCache(tmp_path / "probe"), 0, ["x"], padding=2000)
    feed = ShardFeed(SPEC, str(tmp_path), out_of_order_engine(ids, 2000), 2, target_bytes=int(probe.nbytes * 2.5))
    assert list(feed) == [0, 1, 2] and feed.num_shards == 3


def test_feed_refuses_an_engine_that_stops_early(tmp_path: Path) -> None:
    feed = ShardFeed(SPEC, str(tmp_path), out_of_order_engine({0: ["a"]}), 1, num_shards=3)
    with pytest.raises(RuntimeError, match="the engine stopped after 1 shards"):
        list(feed)


# ---- the validation runner's blame ---------------------------------------------------------------


class FakeSlot:
    """A worker slot as `runner._fail` sees it, stopped without a process."""

    def __init__(self, chunk: Chunk | None, stage: str | int | None, next_row: int = 0, row_stage: str = "cpu_compile"):
        self.index, self.chunk, self.stage, self.next_row, self.row_stage = 0, chunk, stage, next_row, row_stage
        self.so_far: dict[str, Any] = {}
        self.config = runner.WorkerConfig(90, "", "no GPU", {})
        self.stopped: list[bool] = []

    def stop(self, kill: bool) -> None:
        self.stopped.append(kill)


def blame(slot: FakeSlot, monkeypatch: pytest.MonkeyPatch) -> tuple[deque[Chunk], dict[str, dict[str, Any]]]:
    monkeypatch.setattr(runner, "_Slot", lambda *args: "fresh worker")
    queue: deque[Chunk] = deque()
    marked: dict[str, dict[str, Any]] = {}
    fresh = runner._fail(
        slot,  # type: ignore[arg-type]
        "timeout",
        "timed out after 9 s",
        queue,
        PassOptions(),
        lambda key, row_id, columns: marked.setdefault(row_id, columns),
        lambda scratch: slot.config,
        Path("."),
    )
    assert fresh == "fresh worker" and slot.stopped == [True]
    return queue, marked


def rows(n: int) -> list[dict[str, Any]]:
    return [{"id": f"r{i}"} for i in range(n)]


def test_a_failed_compile_batch_is_split_so_each_row_compiles_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    queue, marked = blame(FakeSlot(Chunk(rows(3), ["f"] * 3), "compile"), monkeypatch)
    assert marked == {} and [[r["id"] for r in c.rows] for c in queue] == [["r0"], ["r1"], ["r2"]]
    assert all(c.compile for c in queue)


def test_a_row_that_fails_its_compile_alone_is_marked_and_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    queue, marked = blame(FakeSlot(Chunk(rows(1), ["f"]), "compile"), monkeypatch)
    assert marked == {} and len(queue) == 1 and not queue[0].compile
    cuda = queue[0].cuda[0]
    assert cuda is not None
    assert (cuda["cuda_compile_status"], cuda["cuda_compile_error"]) == ("timeout", "NVRTC timed out after 9 s")


def test_only_the_running_row_is_blamed_and_the_rest_is_requeued(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = [{"cuda_compile_status": "ok", "tag": i} for i in range(3)]
    chunk = Chunk(rows(3), ["f"] * 3, compile=False, cuda=list(compiled))
    queue, marked = blame(FakeSlot(chunk, 1, next_row=1, row_stage="gradcheck"), monkeypatch)
    assert list(marked) == ["r1"]
    assert marked["r1"]["gradcheck_status"] == "timeout" and "timed out" in marked["r1"]["gradcheck_error"]
    assert marked["r1"]["tag"] == 1, "the row keeps its CUDA compile result"
    (rest,) = queue
    assert [r["id"] for r in rest.rows] == ["r2"] and not rest.compile and rest.cuda == [compiled[2]]


def test_a_worker_that_cannot_start_stops_the_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(WorkerStartError, match="could not start"):
        blame(FakeSlot(None, "startup"), monkeypatch)
