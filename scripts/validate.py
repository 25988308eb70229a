#!/usr/bin/env python
"""Validate a dataset folder built by scripts/build.py: annotate every row in place.

    python scripts/validate.py dist/warp_cuda_ir [--arch 90] [--workers N]

Each row gets its CUDA compile (NVRTC, no GPU needed), CPU compile and launch with its seeded
inputs, output digest and trivial-output flag, gradient check, and GPU launch compared with the
CPU reference when a CUDA device is present. The Parquet files are replaced atomically at the
end and README.md is rendered again. Rerun the same command after an interruption to resume.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import positive_float, positive_int
from warp_cuda_ir.validation.runner import PassOptions


def add_pass_arguments(p: argparse.ArgumentParser) -> None:
    """The pass's options (shared with `scripts/build.py --validate`)."""
    from warp_cuda_ir.build import default_workers

    p.add_argument("--arch", type=positive_int, default=90, help="CUDA arch NVRTC compiles for (default: 90)")
    p.add_argument(
        "--workers", type=positive_int, default=default_workers(), help="worker processes (default: all cores)"
    )
    p.add_argument("--chunk-size", type=positive_int, default=16, help="rows per NVRTC batch (default: 16)")
    p.add_argument(
        "--row-timeout", type=positive_float, default=120.0, help="seconds one row may run before it is marked timeout"
    )
    p.add_argument("--no-gpu", action="store_true", help="skip GPU execution even when a CUDA device is present")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path, help="dataset folder written by scripts/build.py")
    add_pass_arguments(p)
    return p.parse_args(argv)


def options_from(args: argparse.Namespace) -> PassOptions:
    return PassOptions(
        arch=args.arch,
        workers=args.workers,
        chunk_size=args.chunk_size,
        row_timeout_s=args.row_timeout,
        use_gpu=not args.no_gpu,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from warp_cuda_ir.validation.console import validate_and_report

    return validate_and_report(args.dataset, options_from(args))


if __name__ == "__main__":
    sys.exit(main())
