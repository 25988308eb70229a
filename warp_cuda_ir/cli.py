"""What the command lines share: argument types that reject bad values, the validation pass's options,
and one-line failures. Imported by `scripts/` only; library modules raise `errors.WarpCudaIRError`.

Kept light: the scripts parse their arguments (and answer `--help`) before Warp or `datasets` load.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warp_cuda_ir.validation.runner import PassOptions


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def default_workers() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def add_engine_arguments(p: argparse._ActionsContainer) -> None:
    """`--engine` and `--ray-address`: where the work fans out (`engines.get_executor`)."""
    from warp_cuda_ir.engines import ENGINES

    p.add_argument(
        "--engine", choices=ENGINES, default="local", help="local processes or a Ray cluster (default: local)"
    )
    p.add_argument(
        "--ray-address",
        default=None,
        help="Ray cluster to join (host:port, ray://host:port or auto); default: start Ray on this machine",
    )


def add_cache_arguments(p: argparse._ActionsContainer) -> None:
    p.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="the machine cache of harvests, capture jobs, replay verdicts, compiled kernels and validation "
        "annotations, reused by every build and pass (default: $WARP_CUDA_IR_CACHE, else "
        "$XDG_CACHE_HOME/warp_cuda_ir, else ~/.cache/warp_cuda_ir)",
    )
    p.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the machine cache (everything is recomputed)"
    )


def add_validation_arguments(p: argparse._ActionsContainer, with_workers: bool = True) -> None:
    """The validation pass's options: `scripts/validate.py` and `scripts/build.py --validate` share them.

    `with_workers=False` for a parser that already has `--workers`, `--engine` and `--ray-address` (the
    build's, which the pass then uses).
    """
    p.add_argument("--arch", type=positive_int, default=90, help="CUDA arch NVRTC compiles for (default: 90)")
    if with_workers:
        p.add_argument(
            "--workers", type=positive_int, default=default_workers(), help="worker processes (default: all cores)"
        )
        add_engine_arguments(p)
    p.add_argument(
        "--chunk-size",
        type=positive_int,
        default=32,
        help="rows per batch: one NVRTC module, one Clang, nvcc and g++ translation unit (default: 32)",
    )
    p.add_argument(
        "--stage-timeout",
        "--row-timeout",
        dest="stage_timeout",
        type=positive_float,
        default=120.0,
        help="seconds each stage of a row (CPU compile, CPU run, GPU run, gradient check) may run before it is "
        "marked timeout (default: 120)",
    )
    p.add_argument("--no-gpu", action="store_true", help="skip GPU execution even when a CUDA device is present")
    p.add_argument(
        "--no-standalone",
        action="store_true",
        help="skip the standalone programs stage (nvcc / g++ compile of each row's programs, CPU twin run)",
    )


def validation_options(args: argparse.Namespace) -> PassOptions:
    from warp_cuda_ir.validation.runner import PassOptions

    return PassOptions(
        arch=args.arch,
        workers=args.workers,
        chunk_size=args.chunk_size,
        stage_timeout_s=args.stage_timeout,
        engine=args.engine,
        ray_address=args.ray_address,
        use_gpu=not args.no_gpu,
        standalone=not args.no_standalone,
        cache_dir=str(args.cache_dir) if getattr(args, "cache_dir", None) else None,
        no_cache=getattr(args, "no_cache", False),
    )


def fail(message: str, code: int = 2) -> int:
    """Print `error: <message>` (one line) to stderr; the exit code."""
    print(f"error: {message}", file=sys.stderr)
    return code
