"""The dataset folder as the validation pass sees it: checked, read, and rewritten atomically."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import schema, writing
from warp_cuda_ir.errors import DatasetFolderError, one_line
from warp_cuda_ir.record import BuildRecord


def data_files(out: Path) -> list[Path]:
    """The Parquet files the build manifest lists, after checking each is whole and ours."""
    if not out.is_dir():
        raise DatasetFolderError(f"{out} is not a folder")
    record = BuildRecord.load(out)
    if record is None:
        raise DatasetFolderError(f"{out} is not a dataset built by warp-cuda-ir (no valid {writing.MANIFEST})")
    # A folder of an older schema is refused whole, before anything is written: its rows lack columns
    # this version fills (and hold some it no longer has), so annotating it would mix two schemas.
    version = record.identity.get("shards", {}).get("schema")
    if version != schema.SCHEMA_VERSION:
        raise DatasetFolderError(
            f"{out} was built with schema {version}, this warp-cuda-ir reads {schema.SCHEMA_VERSION}: "
            "build it again with scripts/build.py (nothing was changed)"
        )
    listed = {out / rel for rel in record.files if rel.endswith(".parquet")}
    # The folder's data files as the configs read them (writing.data_files), each one listed by the build.
    files = [path for path in writing.all_data_files(out) if path in listed]
    absent = sorted(listed - set(files))
    if absent:
        raise DatasetFolderError(f"{absent[0]} is listed in {writing.MANIFEST} but missing")
    if not files:
        raise DatasetFolderError(f"{out}/{writing.MANIFEST} lists no Parquet files")
    base = {name for name in schema.FEATURES if name not in schema.VALIDATION_COLUMN_NAMES}
    expected = schema.FEATURES.arrow_schema
    for path in files:
        try:
            found = pq.read_schema(path)
            pq.read_metadata(path)
        except (OSError, pa.ArrowException) as e:
            raise DatasetFolderError(f"{path} is not a readable Parquet file ({one_line(e)})") from None
        missing = sorted(base - set(found.names))
        if missing:
            raise DatasetFolderError(f"{path} has a foreign schema (missing column {missing[0]!r})")
        for name in found.names:
            if name not in schema.FEATURES:
                raise DatasetFolderError(f"{path} has a foreign schema (unknown column {name!r})")
            if name in base and not found.field(name).type.equals(expected.field(name).type):
                raise DatasetFolderError(f"{path} has a foreign schema (column {name!r} is {found.field(name).type})")
    return files


def read_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Rows of one data file with the columns validation needs (whole file read: it was checked)."""
    columns = [n for n in schema.FEATURES if n not in schema.VALIDATION_COLUMN_NAMES]
    try:
        table = pq.read_table(path, columns=columns)
    except (OSError, pa.ArrowException) as e:
        raise DatasetFolderError(f"{path} is not a readable Parquet file ({one_line(e)})") from None
    yield from table.to_pylist()


def rewrite(path: Path, annotations: Mapping[str, Mapping[str, Any]]) -> None:
    """Replace `path` with the same rows plus their validation columns, atomically.

    The new file is written beside the old one and renamed over it, so a crash leaves either
    the old file or the new one, never a mix. Rows without annotations keep UNVALIDATED values.
    """
    table = pq.read_table(path)
    ids = table.column("id").to_pylist()
    expected = schema.FEATURES.arrow_schema
    columns = {n: table.column(n) for n in table.column_names if n not in schema.VALIDATION_COLUMN_NAMES}
    for name in schema.VALIDATION_COLUMN_NAMES:
        # An annotated row's missing column is null (it did not apply), never "not validated".
        values = [annotations[i].get(name) if i in annotations else schema.UNVALIDATED[name] for i in ids]
        columns[name] = pa.array(values, type=expected.field(name).type)
    new = pa.Table.from_arrays([columns[n] for n in expected.names], schema=expected)
    writing.write_parquet(new, path)
