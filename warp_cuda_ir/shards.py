"""Work shards: one shard = a pure function of (BuildSpec, shard index).

Determinism, resume, parallelism and the Ray engine all follow from that: a shard's
Parquet file is written once, atomically, and a finished shard is never recomputed.
Engines (`engines/`) schedule `run_shard`/`generate_shard`; the feed (`feed.py`) drives them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import extraction, rows, schema
from warp_cuda_ir.cache import atomic_path
from warp_cuda_ir.synthesis import CATEGORIES, GENERATOR_VERSION

FAILURE_SCHEMA = pa.schema([("seed", pa.int64()), ("error", pa.string())])


@dataclass(frozen=True)
class BuildSpec:
    """Everything that decides which rows a build contains (and nothing that does not)."""

    seed: int = 0
    categories: tuple[str, ...] = CATEGORIES
    # Smaller shards shorten the tail (cores idle while the last shards finish) and meet a size
    # target more closely; each shard costs two small Parquet files and a few reads.
    seeds_per_shard: int = 128
    arch: int = extraction.DEFAULT_CUDA_ARCH

    def shard_seeds(self, index: int) -> range:
        start = self.seed + index * self.seeds_per_shard
        return range(start, start + self.seeds_per_shard)

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "categories": list(self.categories), "generator": GENERATOR_VERSION}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BuildSpec:
        """The spec `to_dict` wrote (the generator version is a fact of the code, not a field)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: tuple(v) if k == "categories" else v for k, v in data.items() if k in fields})

    def cache_key(self) -> dict[str, Any]:
        """Everything a shard's rows depend on: the spec, the generator, the schema and Warp versions.

        The one key that decides whether a cached shard may be reused: a shard cache made under
        another key is never resumed (a build folder holding one is refused).
        """
        import warp as wp

        return {"spec": self.to_dict(), "schema": schema.SCHEMA_VERSION, "warp": wp.config.version}

    def fingerprint(self) -> str:
        """A short hash of `cache_key()`."""
        return hashlib.sha256(json.dumps(self.cache_key(), sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class ShardStats:
    index: int
    rows: int
    failures: int
    nbytes: int  # size of the shard's Parquet file
    categories: Counter[str] = field(default_factory=Counter)
    made_by: ShardTiming | None = None  # None when it came from the cache or from Ray


@dataclass(frozen=True)
class ShardTiming:
    """How a local worker spent one shard (read by benchmarks/build_benchmark.py)."""

    pid: int
    started: float  # wall clock (time.time()) when the worker began the shard
    ended: float
    cpu_s: float  # the worker's CPU time over the shard
    codegen_cpu_s: float  # of which in Warp codegen (`extraction.extract`)


def generate_shard(spec: BuildSpec, index: int) -> tuple[pa.Table, pa.Table]:
    """(rows, failures) of one shard. Rows repeating an earlier program in the shard are dropped."""
    made, failed = rows.make_rows(spec.shard_seeds(index), spec.categories, spec.arch)
    first: dict[str, dict[str, Any]] = {}  # program id -> its row at the lowest seed
    for row in made:
        first.setdefault(row["id"], row)
    failures = [{"seed": seed, "error": error} for seed, error in failed.items()]
    table = pa.Table.from_pylist(list(first.values()), schema=schema.ARROW_SCHEMA)
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
    started, cpu, codegen = time.time(), time.process_time(), extraction.codegen_cpu_seconds()
    table, failures = generate_shard(spec, index)
    stats = cache.write(index, table, failures)
    timing = ShardTiming(
        os.getpid(), started, time.time(), time.process_time() - cpu, extraction.codegen_cpu_seconds() - codegen
    )
    return dataclasses.replace(stats, made_by=timing)


def _atomic_write_parquet(table: pa.Table | list[pa.Table], path: Path, schema: pa.Schema | None = None) -> None:
    """Write `table` (or each table of a list as its own row group) to `path`, renamed into place."""
    tables = table if isinstance(table, list) else [table]
    # pyarrow defaults, as datasets writes: sizes stay comparable.
    with atomic_path(path) as tmp, pq.ParquetWriter(tmp, schema or tables[0].schema) as writer:
        for part in tables:
            writer.write_table(part.replace_schema_metadata(writer.schema.metadata))
