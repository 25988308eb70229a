"""The published Parquet files: row groups small enough for the Hub's dataset viewer, whatever a row carries."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from warp_cuda_ir import schema, writing
from warp_cuda_ir.build import BuildResult

CAP = 1 << 20  # 1 MB stands in for writing.ROW_GROUP_BYTES: same code path, tests stay small


def group_sizes(path: Path) -> list[tuple[int, int, int]]:
    """(rows, Arrow bytes, Parquet uncompressed bytes) of each row group of `path`."""
    parquet = pq.ParquetFile(path)
    return [
        (
            parquet.metadata.row_group(i).num_rows,
            parquet.read_row_group(i).nbytes,
            parquet.metadata.row_group(i).total_byte_size,
        )
        for i in range(parquet.num_row_groups)
    ]


def heavy_rows(small_build: BuildResult, per_row: int) -> pa.Table:
    """The small build's rows (the real schema), each carrying a distinct `per_row`-byte standalone program."""
    table = pq.read_table(writing.all_data_files(small_build.out))
    texts = [f"// row {i}\n" + (f"{i:08x}" * (per_row // 8)) for i in range(table.num_rows)]
    index = table.schema.get_field_index("cuda_program")
    return table.set_column(index, table.schema.field(index), pa.array(texts, pa.string()))


def test_no_row_group_over_the_cap_whatever_a_row_carries(
    small_build: BuildResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writing, "ROW_GROUP_BYTES", CAP)
    table = heavy_rows(small_build, 120_000)[:40]  # ~5 MB of Arrow data: one file, several groups
    (written,) = writing.write_split_files(tmp_path, "real", "train", table, max_bytes=1 << 30)
    path = tmp_path / written
    sizes = group_sizes(path)
    assert len(sizes) > 1
    for rows, arrow, stored in sizes:
        assert arrow <= CAP and stored <= CAP, f"a row group of {rows} rows holds {arrow:,} Arrow bytes"
    assert sum(rows for rows, _, _ in sizes) == table.num_rows
    assert pq.read_table(path, columns=["id", "cuda_program"]).equals(table.select(["id", "cuda_program"]))


def test_a_row_over_the_cap_is_a_group_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writing, "ROW_GROUP_BYTES", CAP)
    texts = ["a" * 1000, "b" * (3 * CAP), "c" * 1000, "d" * 1000]
    writing.write_parquet(pa.table({"text": texts}), tmp_path / "f.parquet")
    sizes = group_sizes(tmp_path / "f.parquet")
    assert sum(rows for rows, _, _ in sizes) == 4
    assert all(arrow <= CAP or rows == 1 for rows, arrow, _ in sizes) and max(arrow for _, arrow, _ in sizes) > CAP
    assert pc.utf8_length(pq.read_table(tmp_path / "f.parquet")["text"]).to_pylist() == [len(t) for t in texts]


def test_the_builders_arrow_files_are_published_in_small_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # datasets' Arrow writer gives one batch per table the builder yields, whatever its bytes: Parquet groups
    # are cut from it again.
    monkeypatch.setattr(writing, "ROW_GROUP_BYTES", CAP)
    prepared = tmp_path / "prepared"
    prepared.mkdir()
    table = pa.table({"text": [f"{i:04d}" * 50_000 for i in range(20)]})
    with pa.ipc.new_stream(prepared / "d-train.arrow", table.schema) as stream:
        stream.write_table(table)
    assert writing.publish_arrow(tmp_path / "out", prepared, "d") == ["data/synthetic/train-00000-of-00001.parquet"]
    path = tmp_path / "out" / "data" / "synthetic" / "train-00000-of-00001.parquet"
    assert all(arrow <= CAP for _, arrow, _ in group_sizes(path)) and pq.read_metadata(path).num_rows == 20


def test_same_rows_give_the_same_bytes(
    small_build: BuildResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writing, "ROW_GROUP_BYTES", CAP)
    table = heavy_rows(small_build, 60_000)[:30].cast(schema.datasets_features().arrow_schema)
    writing.write_parquet(table, tmp_path / "a.parquet")
    writing.write_parquet(table, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
