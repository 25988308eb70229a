"""Capture real launches of the default packages (their examples and tests on the CPU), then replay them.

    python benchmarks/capture.py --cache /tmp/cache                     # capture only
    python benchmarks/capture.py --cache /tmp/cache --harvest-cache H   # + share of harvest records
                                                                               #   with a replayable launch,
                                                                               #   replay fidelity
Per package: jobs by outcome (one line each that did not end cleanly), kernels with a record, replayable,
record bytes; with `--harvest-cache` (a cache folder for `harvest.cached_harvest`): harvest records, those with a
replayable launch, replay verdicts (replays run in executor workers on the CPU, as in the build), and wall times.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import tempfile
import time
from collections.abc import Collection, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from warp_cuda_ir.cache import Cache
from warp_cuda_ir.capture import Captured, capture_packages, jobs, keys, replays
from warp_cuda_ir.harvest import DEFAULT_PACKAGES, cached_harvest


def job_yield(results: list) -> dict:
    """Kernels with a replayable launch that each job added (in the planned order), per job-minute.

    `curve`: after each job, the job-seconds spent so far and the kernels with a replayable launch so far.
    """
    seen: set[str] = set()
    per_job, curve, spent = [], [], 0.0
    for r in results:
        new = {f"{m['kernel']}|{m['warp_key']}" for m, d in r.launches if d is not None} - seen
        seen |= new
        spent += r.seconds
        per_job.append(
            (r.job.name, r.status, round(r.seconds, 1), len(new), round(60 * len(new) / max(r.seconds, 1), 1))
        )
        curve.append((round(spent), len(seen)))
    ranked = sorted(per_job, key=lambda j: -j[4])
    return {
        "columns": ["job", "status", "seconds", "new replayable kernels", "per job-minute"],
        "best": ranked[:15],
        "worst": ranked[-15:],
        "curve": curve,
    }


def leave_one_out(results: list, records: list, verdicts: replays.ReplayCache, together: Sequence[str] = ()) -> dict:
    """Per job: real rows with an `equal` or `close` replay lost when that job alone is left out, and its seconds
    (how `jobs.LOW_YIELD_JOBS` was chosen); and those lost when the jobs named in `together` are all left out
    (jobs reaching the same kernels lose nothing alone). A row takes the first replayable record in the jobs'
    order, as in the build; a record that then decides a row but was never replayed counts as `unknown`."""
    verdict: dict[tuple[int, bytes], str] = {}

    def judged(i: int, data: bytes) -> str:
        key = (i, hashlib.sha256(data).digest())
        if key not in verdict:
            got = verdicts.get(records[i]["source"], records[i]["kernel_name"], data)
            verdict[key] = "unknown" if got is None else ("good" if got.verdict in ("equal", "close") else "bad")
        return verdict[key]

    per_job = []  # per job: row index -> its replayable record (matched once per job: matching is slow)
    for r in results:
        best = jobs.best_records([r])
        per_job.append({i: got[1] for i, rec in enumerate(records) if (got := keys.match(best, rec)) and got[1]})

    def outcome(left_out: Collection[int]) -> tuple[set[int], int]:
        first: dict[int, bytes] = {}
        for k, found in enumerate(per_job):
            if k not in left_out:
                for i, data in found.items():
                    first.setdefault(i, data)
        states = {i: judged(i, data) for i, data in first.items()}
        return {i for i, v in states.items() if v == "good"}, sum(v == "unknown" for v in states.values())

    everything, _ = outcome(())
    rows = []
    for k, r in enumerate(results):
        kept, unknown = outcome((k,))
        # On an idle machine a job costs its CPU time, or its whole limit when it was cut there.
        cpu = getattr(r, "cpu_seconds", float("nan"))
        idle = r.job.time_limit if r.status == "timeout" else cpu
        rows.append(
            (r.job.name, r.status, round(r.seconds, 1), round(cpu, 1), round(idle, 1), len(everything - kept), unknown)
        )
    named = [k for k, r in enumerate(results) if r.job.name in together]
    kept, unknown = outcome(named)
    idle = sum(results[k].job.time_limit if results[k].status == "timeout" else results[k].cpu_seconds for k in named)
    return {
        "together": {
            "jobs": len(named),
            "idle_seconds": round(idle, 1),
            "lost": len(everything - kept),
            "unknown": unknown,
        },
        "columns": ["job", "status", "seconds", "CPU-s", "idle seconds", "equal rows lost without it", "unknown"],
        "equal_rows": len(everything),
        # per idle second (wall seconds for results cached without their CPU time)
        "jobs": sorted(rows, key=lambda row: row[5] / max(row[2] if math.isnan(row[4]) else row[4], 1.0)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real", default=",".join(DEFAULT_PACKAGES), help="packages or folders, comma-separated")
    parser.add_argument(
        "--cache",
        type=Path,
        required=True,
        nargs="+",
        help="cache folder (a machine cache: capture/ has one entry per job); with --read-only several",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=90.0, help="seconds per script")
    parser.add_argument("--budget", type=float, default=None, help="stop starting jobs after this many seconds")
    parser.add_argument("--max-jobs", type=int, default=None, help="only the first N jobs of the planned order")
    parser.add_argument("--harvest-cache", type=Path, help="harvest cache: measure coverage and replay fidelity")
    parser.add_argument(
        "--replay-sample",
        type=int,
        default=None,
        help="replay at most this many records per package (a fixed sample: by key hash)",
    )
    parser.add_argument("--replay-cache", type=Path, help="cache replay verdicts here (reruns replay only new records)")
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="run nothing: measure every job already in --cache (whatever its job list)",
    )
    parser.add_argument(
        "--leave-one-out",
        action="store_true",
        help="with --harvest-cache: the equal rows each job adds that no other job does, per second",
    )
    parser.add_argument("--leave-out", default="", help="with --leave-one-out: jobs also left out together")
    parser.add_argument("--measure", help="packages to measure against the harvest (default: all of --real)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    specs = [s for s in args.real.split(",") if s]

    def progress(result, done, total) -> None:
        print(
            f"[{done}/{total}] {result.job.name}: {result.status} {result.seconds:.0f} s, "
            f"{len(result.launches)} launches; {result.detail}",
            flush=True,
        )

    harvested = None
    if args.harvest_cache:
        # First: its records per file order the capture's jobs (`capture.plan`), as in the build.
        measured = [s for s in (args.measure or args.real).split(",") if s]
        harvested = cached_harvest(measured, args.harvest_cache, workers=args.workers)
    started = time.monotonic()
    if args.read_only:
        results = [r for c in args.cache for r in Cache(c).values(jobs.NAMESPACE)]
        captured = Captured(jobs.best_records(results), results, [], 0.0)
    else:
        captured = capture_packages(
            specs,
            args.cache[0],
            workers=args.workers,
            time_limit=args.time_limit,
            budget_s=args.budget,
            max_jobs=args.max_jobs,
            harvest_records=None if harvested is None else harvested["records"],
            progress=progress,
        )
    figures = {
        "capture": captured.summary(),
        "capture_wall_s": round(time.monotonic() - started, 1),
        "yield": job_yield(captured.results),
    }
    print(json.dumps(figures["capture"], indent=1)[:20000])
    if harvested is not None:
        per: dict[str, dict] = {}
        replay_cache = args.replay_cache or Path(tempfile.mkdtemp(prefix="capture_bench_replays_"))
        verdicts = replays.ReplayCache(replay_cache)
        replay_started = time.monotonic()
        ordered = sorted(harvested["records"], key=lambda r: hashlib.sha256(keys.record_key(r).encode()).digest())
        sample: list[tuple[dict, dict, bytes]] = []
        for record in ordered:
            d = per.setdefault(
                record["package"],
                {
                    "records": 0,
                    "with_launch": 0,
                    "replayable": 0,
                    "verdicts": {},
                    "bytes": 0,
                    "max_bytes": 0,
                    "differs": [],
                    "not_replayable": {},
                },
            )
            d["records"] += 1
            got = captured.record_for(record)
            if got is None:
                continue
            d["with_launch"] += 1
            meta, data = got
            if data is None:
                why = meta.get("reason", "").split(": ", 1)[-1].split(" (")[0]
                d["not_replayable"][why] = d["not_replayable"].get(why, 0) + 1
                continue
            d["replayable"] += 1
            d["bytes"] += len(data)
            d["max_bytes"] = max(d["max_bytes"], len(data))
            d["sampled"] = d.get("sampled", 0) + 1
            if args.replay_sample is None or d["sampled"] <= args.replay_sample:
                sample.append((record, meta, data))
        # As the build does: in executor workers, so a replay that crashes or hangs costs only its own verdict.
        items = [(r["source"], r["kernel_name"], data) for r, _, data in sample]
        replays.replay_all(items, verdicts, workers=args.workers)
        for (record, meta, _), item in zip(sample, items, strict=True):
            d = per[record["package"]]
            fidelity = verdicts.verdict(*item)
            d["verdicts"][fidelity.verdict] = d["verdicts"].get(fidelity.verdict, 0) + 1
            if fidelity.verdict == "differs" and not meta.get("changed"):
                # The launch changed nothing when captured: the signature of a launch deferred by a CPU graph
                # capture (recorded before ef6de48 skipped those).
                d["differs_nothing_changed"] = d.get("differs_nothing_changed", 0) + 1
            if fidelity.verdict in ("differs", "error"):
                d["differs"].append(f"{keys.record_key(record)}: {fidelity.verdict}: {fidelity.detail}"[:300])
        for d in per.values():
            d.pop("sampled", None)
        figures["replay"] = per
        figures["replay_wall_s"] = round(time.monotonic() - replay_started, 1)
        if args.leave_one_out:
            figures["leave_one_out"] = leave_one_out(
                captured.results, ordered, verdicts, [n for n in args.leave_out.split(",") if n]
            )
            print(json.dumps(figures["leave_one_out"], indent=1)[:20000])
        print(json.dumps(per, indent=1)[:20000])
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
