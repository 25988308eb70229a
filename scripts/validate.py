#!/usr/bin/env python
"""Validate a dataset folder built by scripts/build.py: annotate every row in place.

    python scripts/validate.py dist/warp_cuda_ir [--arch 90] [--workers N]
    python scripts/validate.py dist/warp_cuda_ir --engine ray [--ray-address HOST:6379]

Each row gets its CUDA compile (NVRTC, no GPU needed), CPU compile and launch with its seeded
inputs, output digest and output statistics (degenerate outputs), gradient check, and GPU launch
compared with the CPU reference when a CUDA device is present; each stage its own status, error
and skip reason. The Parquet files are replaced atomically at the
end and README.md is rendered again. Rerun the same command after an interruption to resume.
`scripts/build.py` runs the same pass with the same options after a build (unless --no-validate). The stages
are `schema.PASS`; batches of rows run on the executor (`--engine local` processes or a Ray cluster), and
a rerun resumes with either engine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import add_cache_arguments, add_validation_arguments, fail, validation_options


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path, help="dataset folder written by scripts/build.py")
    add_validation_arguments(p)
    add_cache_arguments(p)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from warp_cuda_ir.errors import WarpCudaIRError
    from warp_cuda_ir.validation.console import validate_and_report

    try:
        validate_and_report(args.dataset, validation_options(args))
    except WarpCudaIRError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return fail("interrupted; run the same command again to resume", code=130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
