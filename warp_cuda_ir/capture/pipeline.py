"""Capture a set of packages: their jobs (cached), then one launch record per kernel key."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from warp_cuda_ir.cache import Cache
from warp_cuda_ir.capture import jobs as jobs_mod
from warp_cuda_ir.capture import keys, plan
from warp_cuda_ir.engines import Executor

# The build's default capture (`scripts/build.py --capture-jobs`): the first jobs of the planned order. 110
# jobs, measured from empty caches (each job's CPU time at load ~8, a job cut at its limit counted at its
# limit, as on an idle machine): 42.9% of the default build's real rows replay `equal` in ~930 job-seconds,
# where the 92 jobs of the plan before took ~1,470 for 41.6% (benchmarks/README.md, "A shorter capture").
# 113 since the capture stores uint64 data: the plan then counts those kernels, and three newton and warp
# tests moved into the first 110 ahead of four that gave 50 `equal` rows in ~95 job-seconds (mujoco_warp's
# history_test 12 of them); the three add ~97 job-seconds and 47 rows, so all seven run (benchmarks/README.md).
# 107 since seven of those 113 joined `jobs.LOW_YIELD_JOBS` (20 rows, 80 CPU-s): the first 107 are the other
# 106 and newton's test_softbody (3 CPU-s), which they had kept out of the first 113.
DEFAULT_CAPTURE_JOBS = 107


@dataclass
class Captured:
    records: dict[str, tuple[dict[str, Any], bytes | None]]  # `<kernel key>|<Warp key>` -> (meta, bytes | None)
    results: list[jobs_mod.JobResult]
    targets: list[keys.Target]
    seconds: float

    def summary(self) -> dict[str, Any]:
        per = jobs_mod.summary(self.results)
        for meta, data in self.records.values():
            package = meta["kernel"].split("|", 1)[0]
            d = per.setdefault(package, {"jobs": 0, "status": {}, "launches": 0, "seconds": 0.0, "lines": []})
            d["kernels"] = d.get("kernels", 0) + 1
            d["replayable"] = d.get("replayable", 0) + (data is not None)
            d["record_bytes"] = d.get("record_bytes", 0) + (len(data) if data else 0)
        return {"packages": per, "seconds": round(self.seconds, 1)}

    @functools.cached_property
    def _by_kernel_key(self) -> dict[str, dict[str, tuple[dict[str, Any], bytes | None]]]:
        """`records` grouped by kernel key (without the Warp key): `keys.match` then reads one kernel's
        entries, not all of them (scanning all took 8.6 s for a default build's 5,755 rows)."""
        grouped: dict[str, dict[str, tuple[dict[str, Any], bytes | None]]] = {}
        for key, value in self.records.items():
            grouped.setdefault(key.rsplit("|", 1)[0], {})[key] = value
        return grouped

    def record_for(self, harvest_record: dict[str, Any]) -> tuple[dict[str, Any], bytes | None] | None:
        """The row's launch: (meta, record bytes), or (meta with the reason, None) where it cannot be replayed."""
        got = keys.match(self._by_kernel_key.get(keys.record_key(harvest_record), {}), harvest_record)
        if got is None or got[1] is None:
            return got
        meta = got[0]
        held = _uint64_argument(meta)
        used = plan.id_use(harvest_record.get("texts") or {}) if held else None
        if held and used:
            reason = f"argument {held!r}: uint64 the kernel uses as an id or an address ({used})"
            return {**meta, "replayable": False, "reason": reason}, None
        return got


def _uint64_argument(meta: dict[str, Any]) -> str | None:
    """The first parameter of a launch record that holds a uint64 (a value, an array, or a struct field)."""

    def holds(spec: dict[str, Any]) -> bool:
        if spec["t"] == "struct":
            return any(holds(field) for field in spec["fields"].values())
        value = spec.get("dtype", spec)
        return value.get("s") == "uint64"

    return next((name for name, spec in zip(meta["params"], meta["args"], strict=True) if holds(spec)), None)


def capture_packages(
    specs: Sequence[str],
    cache: Cache | str | os.PathLike[str] | None,
    workers: int = 2,
    time_limit: float = jobs_mod.DEFAULT_TIME_LIMIT_S,
    per_kernel: int = 2,
    budget_s: float | None = None,
    max_jobs: int | None = None,
    harvest_records: Iterable[dict[str, Any]] | None = None,
    select: Callable[[jobs_mod.Job], bool] | None = None,
    progress: Callable[[jobs_mod.JobResult, int, int], None] | None = None,
    executor: Executor | None = None,
) -> Captured:
    """Run the targets' examples and tests with the capture (each job cached); keep one record per kernel.

    Every job captures the kernels of all `specs` (a newton example launches warp's own kernels too).
    `max_jobs` keeps the first jobs of the planned order (`plan.order`): a fixed set, so a capture that
    finished them all reruns nothing; `budget_s` instead stops starting jobs after that long (the rest run
    next time). `harvest_records`: the harvest's records, whose count per file orders the jobs (without
    them the order is estimated from the job files' text).
    """
    started = time.monotonic()
    targets = [keys.resolve(s) for s in specs]
    all_jobs = [j for t in targets for j in jobs_mod.default_jobs(t, time_limit)]
    if select is not None:
        all_jobs = [j for j in all_jobs if select(j)]
    # Most kernels reached first: a capture cut by its budget keeps the jobs worth most.
    counts = None if harvest_records is None else plan.kernels_per_file(harvest_records, targets)
    all_jobs = plan.order(all_jobs, targets, counts)
    if max_jobs is not None:
        all_jobs = all_jobs[:max_jobs]
    results = jobs_mod.cached_capture(
        all_jobs, targets, cache, workers, per_kernel, budget_s, progress, executor=executor, expected_s=plan.cost
    )
    return Captured(jobs_mod.best_records(results), results, targets, time.monotonic() - started)
