"""Focused tests of the bookkeeping that schedules work: the shard scheduler, the feed, and how the
validation runner blames a failed worker. Real shards are written to a real shard cache; what is
replaced is only the part under test's own seam (the engine callable, the worker slot).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from warp_cuda_ir import schema
from warp_cuda_ir.engines import Outcome
from warp_cuda_ir.errors import WorkerStartError
from warp_cuda_ir.feed import ShardFeed, schedule
from warp_cuda_ir.shards import FAILURE_SCHEMA, BuildSpec, ShardCache, ShardStats
from warp_cuda_ir.validation import runner
from warp_cuda_ir.validation.runner import PassOptions

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


def after(
    rows: list[dict[str, Any]], records: list[dict[str, Any]], tmp_path: Path, status: str = "timeout"
) -> list[runner._Work]:
    """What `runner._after_failure` leaves of a batch whose worker left `records` in its trail, then was cut."""
    settings = runner.Settings(90, schema.NO_GPU, {}, trail=str(tmp_path))
    batch = runner.Batch(settings, "b1", rows, [{} for _ in rows])
    (tmp_path / "b1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    outcome = Outcome(1, status, None, "cut at the 9 s limit" if status == "timeout" else "worker died: exit code -11")
    return runner._after_failure(runner._Work(["f"] * len(rows), rows, batch.done), batch, outcome, PassOptions())


def rows(n: int) -> list[dict[str, Any]]:
    return [{"id": f"r{i}"} for i in range(n)]


def test_a_failed_compile_batch_is_split_until_each_row_compiles_alone(tmp_path: Path) -> None:
    left = after(rows(3), [{"step": "cuda", "rows": [0, 1, 2]}], tmp_path)
    assert [[r["id"] for r in w.rows] for w in left] == [["r0"], ["r1", "r2"]]
    assert all(d == {} for w in left for d in w.done), "nothing is marked while more than one row shares the blame"


def test_a_row_that_fails_its_compile_alone_is_marked_and_still_runs(tmp_path: Path) -> None:
    (left,) = after(rows(1), [{"step": "cuda", "rows": [0]}], tmp_path)
    cuda = left.done[0]
    assert cuda["cuda_compile_status"] == "timeout"
    assert cuda["cuda_compile_error"] == "NVRTC timed out: cut at the 9 s limit"
    assert "cpu_compile_status" not in cuda, "the row's other stages still run"


def test_only_the_running_row_and_stage_are_blamed_and_the_rest_runs_again(tmp_path: Path) -> None:
    compiled = [{"cuda_compile_status": "ok", "tag": i} for i in range(3)]
    records = [{"step": "cuda", "rows": [0, 1, 2]}, *({"row": i, "columns": compiled[i]} for i in range(3))]
    records += [{"row": 0, "stage": "cpu_compile", "so_far": {}}, {"row": 0, "columns": {**compiled[0], "done": 1}}]
    records += [{"row": 1, "stage": "gradcheck", "so_far": {"cpu_run_status": "ok"}}]
    records += [{"timeout": "gradcheck", "after": 120.0}]
    (left,) = after(rows(3), records, tmp_path, status="crashed")
    marked = left.done[1]
    assert (marked["gradcheck_status"], marked["gradcheck_error"]) == ("timeout", "timed out after 120 s")
    assert marked["tag"] == 1 and marked["cpu_run_status"] == "ok", "the row keeps what finished before"
    assert left.done[0] == {**compiled[0], "done": 1} and left.done[2] == compiled[2]
    assert [r["id"] for r in left.rows] == ["r0", "r1", "r2"], "finished steps are not run again (see stages)"


def test_a_worker_that_fails_outside_any_row_stops_the_pass(tmp_path: Path) -> None:
    with pytest.raises(WorkerStartError, match="validation worker"):
        after(rows(2), [], tmp_path, status="error")
