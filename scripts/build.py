#!/usr/bin/env python
"""Build the warp_cuda_ir dataset folder: Parquet shards + README card with configs.

    python scripts/build.py --target-mb 200 --out dist/warp_cuda_ir
    python scripts/build.py --engine ray --ray-address HEAD:6379 --out s3://bucket/warp_cuda_ir

Rerun the same command after an interruption to resume; finished shards are kept.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import (
    add_cache_arguments,
    add_engine_arguments,
    add_validation_arguments,
    default_workers,
    fail,
    positive_float,
    positive_int,
)


def _real_targets(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if names in ((), ("none",)):
        return ()
    if "none" in names:
        raise argparse.ArgumentTypeError("'none' cannot be combined with other targets")
    return names


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from warp_cuda_ir.capture import DEFAULT_CAPTURE_JOBS
    from warp_cuda_ir.harvest import DEFAULT_PACKAGES
    from warp_cuda_ir.shards import BuildSpec

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--target-mb", type=positive_float, default=200.0, help="stop when the Parquet reaches this size (default: 200)"
    )
    p.add_argument(
        "--out",
        default="dist/warp_cuda_ir",
        help="dataset folder, or an fsspec URL such as s3://bucket/prefix (default: dist/warp_cuda_ir)",
    )
    p.add_argument(
        "--real",
        type=_real_targets,
        default=",".join(DEFAULT_PACKAGES),
        metavar="PKG_OR_FOLDER[,...]",
        help="installed packages or folders of Warp code whose kernels become real rows, in full (harvesting "
        f"imports, i.e. runs, their code); 'none' for generated rows only (default: {','.join(DEFAULT_PACKAGES)})",
    )
    p.add_argument(
        "--capture",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="record real launches of the real rows' kernels by running their packages' own examples and tests "
        "on the CPU (runs their code; about 30 min on 2 cores for the default packages, cached per script in "
        "the machine cache and not rerun), then replay them in worker processes, so replayable real rows are "
        "validated like generated ones (default: on; --no-capture leaves real rows compile-only; nothing to "
        "capture with --real none)",
    )
    add_cache_arguments(p)
    p.add_argument(
        "--capture-jobs",
        type=positive_int,
        default=DEFAULT_CAPTURE_JOBS,
        help="how many of the capture's examples and tests to run, most kernels reached first "
        f"(default: {DEFAULT_CAPTURE_JOBS})",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed; shards cover consecutive seeds (default: 0)")
    p.add_argument(
        "--workers", type=positive_int, default=default_workers(), help="worker processes (default: all cores)"
    )
    p.add_argument(
        "--categories",
        type=lambda s: [c.strip() for c in s.split(",") if c.strip()],
        default=None,
        help="comma-separated generator categories (default: all)",
    )
    default_shard = BuildSpec().seeds_per_shard
    p.add_argument(
        "--seeds-per-shard",
        type=positive_int,
        default=default_shard,
        help=f"seeds per work shard: the unit of work, resume and size target (default: {default_shard})",
    )
    p.add_argument(
        "--max-shard-mb",
        type=positive_int,
        default=256,
        help="largest Parquet file written, uncompressed MB (default: 256)",
    )
    add_engine_arguments(p)
    p.add_argument(
        "--staging",
        type=Path,
        default=None,
        help="local folder a URL --out is built in before the copy (default: under ~/.cache/warp_cuda_ir)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an earlier build in --out (files this tool did not write are kept)",
    )
    p.add_argument(
        "--push-to-hub",
        metavar="ORG/NAME",
        default=None,
        help="after a successful build, publish the folder to this Hub dataset repo (see scripts/push_to_hub.py)",
    )
    p.add_argument(
        "--validate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="then run the validation pass (scripts/validate.py) with the options below, --workers and --engine, "
        "so the folder ships annotated rows (default: on; --no-validate builds only, a URL --out is never validated)",
    )
    group = p.add_argument_group("validation pass; --arch is also the arch code is generated for")
    add_validation_arguments(group, with_workers=False)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from warp_cuda_ir.errors import WarpCudaIRError

    bars: list[Any] = []  # made at the first finished shard, so a refusal prints nothing else
    try:
        return _build(args, bars)
    except WarpCudaIRError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return fail("interrupted; run the same command again to resume", code=130)
    finally:
        for bar in bars:
            bar.close()


def _build(args: argparse.Namespace, bars: list[Any]) -> int:
    from tqdm import tqdm

    from warp_cuda_ir import hub
    from warp_cuda_ir.build import run_build
    from warp_cuda_ir.destination import is_url
    from warp_cuda_ir.errors import PublishError
    from warp_cuda_ir.record import BuildOptions
    from warp_cuda_ir.shards import BuildSpec, ShardStats
    from warp_cuda_ir.synthesis import check_categories

    if args.ray_address and args.engine != "ray":
        return fail("--ray-address needs --engine ray")
    if args.push_to_hub and is_url(args.out):
        return fail("--push-to-hub works on a local --out folder, not a URL")
    if args.validate and is_url(args.out):
        return fail("--validate works on a local --out folder, not a URL")
    if args.validate is None:  # on by default where it can run: the pass rewrites a local folder's files
        args.validate = not is_url(args.out)
    categories = check_categories(args.categories)
    if args.push_to_hub:  # refuse a bad repo id or a missing token before a long build, not after
        hub.check_repo_id(args.push_to_hub)
        hub.require_token()
    spec = BuildSpec(seed=args.seed, categories=categories, seeds_per_shard=args.seeds_per_shard, arch=args.arch)

    def on_shard(stats: ShardStats) -> None:
        # Its own bar, made at the first shard: the harvest's and capture's bars come before it in `bars`.
        bar = generating_bar.get("bar")
        if bar is None:
            fmt = "{l_bar}{bar}| {n:.1f}/{total} MB [{elapsed}<{remaining}]"
            bar = generating_bar["bar"] = tqdm(
                total=round(args.target_mb, 1), unit="MB", desc="generating", bar_format=fmt
            )
            bars.append(bar)
        bar.update(min(stats.nbytes / 1e6, bar.total - bar.n))
        bar.set_postfix(rows=stats.rows, refresh=False)

    generating_bar: dict[str, Any] = {}

    def on_harvest(target: str, done: int, total: int) -> None:
        bar = harvest_bars.get(target)
        if bar is None:
            bar = harvest_bars[target] = tqdm(total=total, unit="file", desc=f"harvesting {target}")
            bars.append(bar)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    harvest_bars: dict[str, Any] = {}

    def on_capture(stage: str, job: str, done: int, total: int) -> None:
        # Jobs (or replays) already in the cache count as done before the first one finishes here.
        bar = capture_bars.get(stage)
        if bar is None:
            desc = {
                "capture": "capturing launches",
                "compile": "compiling replayed kernels",
                "replay": "replaying launches",
                "rows": "making real rows",
            }[stage]
            unit = {"capture": "job", "compile": "chunk", "replay": "launch", "rows": "row"}[stage]
            bar = capture_bars[stage] = tqdm(total=total, initial=done - 1, unit=unit, desc=desc)
            bars.append(bar)
        bar.update(done - bar.n)
        if job:
            bar.set_postfix_str(job.rsplit("/", 1)[-1], refresh=False)

    capture_bars: dict[str, Any] = {}
    options = BuildOptions(
        out=args.out,
        spec=spec,
        target_mb=args.target_mb,
        workers=args.workers,
        overwrite=args.overwrite,
        max_shard_mb=args.max_shard_mb,
        engine=args.engine,
        ray_address=args.ray_address,
        staging=args.staging,
        real=args.real,
        capture=args.capture,
        capture_jobs=args.capture_jobs,
        cache_dir=args.cache_dir,
        no_cache=args.no_cache,
    )
    result = run_build(
        options, on_shard, on_harvest, lambda line: print(f"warning: {line}", file=sys.stderr), on_capture
    )
    for bar in bars:
        bar.close()

    rows, mb = sum(result.rows_per_split.values()), result.bytes / 1e6
    resumed = " (resumed)" if result.resumed else ""
    print(f"wrote {args.out}: {rows:,} rows, {mb:.1f} MB in {result.num_shards} shards{resumed}")
    print("  splits:     " + ", ".join(f"{s} {n:,}" for s, n in result.rows_per_split.items()))
    print("  categories: " + ", ".join(f"{c} {n:,}" for c, n in result.categories.items()))
    if result.real is not None:
        real = result.real
        per_package = ", ".join(f"{p.package} {p.rows:,}" for p in real.packages)
        print(f'  real rows:  {real.rows:,} ({per_package}); load them: load_dataset("{args.out}", "real")')
        skipped = sum(v["count"] for v in real.reasons.values())
        if skipped:
            print(f"  harvest:    {skipped:,} kernels or files left out, with reasons, in build.json")
    for split in [s for s, n in result.rows_per_split.items() if not n]:
        print(f"  note: split {split!r} has no rows at this size; it is left out (raise --target-mb)")
    if result.failures:
        print("  skipped (codegen failed): " + ", ".join(f"{why} x{n}" for why, n in result.failures.items()))
    print(f"  {result.seconds:.1f} s: {rows / result.seconds:.1f} rows/s, {mb / result.seconds * 60:.1f} MB/min")
    print(f'  load it: datasets.load_dataset("{args.out}", "cuda_forward")')
    if args.validate:  # before a push: the Hub copy carries the annotations
        from warp_cuda_ir.cli import validation_options
        from warp_cuda_ir.validation.console import validate_and_report

        validate_and_report(Path(args.out), validation_options(args))
    if args.push_to_hub:
        try:
            hub.publish(Path(args.out), args.push_to_hub)
        except PublishError as e:
            return fail(f"{e} (the build itself is complete in {args.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
