"""Capture: real launches of harvested kernels, recorded while their packages' own programs run.

    from warp_cuda_ir.capture import capture_packages, replay
    captured = capture_packages(["newton", "mujoco_warp", "warp"], Cache.from_options(), workers=2)
    captured.records[key]          # (meta, npz bytes or None) per kernel key (`keys.record_key(harvest record)`)
    replay.replay(source, kernel_name, data)   # -> Fidelity(verdict, detail)

Stages: `keys` (the harvest's kernel identity), `record` (argument values -> self-describing `.npz`
bytes), `hook` (the wrap around Warp's launch, inside the running program), `child` (one job's process),
`forkserver` (jobs forked from a process that imported the packages once), `jobs` (which examples and tests,
run under time limits, cached per job), `plan` (which jobs first), `replay` (record -> launch -> fidelity
verdict), `replays` (verdicts for a build: cached, computed in executor workers under a time limit),
`columns` (a real row's capture columns). Capturing runs the packages' examples and tests, i.e. their code.
"""

from __future__ import annotations

from warp_cuda_ir.capture import jobs, keys, plan, record, replay, replays
from warp_cuda_ir.capture.pipeline import DEFAULT_CAPTURE_JOBS, Captured, capture_packages

__all__ = [
    "DEFAULT_CAPTURE_JOBS",
    "Captured",
    "capture_packages",
    "jobs",
    "keys",
    "plan",
    "record",
    "replay",
    "replays",
]
