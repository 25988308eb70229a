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


# Shards hold one Parquet row group per split, named in this schema metadata key, so the
# builder reads each split's rows without decoding the other splits' text columns.
SPLITS_KEY = b"warp_cuda_ir.row_group_splits"


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
        split_of = [rows.split_for_seed(s) for s in table.column("seed").to_pylist()]
        parts = [(name, table.filter(pa.array([s == name for s in split_of]))) for name in schema.SPLITS]
        parts = [(name, part) for name, part in parts if part.num_rows]
        metadata = {SPLITS_KEY: json.dumps([name for name, _ in parts]).encode()}
        _atomic_write_parquet([part for _, part in parts], self.path(index), table.schema.with_metadata(metadata))
        return self.stats(index)

    def stats(self, index: int) -> ShardStats:
        cats = pq.read_table(self.path(index), columns=["category"]).column("category").to_pylist()
        failures = pq.read_metadata(self.failures_path(index)).num_rows
        return ShardStats(index, len(cats), failures, self.path(index).stat().st_size, Counter(cats))

    def read(self, index: int, columns: list[str] | None = None, split: str | None = None) -> pa.Table:
        """The shard's rows (optionally one split's: only that split's row group is decoded)."""
        if split is None:
            return pq.read_table(self.path(index), columns=columns)
        file = pq.ParquetFile(self.path(index))
        splits = json.loads(file.schema_arrow.metadata[SPLITS_KEY])
        groups = [i for i, name in enumerate(splits) if name == split]
        if not groups:
            empty = file.schema_arrow.empty_table()
            return empty.select(columns) if columns is not None else empty
        return file.read_row_groups(groups, columns=columns)

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


def _atomic_write_parquet(table: pa.Table | list[pa.Table], path: Path, schema: pa.Schema | None = None) -> None:
    """Write `table` (or each table of a list as its own row group) to `path`, renamed into place."""
    tables = table if isinstance(table, list) else [table]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # pyarrow defaults, as datasets writes: sizes stay comparable.
    with pq.ParquetWriter(tmp, schema or tables[0].schema) as writer:
        for part in tables:
            writer.write_table(part.replace_schema_metadata(writer.schema.metadata))
    os.replace(tmp, path)
