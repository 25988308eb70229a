"""Sharded generation: one shard = a pure function of (BuildSpec, shard index).

Determinism, resume, parallelism and the Ray engine all follow from that: a shard's
Parquet file is written once, atomically, and a finished shard is never recomputed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import extraction, rows, schema
from warp_cuda_ir.synthesis import CATEGORIES, GENERATOR_VERSION

FAILURE_SCHEMA = pa.schema([("seed", pa.int64()), ("error", pa.string())])


@dataclass(frozen=True)
class BuildSpec:
    """Everything that decides which rows a build contains (and nothing that does not)."""

    seed: int = 0
    categories: tuple[str, ...] = CATEGORIES
    seeds_per_shard: int = 256
    arch: int = extraction.DEFAULT_CUDA_ARCH

    def shard_seeds(self, index: int) -> range:
        start = self.seed + index * self.seeds_per_shard
        return range(start, start + self.seeds_per_shard)

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "categories": list(self.categories), "generator": GENERATOR_VERSION}

    def fingerprint(self) -> str:
        """Identifies the rows this spec yields; shard caches of other specs are not reused."""
        import warp as wp

        blob = json.dumps(
            {**self.to_dict(), "warp": wp.config.version, "schema": schema.SCHEMA_VERSION}, sort_keys=True
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass
class ShardStats:
    index: int
    rows: int
    failures: int
    nbytes: int  # size of the shard's Parquet file
    categories: Counter[str] = field(default_factory=Counter)


def generate_shard(spec: BuildSpec, index: int) -> tuple[pa.Table, pa.Table]:
    """(rows, failures) of one shard. Rows repeating an earlier program in the shard are dropped."""
    made: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    seen: set[str] = set()
    for seed in spec.shard_seeds(index):
        try:
            row = rows.make_row(seed, spec.categories, spec.arch)
        except extraction.ExtractionError as e:
            failures.append({"seed": seed, "error": str(e)})
            continue
        if row["id"] not in seen:
            seen.add(row["id"])
            made.append(row)
    table = pa.Table.from_pylist(made, schema=schema.FEATURES.arrow_schema)
    return table, pa.Table.from_pylist(failures, schema=FAILURE_SCHEMA)


class ShardCache:
    """A folder of finished shards: `shard-NNNNN.parquet` plus `shard-NNNNN.failures.parquet`."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def path(self, index: int) -> Path:
        return self.root / f"shard-{index:05d}.parquet"

    def failures_path(self, index: int) -> Path:
        return self.root / f"shard-{index:05d}.failures.parquet"

    def has(self, index: int) -> bool:
        # The rows file is renamed into place last, so its presence means the shard is complete.
        return self.path(index).exists()

    def remove_partial(self) -> None:
        """Delete half-written files a killed run left (harmless: only renamed files count)."""
        for tmp in self.root.glob(".shard-*.tmp"):
            tmp.unlink(missing_ok=True)

    def write(self, index: int, table: pa.Table, failures: pa.Table) -> ShardStats:
        self.root.mkdir(parents=True, exist_ok=True)
        _atomic_write_parquet(failures, self.failures_path(index))
        _atomic_write_parquet(table, self.path(index))
        return self.stats(index)

    def stats(self, index: int) -> ShardStats:
        cats = pq.read_table(self.path(index), columns=["category"]).column("category").to_pylist()
        failures = pq.read_metadata(self.failures_path(index)).num_rows
        return ShardStats(index, len(cats), failures, self.path(index).stat().st_size, Counter(cats))

    def read(self, index: int, columns: list[str] | None = None) -> pa.Table:
        return pq.read_table(self.path(index), columns=columns)

    def failures(self, indices: range) -> Iterator[dict[str, Any]]:
        for i in indices:
            yield from pq.read_table(self.failures_path(i)).to_pylist()


def run_shard(spec: BuildSpec, index: int, cache_root: str) -> ShardStats:
    """Generate one shard into the cache (or report the one already there)."""
    cache = ShardCache(cache_root)
    if cache.has(index):
        return cache.stats(index)
    table, failures = generate_shard(spec, index)
    return cache.write(index, table, failures)


def duplicate_seeds(cache: ShardCache, num_shards: int) -> set[int]:
    """Seeds whose program already appeared at a lower seed in an earlier shard."""
    first: set[str] = set()
    dropped: set[int] = set()
    for i in range(num_shards):
        t = cache.read(i, ["id", "seed"])
        for rid, seed in zip(t.column("id").to_pylist(), t.column("seed").to_pylist(), strict=True):
            if rid in first:
                dropped.add(seed)
            else:
                first.add(rid)
    return dropped


def _atomic_write_parquet(table: pa.Table, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, tmp)  # pyarrow defaults, as datasets writes: sizes stay comparable
    os.replace(tmp, path)
