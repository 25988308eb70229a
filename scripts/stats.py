#!/usr/bin/env python
"""Print the statistics of a built dataset folder: rows, variety, validation counts (markdown, or --json).

python scripts/stats.py dist/warp_cuda_ir
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import fail


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, help="dataset folder (holds data/*.parquet)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    from warp_cuda_ir.card import meaning_markdown, validation_markdown, variety_markdown
    from warp_cuda_ir.errors import WarpCudaIRError
    from warp_cuda_ir.readback import read_back

    try:
        readback = read_back(args.out)
    except WarpCudaIRError as e:
        return fail(str(e))
    if not readback.num_rows:
        return fail(f"no rows in the Parquet files under {args.out / 'data'}")
    markdown = "\n".join([variety_markdown(readback), validation_markdown(readback), meaning_markdown(readback)])
    print(readback.to_json() if args.json else markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
