"""A whole build: shards until the size target, written by the builder as they finish; the card goes last.

`scripts/build.py` is the command line over `run_build`; tests call `run_build` directly.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import datasets
import pyarrow as pa
import warp as wp

import warp_cuda_ir
from warp_cuda_ir import card, destination, schema, writing
from warp_cuda_ir.engines import get_engine
from warp_cuda_ir.generation import BuildSpec, ShardCache, ShardFeed, ShardStats

DATASET_NAME = "warp_cuda_ir"


@dataclass
class BuildResult:
    out: Path | str  # the local folder, or the fsspec URL the files were copied to
    num_shards: int
    rows_per_split: dict[str, int]
    categories: dict[str, int]
    bytes: int
    failures: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    resumed: bool = False


def run_build(
    out: Path | str,
    spec: BuildSpec,
    target_mb: float,
    workers: int,
    overwrite: bool = False,
    max_shard_mb: int = 256,
    on_shard: Callable[[ShardStats], None] = lambda _: None,
    engine: str = "local",
    ray_address: str | None = None,
    staging: Path | None = None,
) -> BuildResult:
    """Build into `out`: a local folder, or an fsspec URL (built in `staging`, then copied).

    Everything that can refuse (the output, the engine) is checked before any shard is generated.
    """
    started = time.time()
    # The versions belong to the arguments: shards of another schema or Warp version must not be resumed.
    versions = {"schema": schema.SCHEMA_VERSION, "warp": wp.config.version}
    args = {"target_mb": target_mb, "max_shard_mb": max_shard_mb, "spec": spec.to_dict(), "versions": versions}
    url = str(out) if destination.is_url(out) else None
    if url:
        destination.check_writable(url, args, overwrite)
        out = staging or destination.default_staging(url)
    out = Path(str(out).removeprefix("file://"))
    run = get_engine(engine, workers, ray_address)  # before the folder is touched: Ray may refuse
    resumed = writing.prepare_output(out, args, overwrite or url is not None)
    work = out / writing.WORK_DIR
    cache_root = str(work / "shards")
    ShardCache(cache_root).remove_partial()
    shards = ShardFeed(spec, cache_root, run, workers, target_bytes=int(target_mb * 1e6), on_shard=on_shard)

    prepared = work / "prepared"
    # A killed run may leave a half-written `prepared` or, mid-write, datasets' `prepared.incomplete`
    # (which datasets would reuse and then move into place): neither may reach the output.
    for stale in (prepared, prepared.with_name(prepared.name + ".incomplete")):
        shutil.rmtree(stale, ignore_errors=True)
    builder = warp_cuda_ir.builder_class()(
        config_name="full", dataset_name=DATASET_NAME, cache_dir=str(work / "hf_cache"), shards=shards
    )
    datasets.disable_progress_bars()
    try:  # generation runs inside: the builder writes each shard's rows while later shards are made
        builder.download_and_prepare(
            output_dir=str(prepared), file_format="parquet", max_shard_size=max_shard_mb * 10**6
        )
    except datasets.exceptions.DatasetGenerationError as e:
        raise (e.__cause__ or e) from None  # datasets wraps what generation raised: pass on the cause
    num_shards = shards.num_shards
    assert num_shards is not None

    # Swap in the new files: card first out, card last in, so a crash never leaves a
    # README that describes files which are not there.
    previous = writing.read_manifest(out)
    (out / writing.CARD).unlink(missing_ok=True)
    for rel in previous.get("files", []) if previous else []:
        (out / rel).unlink(missing_ok=True)
    files = writing.publish_parquet(out, prepared, DATASET_NAME)
    shutil.rmtree(prepared, ignore_errors=True)
    cache = ShardCache(cache_root)
    failures = Counter(f["error"].split(":")[0] for f in cache.failures(range(num_shards)))
    manifest = {
        "args": args,
        "spec": spec.to_dict(),
        "num_shards": num_shards,
        "versions": {
            "warp": wp.config.version,
            "datasets": datasets.__version__,
            "pyarrow": pa.__version__,
            "python": sys.version.split()[0],
            "warp_cuda_ir": warp_cuda_ir.__version__,
        },
        "codegen_failures": dict(failures),
        "files": [*files, writing.CARD],
    }
    writing.write_manifest(out, manifest)
    writing.write_text_atomic(out / writing.CARD, card.render(out, manifest))
    stats = card.compute_stats(out)
    if url:
        destination.upload(out, url, manifest["files"])
        destination.remove_staging(out)
    return BuildResult(
        url or out,
        num_shards,
        stats["rows_per_split"],
        stats["categories"],
        stats["bytes"],
        failures,
        time.time() - started,
        resumed,
    )


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
