#!/usr/bin/env python
"""Print the variety statistics of a built dataset folder (markdown, or JSON with --json).

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
    from warp_cuda_ir import stats

    try:
        text = stats.to_json(args.out) if args.json else stats.variety_markdown(args.out)
    except (OSError, ValueError, KeyError) as e:  # missing folder, no or unreadable Parquet
        return fail(str(e))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
