"""What several test files share: builds, reading rows back, running the scripts, and the one contract
every built folder must meet (`assert_publishable`), applied to each fixture build.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import datasets
import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from warp_cuda_ir import card, hub, schema, writing
from warp_cuda_ir.build import BuildResult, run_build
from warp_cuda_ir.record import BuildOptions, BuildRecord
from warp_cuda_ir.shards import BuildSpec

ROOT = Path(__file__).resolve().parent.parent

# warp-lang's spinlock test (`COUNTER`: the counter's dtype, defined before it): the backward replays the acquire
# without its release, so the next thread spins (Warp's Clang build assumes the side-effect-free loop ends and drops
# it; g++ keeps it).
SPINLOCK = """
import warp as wp

@wp.func
def acquire(lock: wp.array(dtype=wp.int32)):
    while wp.atomic_cas(lock, 0, 0, 1) == 1:
        pass

@wp.func
def release(lock: wp.array(dtype=wp.int32)):
    wp.atomic_exch(lock, 0, 0)

@wp.kernel
def count(counter: wp.array(dtype=COUNTER), lock: wp.array(dtype=wp.int32)):
    acquire(lock)
    counter[0] = counter[0] + COUNTER(1)
    release(lock)
"""

# A kernel holding tile stacks of an int and of a vec3 (and a struct beside them): Warp's stack destructor is
# host-only under nvcc (the copy of the headers marks it: `device_headers`).
TILE_STACKS = """
import warp as wp


@wp.struct
class Entry:
    value: int


@wp.kernel
def stacks(out: wp.array(dtype=int), moved: wp.array(dtype=wp.vec3)):
    _i, j = wp.tid()
    s = wp.tile_stack(capacity=64, dtype=int)
    wp.tile_stack_push(s, j * 10, True)
    val, slot = wp.tile_stack_pop(s)
    v = wp.tile_stack(capacity=32, dtype=wp.vec3)
    wp.tile_stack_push(v, wp.vec3(float(j)), j < 4)
    w, slot3 = wp.tile_stack_pop(v)
    if slot != -1:
        out[slot] = val
    if slot3 != -1:
        moved[slot3] = w
"""

# 2 shards of 80 seeds: enough rows that every split is non-empty (checked by test_build).
SMALL_SPEC = BuildSpec(seed=0, seeds_per_shard=80)
SMALL_TARGET_MB = 0.6


def build(out: Path | str, spec: BuildSpec, target_mb: float, workers: int = 1, **options: Any) -> BuildResult:
    """`run_build` with the options a test names (the rest at their defaults)."""
    return run_build(BuildOptions(out=out, spec=spec, target_mb=target_mb, workers=workers, **options))


def read_rows(out: Path) -> dict[str, dict[str, Any]]:
    """Every row of a built folder, by id."""
    table = pq.read_table(writing.all_data_files(out))
    return {r["id"]: r for r in table.to_pylist()}


def run_script(
    name: str, *args: str, env: dict[str, str] | None = None, timeout: float = 300, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`python scripts/<name>.py ARGS`, as a user runs it (`env`: the whole environment, default ours).

    A build harvests the default packages' real kernels unless told otherwise (tens of minutes): tests
    build generated rows only (`--real none`) unless they name `--real` themselves, and, as the build
    validates its rows by default (minutes), unvalidated unless they name `--validate` themselves.
    """
    if name == "build" and "--real" not in args:
        args = ("--real", "none", *args)
    if name == "build" and not {"--validate", "--no-validate"} & set(args):
        args = ("--no-validate", *args)
    command = [sys.executable, str(ROOT / "scripts" / f"{name}.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`python scripts/build.py ARGS`."""
    return run_script("build", *args)


def remote_data_tables(url: str) -> dict[str, pa.Table]:
    """Every Parquet data file under an fsspec `url`, by its path inside the folder (`data/<source>/<file>`)."""
    fs, root = fsspec.core.url_to_fs(url)
    return {p[len(root) :].lstrip("/"): pq.read_table(fs.open(p)) for p in sorted(fs.glob(f"{root}/data/*/*.parquet"))}


def copy_build(result: BuildResult | Path, to: Path) -> Path:
    """A copy of a build that a test may damage (the resume state is left behind)."""
    source = result.out if isinstance(result, BuildResult) else result
    return Path(shutil.copytree(source, to / "copy", ignore=shutil.ignore_patterns(writing.WORK_DIR)))


def normalize_source(source: str) -> str:
    """Formatting- and comment-insensitive form of Python source."""
    return ast.unparse(ast.parse(source))


def assert_publishable(folder: Path) -> None:
    """The contract of every built folder, checked against counts made here, not by the code under test:

    its record lists exactly the files it holds; the card states the rows the Parquet metadata holds and
    describes the files (`card.verify`); every config loads with `load_dataset` with those split sizes,
    its columns and features; no row id and no normalized program is in two rows (so none straddles
    splits); a second load gives the same rows; and the Hub check plans an upload of exactly those files.
    """
    record = BuildRecord.load(folder)
    assert record is not None, f"{folder} has no build record"
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    on_disk = {p for p in on_disk if not p.startswith(writing.WORK_DIR + "/")}
    assert on_disk == record.owned(), f"files differ from the record: {sorted(on_disk ^ record.owned())}"

    def rows_in(rel: str, split: str) -> int:
        return sum(pq.read_metadata(p).num_rows for p in sorted((folder / rel).glob(f"{split}-*")))

    # Rows with backward texts, and (forward_only) those without, which the backward configs leave out.
    with_backward = {
        source: {split: rows_in(writing.source_dir(source), split) for split in schema.SPLITS}
        for source in schema.SOURCES
    }
    forward_only = {
        source: {split: rows_in(writing.source_dir(source, forward_only=True), split) for split in schema.SPLITS}
        for source in schema.SOURCES
    }
    per_source = {
        source: {split: n + forward_only[source][split] for split, n in by.items() if n + forward_only[source][split]}
        for source, by in with_backward.items()
    }
    # Every data file zstd-compressed (writing.PARQUET_COMPRESSION), read from the file's own column chunks.
    for path in [*folder.glob(f"{writing.DATA_DIR}/*/*.parquet"), *folder.glob(f"{writing.DATA_DIR}/*/*/*.parquet")]:
        meta = pq.read_metadata(path)
        codecs = {
            meta.row_group(g).column(c).compression for g in range(meta.num_row_groups) for c in range(meta.num_columns)
        }
        assert codecs == {"ZSTD"}, f"{path.name}: {codecs}"
        # Row groups the Hub's viewer can show (writing.ROW_GROUP_BYTES, uncompressed bytes per group).
        groups = [meta.row_group(g).total_byte_size for g in range(meta.num_row_groups)]
        assert max(groups, default=0) <= writing.ROW_GROUP_BYTES, f"{path.name}: row groups of {groups} bytes"
    counted = {split: sum(by.get(split, 0) for by in per_source.values()) for split in schema.SPLITS}
    counted = {split: n for split, n in counted.items() if n}
    text = (folder / writing.CARD).read_text()
    assert f"**{sum(counted.values()):,} rows**" in text
    assert card.verify(folder) == []
    with tempfile.TemporaryDirectory(prefix="contract_") as cache:
        full: dict[str, datasets.Dataset] = {}
        for config in schema.CONFIGS:
            expected = counted if config.source is None else per_source[config.source]
            if config.backward_only:
                sources = schema.SOURCES if config.source is None else (config.source,)
                expected = {split: sum(with_backward[source][split] for source in sources) for split in schema.SPLITS}
                expected = {split: n for split, n in expected.items() if n}
            if not expected:  # e.g. `real` in a build without real rows: the card lists no such config
                with pytest.raises(ValueError):
                    datasets.load_dataset(str(folder), config.name, cache_dir=cache)
                continue
            ds = datasets.load_dataset(str(folder), config.name, cache_dir=cache)
            assert {split: ds[split].num_rows for split in ds} == expected, config.name
            if config.source is not None:
                assert all(set(ds[split]["source"]) == {config.source} for split in ds), config.name
            for split in ds:
                assert ds[split].column_names == list(config.columns), config.name
                assert ds[split].features == config.features(), config.name
                for target in ("cuda_backward", "cpu_backward"):
                    if config.backward_only and target in config.columns:  # a backward target is never empty
                        assert all(ds[split][target]), f"{config.name}: a row without {target}"
            if config.name == schema.DEFAULT_CONFIG:
                full = dict(ds)
        again = datasets.load_dataset(str(folder), schema.DEFAULT_CONFIG, cache_dir=cache)
        ids: list[str] = []
        programs: list[str] = []
        for split, ds in full.items():
            assert again[split]["id"] == ds["id"], "a second load gives other rows"
            ids += ds["id"]
            programs += [normalize_source(s) for s in ds["python_source"]]
    assert len(ids) == len(set(ids)), "a row id occurs twice"
    assert len(programs) == len(set(programs)), "a program occurs twice"
    upload = hub.plan(folder, "contract/check")
    assert set(upload.files) == record.owned() and upload.rows_per_split == counted


def cpu_twin_lines(row: dict[str, Any], folder: Path) -> list[str]:
    """The row's programs and Makefile copied into a new `folder`, `make cpu`, run: the twin's printed lines."""
    folder.mkdir()
    (folder / "program.cpp").write_text(row["cpu_program"])
    (folder / "program.cu").write_text(row["cuda_program"])
    (folder / "Makefile").write_text(row["makefile"])
    subprocess.run(["make", "-s", "cpu"], cwd=folder, check=True, capture_output=True)
    return subprocess.run(["./program_cpu"], cwd=folder, capture_output=True, text=True, check=True).stdout.splitlines()


def compile_only_row(source: str, kernel_name: str, row_id: str = "t", block_dim: int = 32) -> dict[str, Any]:
    """A row of `source`'s kernel without a launch record, with its compile-only CUDA program (`cuda_program`)."""
    from dataclasses import asdict

    from warp_cuda_ir import extraction
    from warp_cuda_ir.standalone import program

    row = asdict(extraction.extract(source, kernel_name, block_dim=block_dim))
    row |= {"id": row_id, "seed": None, "block_dim": block_dim}
    row["cuda_program"] = program.program(row, None, "cuda", reason="compile only")
    return row


def make_cuda(folder: Path, source: str, makefile: str | None = None) -> subprocess.CompletedProcess[str]:
    """`source` as `program.cu` beside a Makefile (default: the plain one, Warp's own headers) in `folder`,
    `make cuda` (nvcc), its result."""
    from warp_cuda_ir.standalone import program

    (folder / "Makefile").write_text(makefile or program.MAKEFILE)
    (folder / "program.cu").write_text(source)
    return subprocess.run(["make", "-s", "-B", "cuda"], cwd=folder, capture_output=True, text=True)
