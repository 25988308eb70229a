"""Writing: the dataset folder users load and push, and the one place that knows its layout.

    <out>/README.md        card with YAML `configs:` (rendered last: its presence means complete)
    <out>/build.json       the run record (`record.BuildRecord`): identity, versions, files we wrote
    <out>/data/synthetic/<split>-NNNNN-of-MMMMM.parquet   generated rows
    <out>/data/real/<split>-NNNNN-of-MMMMM.parquet        harvested real kernels (when the build has any)
    <out>/data/real/forward_only/<split>-...parquet       real kernels without backward code (Warp's error)
    <out>/LICENSES/<package>/...                          upstream license files of the real rows
    <out>/.build/          shard cache and staging (resume state; never uploaded)

We only ever delete files that build.json says we wrote.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import schema
from warp_cuda_ir.cache import atomic_path, atomic_write
from warp_cuda_ir.errors import OutputFolderError

MANIFEST = "build.json"
WORK_DIR = ".build"
DATA_DIR = "data"
CARD = "README.md"
ARGS_FILE = "args.json"  # in WORK_DIR: the identity of the build it holds


LICENSES_DIR = "LICENSES"

# Compression of the Parquet files users get. Rows carry two whole standalone programs each, mostly text that
# repeats across rows; measured on 100 rows (seeds 50000-50099, Parquet as datasets writes it): Snappy
# (datasets' fixed choice) 43.5 kB/row, zstd at pyarrow's default level 24.8 kB/row (-43%, and faster to
# write), zstd level 9 21.2 kB/row at 4x the write time, gzip 26.7 kB/row. pyarrow, `load_dataset`
# (streaming too) and the Hub's viewer all read zstd. Content-defined chunking and the page index stay
# as datasets writes them (the Hub deduplicates chunks across uploads).
PARQUET_COMPRESSION = "zstd"
# Largest row group written, in Arrow bytes (what a reader holds in memory to decode one group). The Hub's
# dataset viewer refuses a row group over about 300 MB (`TooBigContentError`) and copies Parquet files
# as they are only when their row groups are under 100 MB; pyarrow's default (one group of up to 1M rows)
# made the first real train file one group of 1,720 rows and 294 MB. 64 MB leaves room under both.
ROW_GROUP_BYTES = 64 << 20


# Rows without backward texts live in this subfolder of their source's folder, so the backward configs'
# `data_files` patterns (`data/<source>/<split>-*`, which do not descend into it) leave them out while every
# other config lists both folders: the configs stay projections of one set of files (`schema.BACKWARD_CONFIGS`).
FORWARD_ONLY_DIR = "forward_only"


def source_dir(source: str, forward_only: bool = False) -> str:
    """The folder (relative to `out`) holding one source's data files (`schema.SOURCES`): rows with backward
    texts, or (`forward_only`) the rows without."""
    return f"{DATA_DIR}/{source}" + (f"/{FORWARD_ONLY_DIR}" if forward_only else "")


def split_pattern(split: str, source: str, forward_only: bool = False) -> str:
    """The `data_files` pattern of one split of one source's files, as the card's configs write it."""
    return f"{source_dir(source, forward_only)}/{split}-*"


def data_files(out: Path, source: str | None = None, forward_only: bool | None = None) -> dict[str, list[Path]]:
    """The folder's Parquet data files per split (synthetic, then real; each with backward, then without).

    `source`: only that source's files (`schema.SOURCES`); None: all. `forward_only`: only the files of rows
    without (True) or with (False) backward texts; None: both. Splits without files: empty lists.
    """
    sources = schema.SOURCES if source is None else (source,)
    parts = (False, True) if forward_only is None else (forward_only,)
    return {
        split: [
            path
            for s in sources
            for part in parts
            for path in sorted((Path(out) / source_dir(s, part)).glob(f"{split}-*.parquet"))
        ]
        for split in schema.SPLITS
    }


def has_backward(row: dict[str, Any]) -> bool:
    """Whether a row belongs in the backward configs: both backward texts present."""
    return bool(row.get("cuda_backward")) and bool(row.get("cpu_backward"))


def all_data_files(out: Path) -> list[Path]:
    return [path for paths in data_files(out).values() for path in paths]


def prepare_output(out: Path, identity: dict[str, Any], owned: Collection[str], overwrite: bool) -> bool:
    """Check `out` is ours to write; return True when it holds a resumable run of the same build.

    `owned`: the paths (relative to `out`) the folder's build.json says we wrote, build.json included.
    A folder holding a finished or interrupted build of another identity is replaced only with
    `overwrite`; files we did not write are never touched, and if one sits where we must write,
    we refuse even with `overwrite`.
    """
    if out.exists() and not out.is_dir():
        raise OutputFolderError(f"--out {out} exists and is not a folder")
    state = out / WORK_DIR / ARGS_FILE
    earlier = json.loads(state.read_text()) if state.exists() else None
    if earlier == identity:
        return True
    ours = set(owned) | ({WORK_DIR} if state.exists() else set())
    entries = [p.name for p in out.iterdir() if p.name not in (DATA_DIR, LICENSES_DIR)] if out.is_dir() else []
    entries += [
        p.relative_to(out).as_posix() for d in (DATA_DIR, LICENSES_DIR) for p in (out / d).rglob("*") if p.is_file()
    ]
    foreign = [name for name in entries if name not in ours]
    clashing = [
        name
        for name in foreign
        if name in (CARD, MANIFEST, WORK_DIR) or name.startswith((f"{DATA_DIR}/", f"{LICENSES_DIR}/"))
    ]
    if clashing:
        raise OutputFolderError(
            f"--out {out} holds files this tool did not write ({clashing[0]}); choose another folder"
        )
    if (foreign or ours) and not overwrite:
        what = "a different build" if ours else "other files"
        if earlier and _versions(earlier) != _versions(identity):
            what = "a build from another schema or Warp version"
        raise OutputFolderError(f"--out {out} already holds {what}; pass --overwrite or choose an empty folder")
    remove_build(out, owned)
    try:
        state.parent.mkdir(parents=True)
    except OSError as e:
        raise OutputFolderError(f"cannot create --out {out}: {e.strerror or e}") from None
    state.write_text(json.dumps(identity, sort_keys=True, indent=1))
    return False


def _versions(identity: dict[str, Any]) -> tuple[Any, Any]:
    shards = identity.get("shards") or {}
    return shards.get("schema"), shards.get("warp")


def remove_build(out: Path, owned: Collection[str]) -> None:
    """Delete what an earlier build of ours wrote (`owned`, build.json included), and nothing else."""
    for rel in owned:
        (out / rel).unlink(missing_ok=True)
    if (out / WORK_DIR / ARGS_FILE).exists():  # only a work folder we made
        shutil.rmtree(out / WORK_DIR)
    folders = [source_dir(s, part) for part in (True, False) for s in schema.SOURCES]  # deepest first
    _remove_empty_dirs(out, (*folders, DATA_DIR, LICENSES_DIR))


def _remove_empty_dirs(out: Path, rels: Collection[str]) -> None:
    """Remove these folders (deepest listed first) and their empty subfolders, where nothing is left in them."""
    for rel in rels:
        top = out / rel
        if not top.is_dir():
            continue
        for d in sorted((p for p in top.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
            if not any(d.iterdir()):
                d.rmdir()
        if not any(top.iterdir()):
            top.rmdir()


def publish_arrow(out: Path, prepared: Path, dataset_name: str, source: str = "synthetic") -> list[str]:
    """Write the builder's Arrow files as Parquet in `data/<source>/`, with Hub-style names; return their paths.

    The builder prepares Arrow (datasets' Parquet writer compresses with Snappy, fixed), so each file is
    compressed once, here, in PARQUET_COMPRESSION: writing Snappy, then reading it back to write zstd cost
    ~1.5 ms per row in the build's one writing process. Files without rows are dropped: `load_dataset`
    refuses a split that has no data.
    """
    written: list[str] = []
    for stem, table in prepared_tables(prepared, dataset_name):
        name = stem if "-of-" in stem else f"{stem}-00000-of-00001"
        # One chunk: pages then do not break where the builder's tables did (0.3% smaller files).
        written.append(_write_data_file(out, source_dir(source), name, table.combine_chunks()))
    return written


def prepared_tables(prepared: Path, dataset_name: str) -> Iterator[tuple[str, pa.Table]]:
    """(stem, rows) of each Arrow file the builder prepared that holds rows, in name order; the stem is
    "train" or "train-00000-of-00002" (its split, then its place among the split's files)."""
    for src in sorted(prepared.glob(f"{dataset_name}-*.arrow")):
        with pa.memory_map(str(src)) as stream:
            table = pa.ipc.open_stream(stream).read_all()
        if table.num_rows:
            yield src.name[len(dataset_name) + 1 : -len(".arrow")], table


def write_split_files(
    out: Path, source: str, split: str, table: pa.Table, max_bytes: int, forward_only: bool = False
) -> list[str]:
    """One split's rows as `<source_dir(source, forward_only)>/<split>-NNNNN-of-MMMMM.parquet` files of at most
    ~`max_bytes` (uncompressed Arrow bytes, as the builder counts them); return their paths."""
    count = max(1, math.ceil(table.nbytes / max_bytes))  # equal row counts per file: sizes close enough
    step = math.ceil(table.num_rows / count)
    parts = [table.slice(i, step) for i in range(0, table.num_rows, step)] or [table]
    features = schema.datasets_features().arrow_schema  # with datasets' feature metadata, as the builder writes
    return [
        _write_data_file(
            out, source_dir(source, forward_only), f"{split}-{n:05d}-of-{len(parts):05d}", part.cast(features)
        )
        for n, part in enumerate(parts)
    ]


def _write_data_file(out: Path, folder: str, name: str, table: pa.Table) -> str:
    rel = f"{folder}/{name}.parquet"
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    write_parquet(table, out / rel)
    return rel


def row_groups(table: pa.Table, max_bytes: int) -> list[pa.Table]:
    """`table` cut, in order, into consecutive slices of at most `max_bytes` Arrow bytes each (a row larger
    than that alone); a pure function of the table, so the same rows always give the same files."""
    if table.num_rows <= 1 or table.nbytes <= max_bytes:
        return [table]
    step = math.ceil(table.num_rows / max(2, math.ceil(table.nbytes / max_bytes)))
    return [group for i in range(0, table.num_rows, step) for group in row_groups(table.slice(i, step), max_bytes)]


def write_parquet(table: pa.Table, path: Path) -> None:
    """`table` to `path` as every published file is written (PARQUET_COMPRESSION, row groups of at most
    ROW_GROUP_BYTES), atomically."""
    from datasets import config

    with (
        atomic_path(path) as tmp,
        pq.ParquetWriter(
            tmp,
            table.schema,
            compression=PARQUET_COMPRESSION,
            use_content_defined_chunking=config.DEFAULT_CDC_OPTIONS,
            write_page_index=True,
        ) as writer,
    ):
        writer.add_key_value_metadata({"content_defined_chunking": json.dumps(config.DEFAULT_CDC_OPTIONS)})
        for group in row_groups(table, ROW_GROUP_BYTES):
            writer.write_table(group, row_group_size=max(1, group.num_rows))


def write_text_atomic(path: Path, text: str) -> None:
    atomic_write(path, text.encode())
