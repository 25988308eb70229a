"""A whole build: shards until the size target, written by the builder as they finish; the card goes last.

`scripts/build.py` is the command line over `run_build`; tests call `run_build` directly.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import datasets
import pyarrow as pa

import warp_cuda_ir
from warp_cuda_ir import card, destination, writing
from warp_cuda_ir.engines import get_engine
from warp_cuda_ir.feed import ShardFeed
from warp_cuda_ir.readback import read_back
from warp_cuda_ir.record import BuildOptions, BuildRecord, owned_paths
from warp_cuda_ir.shards import ShardCache, ShardStats

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


def run_build(options: BuildOptions, on_shard: Callable[[ShardStats], None] = lambda _: None) -> BuildResult:
    """Build into `options.out`: a local folder, or an fsspec URL (built in a staging folder, then copied).

    Everything that can refuse (the output, the engine) is checked before any shard is generated.
    """
    started = time.time()
    identity = options.identity()
    url = str(options.out) if destination.is_url(options.out) else None
    if url:
        destination.check_writable(url, identity, options.overwrite)
        out = Path(options.staging or destination.default_staging(url))
    else:
        out = Path(str(options.out).removeprefix("file://"))
    run = get_engine(options.engine, options.workers, options.ray_address)  # before the folder is touched
    previous = BuildRecord.load(out)
    resumed = writing.prepare_output(out, identity, owned_paths(previous), options.overwrite or url is not None)
    work = out / writing.WORK_DIR
    cache_root = str(work / "shards")
    ShardCache(cache_root).remove_partial()
    target_bytes = int(options.target_mb * 1e6)
    shards = ShardFeed(options.spec, cache_root, run, options.workers, target_bytes=target_bytes, on_shard=on_shard)

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
            output_dir=str(prepared), file_format="parquet", max_shard_size=options.max_shard_mb * 10**6
        )
    except datasets.exceptions.DatasetGenerationError as e:
        raise (e.__cause__ or e) from None  # datasets wraps what generation raised: pass on the cause
    num_shards = shards.num_shards
    assert num_shards is not None

    # Swap in the new files: card first out, card last in, so a crash never leaves a
    # README that describes files which are not there.
    (out / writing.CARD).unlink(missing_ok=True)
    for rel in previous.files if previous else ():
        (out / rel).unlink(missing_ok=True)
    files = writing.publish_parquet(out, prepared, DATASET_NAME)
    shutil.rmtree(prepared, ignore_errors=True)
    failures = Counter(f["error"].split(":")[0] for f in ShardCache(cache_root).failures(range(num_shards)))
    record = BuildRecord(
        identity=identity,
        num_shards=num_shards,
        versions={
            "datasets": datasets.__version__,
            "pyarrow": pa.__version__,
            "python": sys.version.split()[0],
            "warp_cuda_ir": warp_cuda_ir.__version__,
        },
        codegen_failures=dict(failures),
        files=(*files, writing.CARD),
    )
    record.save(out)
    readback = read_back(out)
    writing.write_text_atomic(out / writing.CARD, card.render(record, readback))
    if url:
        destination.upload(out, url, list(record.files))
        destination.remove_staging(out)
    return BuildResult(
        url or out,
        num_shards,
        readback.rows_per_split,
        dict(sorted(readback.categories.items())),
        readback.bytes,
        failures,
        time.time() - started,
        resumed,
    )
