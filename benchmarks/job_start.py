"""Capture jobs forked from the fork server against jobs in fresh interpreters: CPU seconds per job, and
whether both record launches of the same kernels.

    python benchmarks/job_start.py [--jobs NAME,NAME,...] [--rounds 2]

The jobs run one at a time in this process (as an executor worker runs them), each in both ways per round,
in one Warp kernel cache warmed by a first pass, so neither way pays for a compile the other made. A job's
CPU seconds are those of its process and the processes it waited for; a fork server's own CPU time (its
imports, once per worker and backward setting) is printed apart. Launch records are compared by kernel:
several of these tests draw unseeded inputs, so their record bytes differ between any two runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from warp_cuda_ir.capture import forkserver, jobs, keys
from warp_cuda_ir.harvest import DEFAULT_PACKAGES

# Short jobs of the default capture from each package (newton and mujoco_warp ones forward-only), where the
# start of a process weighs most.
DEFAULT_JOBS = (
    "newton/tests/test_mesh_validation.py",
    "newton/tests/test_sensor_frame_transform.py",
    "newton/tests/test_hydroelastic.py",
    "newton/tests/test_sensor_to_rgba.py",
    "mujoco_warp/_src/history_test.py",
    "warp/tests/test_fp16.py",
    "warp/tests/test_bf16.py",
    "warp/tests/test_copy.py",
    "warp/tests/test_launch.py",
)


def kernels(result: jobs.JobResult) -> list[tuple[str, str]]:
    return sorted((meta["kernel"], meta["warp_key"]) for meta, _ in result.launches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", default=",".join(DEFAULT_JOBS), help="job names, comma-separated")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    targets = [keys.resolve(spec) for spec in DEFAULT_PACKAGES]
    wanted = args.jobs.split(",")
    every = {job.name: job for t in targets for job in jobs.default_jobs(t, jobs.DEFAULT_TIME_LIMIT_S)}
    missing = [name for name in wanted if name not in every]
    if missing:
        sys.exit(f"error: not a job of the default packages: {missing[0]}")
    selected = [every[name] for name in wanted]
    kernel_cache = tempfile.mkdtemp(prefix="warp_cuda_ir_job_start_")
    for job in selected:  # the warm-up: every module these jobs load compiled once
        jobs.run_job(job, targets, kernel_cache=kernel_cache, fork=False)
    cpu: dict[str, dict[str, list[float]]] = {job.name: {"fresh": [], "forked": []} for job in selected}
    same: dict[str, bool] = {job.name: True for job in selected}
    for _ in range(args.rounds):
        for job in selected:
            seen = []
            for way, fork in (("fresh", False), ("forked", True)):
                result = jobs.run_job(job, targets, kernel_cache=kernel_cache, fork=fork)
                cpu[job.name][way].append(result.cpu_seconds)
                seen.append(kernels(result))
            same[job.name] &= seen[0] == seen[1]
    print(f"{'job':48} {'fresh CPU-s':>12} {'forked CPU-s':>13}  same kernels")
    totals = {"fresh": 0.0, "forked": 0.0}
    for job in selected:
        row = {way: min(values) for way, values in cpu[job.name].items()}
        for way in totals:
            totals[way] += row[way]
        print(f"{job.name:48} {row['fresh']:12.2f} {row['forked']:13.2f}  {same[job.name]}")
    print(f"{'total (least of the rounds)':48} {totals['fresh']:12.2f} {totals['forked']:13.2f}")
    for server in jobs._servers.values():
        print(f"a fork server's own CPU (its imports, once per worker and backward setting): {own_cpu(server):.2f} s")


def own_cpu(server: forkserver.ForkServer) -> float:
    """CPU seconds of the server process itself (not of the jobs it forked and waited for)."""
    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
