#!/usr/bin/env python
"""Publish a built dataset folder to the Hugging Face Hub in one commit.

    python scripts/push_to_hub.py dist/warp_cuda_ir --repo my-org/warp_cuda_ir --dry-run
    python scripts/push_to_hub.py dist/warp_cuda_ir --repo my-org/warp_cuda_ir

The folder must load with every config and its card must match its files; then README.md, build.json
and data/ go up as a single commit (the repo is created if needed). The token comes from HF_TOKEN or
the saved login (`hf auth login`); it is never printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import fail


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", type=Path, help="dataset folder written by scripts/build.py")
    p.add_argument("--repo", required=True, metavar="ORG/NAME", help="dataset repo on the Hub")
    p.add_argument("--private", action="store_true", help="create the repo private (an existing repo keeps its own)")
    p.add_argument("--revision", default=None, help="branch to commit to (created if needed; default: main)")
    p.add_argument("--commit-message", default=None, help="commit message (default: the row count)")
    p.add_argument("--dry-run", action="store_true", help="check and list what would be uploaded; change nothing")
    return p.parse_args(argv)


def main(argv: list[str] | None = None, api: object | None = None) -> int:
    """`api`: a Hub client (tests pass a recorder); by default an `HfApi` with the user's token."""
    args = parse_args(argv)

    from warp_cuda_ir import hub
    from warp_cuda_ir.errors import WarpCudaIRError

    try:
        hub.publish(
            args.folder,
            args.repo,
            private=args.private,
            revision=args.revision,
            commit_message=args.commit_message,
            dry_run=args.dry_run,
            api=api,  # type: ignore[arg-type]
        )
    except WarpCudaIRError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return fail(
            "interrupted: no partial commit was made (the upload is a single commit); run the command again", 130
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
