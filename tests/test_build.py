"""A real small build: Warp codegen -> shards -> the builder -> Parquet -> load_dataset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pytest
import warp as wp

from tests.helpers import SMALL_SPEC, SMALL_TARGET_MB, assert_publishable, build, normalize_source, read_rows, run_cli
from warp_cuda_ir import extraction, rows, schema, writing
from warp_cuda_ir.build import BuildResult
from warp_cuda_ir.record import BuildRecord
from warp_cuda_ir.shards import BuildSpec, ShardCache, generate_shard
from warp_cuda_ir.standalone import program
from warp_cuda_ir.synthesis import KernelProgram


def test_the_small_build_is_publishable(small_build: BuildResult) -> None:
    assert_publishable(small_build.out)


@pytest.mark.parametrize("config", schema.CONFIGS, ids=lambda c: c.name)
def test_every_config_loads_with_three_splits(small_build: BuildResult, config: schema.ConfigSpec) -> None:
    if config.source == "real":  # the small build has none: the card lists no `real` config
        with pytest.raises(ValueError, match="'real' not found"):
            datasets.load_dataset(str(small_build.out), config.name)
        return
    ds = datasets.load_dataset(str(small_build.out), config.name)
    assert set(ds) == set(schema.SPLITS)
    for split in schema.SPLITS:
        assert ds[split].num_rows == small_build.rows_per_split[split] > 0
        assert ds[split].column_names == list(config.columns)
        assert ds[split].features == config.features()


def test_rows_are_real_warp_output(small_build: BuildResult) -> None:
    for row in list(read_rows(small_build.out).values())[:20]:
        assert row["cuda_forward"].lstrip().startswith('extern "C" __global__ void')
        assert row["kernel_symbol"] + "_cuda_kernel_backward(" in row["cuda_backward"]
        assert row["kernel_symbol"] + "_cpu_kernel_forward(" in row["cpu_forward"]
        assert row["id"] == rows.row_id(row["python_source"])
        options = json.loads(row["module_options"])
        assert options["cuda"]["block_dim"] == row["block_dim"] and options["cpu"]["block_dim"] == 1
        if not row["launch_tiled"]:
            assert row["block_dim"] == extraction.CUDA_BLOCK_DIM


def test_no_program_appears_twice_and_splits_follow_seeds(small_build: BuildResult) -> None:
    ds = datasets.load_dataset(str(small_build.out), "full")
    normalized = []
    for split in schema.SPLITS:
        for row in ds[split]:
            assert rows.split_for_seed(row["seed"]) == split
            normalized.append(normalize_source(row["python_source"]))
    assert len(normalized) == len(set(normalized))


def test_shards_hold_one_row_group_per_split(small_build: BuildResult) -> None:
    # The builder reads one split's row group per shard; together they must be the whole shard.
    cache = ShardCache(small_build.out / writing.WORK_DIR / "shards")
    for i in range(small_build.num_shards):
        whole = sorted(cache.read(i, ["seed"]).column("seed").to_pylist())
        parts = {split: cache.read(i, ["seed", "id"], split) for split in schema.SPLITS}
        assert all(t.column_names == ["seed", "id"] for t in parts.values())
        by_split = {split: t.column("seed").to_pylist() for split, t in parts.items()}
        assert sorted(s for seeds in by_split.values() for s in seeds) == whole
        assert all(rows.split_for_seed(s) == split for split, seeds in by_split.items() for s in seeds)


def test_size_target_is_met_within_one_shard(small_build: BuildResult) -> None:
    cache = ShardCache(small_build.out / writing.WORK_DIR / "shards")
    sizes = [cache.path(i).stat().st_size for i in range(small_build.num_shards)]
    target = SMALL_TARGET_MB * 1e6
    assert sum(sizes[:-1]) < target <= sum(sizes)


def test_same_arguments_give_identical_rows_with_any_worker_count(small_build: BuildResult, tmp_path: Path) -> None:
    again = build(tmp_path / "again", SMALL_SPEC, SMALL_TARGET_MB, workers=1)
    assert read_rows(again.out) == read_rows(small_build.out)
    for split in schema.SPLITS:
        assert again.rows_per_split[split] == small_build.rows_per_split[split]


def test_manifest_records_arguments_and_versions(small_build: BuildResult) -> None:
    record = BuildRecord.load(small_build.out)
    assert record is not None
    assert record.spec == SMALL_SPEC and record.target_mb == SMALL_TARGET_MB
    assert record.warp_version == "1.19.0" and record.versions["datasets"] == datasets.__version__
    assert all((small_build.out / f).exists() for f in record.files)
    assert not list(small_build.out.rglob("*.py")), "a .py file would stop load_dataset from loading the folder"


def test_rerun_resumes_from_finished_shards(small_build: BuildResult) -> None:
    before = read_rows(small_build.out)
    again = build(small_build.out, SMALL_SPEC, SMALL_TARGET_MB, workers=2)
    assert again.resumed and read_rows(small_build.out) == before


def test_codegen_failure_is_recorded_and_skipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = rows.synthesize

    def broken_on_odd_seeds(seed: int, categories: tuple[str, ...]) -> KernelProgram:
        program = real(seed, categories)
        if seed % 2:
            bad = program.source.replace(" = wp.tid()", " = wp.tid()\n    undefined_name(0)", 1)
            return KernelProgram(program.category, program.kernel_name, bad, program.launch_dim, program.arguments)
        return program

    monkeypatch.setattr(rows, "synthesize", broken_on_odd_seeds)
    spec = BuildSpec(seed=100, seeds_per_shard=10)
    table, failures = generate_shard(spec, 0)
    assert sorted(failures.column("seed").to_pylist()) == [101, 103, 105, 107, 109]
    assert all("undefined_name" in e for e in failures.column("error").to_pylist())
    assert table.column("seed").to_pylist() == [100, 102, 104, 106, 108]
    result = build(tmp_path / "out", spec, 0.001, workers=1)
    assert sum(result.failures.values()) == 5 and sum(result.rows_per_split.values()) == 5


def test_each_generated_row_loads_its_kernel_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Code columns and the standalone programs' input values come from one Warp load of the kernel.
    from warp_cuda_ir import warp_session

    loaded: list[str] = []
    load = warp_session.load_kernel
    monkeypatch.setattr(warp_session, "load_kernel", lambda src, name=None: loaded.append(name) or load(src, name))
    made, failed = rows.make_rows(range(60, 64), BuildSpec().categories)
    assert failed == {} and len(made) == 4 and len(loaded) == 4
    assert all(program.launches(r["cpu_program"]) and program.launches(r["cuda_program"]) for r in made)


def test_each_published_file_is_written_once_in_zstd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The builder prepares Arrow; no Parquet file is written but the published ones (and the shard cache's).
    import pyarrow.parquet as pq

    opened: list[str] = []

    class Writer(pq.ParquetWriter):
        def __init__(self, where: Any, *args: Any, **kwargs: Any) -> None:
            opened.append(Path(where).name if isinstance(where, (str, Path)) else type(where).__name__)
            super().__init__(where, *args, **kwargs)

    monkeypatch.setattr(pq, "ParquetWriter", Writer)
    out = tmp_path / "out"
    build(out, BuildSpec(seed=0, seeds_per_shard=8), 0.01, workers=1)
    files = sorted(p.name for p in (out / writing.source_dir("synthetic")).glob("*.parquet"))
    published = sorted(name for name in opened if not name.startswith(".shard-"))
    # Each written once, under a temporary name beside it (cache.atomic_path: ".<name>.<random>.tmp").
    assert [name.rsplit(".", 2)[0][1:] for name in published] == files
    assert all(name.startswith(".") and name.endswith(".tmp") for name in published)
    assert_publishable(out)  # every data file zstd


def test_the_cards_figures_made_during_the_build_equal_a_read_back(small_build: BuildResult) -> None:
    """The program figures (tallied as shards are handed) and the near-duplicate figures (measured in a worker
    on the rows before they are written) are those a read-back of the published files gives."""
    from warp_cuda_ir import card
    from warp_cuda_ir.readback import read_back

    again = read_back(small_build.out)  # every synthetic program analysed from the published files
    text = (small_build.out / writing.CARD).read_text()
    assert again.meaning and again.meaning["programs"] == sum(small_build.rows_per_split.values())
    assert card.meaning_markdown(again) in text
    assert again.leakage and again.leakage.rows_compared == again.leakage.rows == again.num_rows
    assert card.leakage_markdown(again) in text


def test_rows_made_stage_by_stage_equal_rows_made_one_by_one() -> None:
    seeds, categories = range(40, 46), BuildSpec().categories
    made, failed = rows.make_rows(seeds, categories)
    assert failed == {} and made == [rows.make_row(seed, categories) for seed in seeds]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target-mb", "0"], "must be a positive number"),
        (["--target-mb", "-3"], "must be a positive number"),
        (["--target-mb", "lots"], "is not a number"),
        (["--workers", "0"], "must be a positive integer"),
        (["--categories", "arithmetic,nope"], "unknown category 'nope'"),
    ],
)
def test_bad_arguments_fail_in_one_line_before_any_work(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out"
    proc = run_cli("--out", str(out), *args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.slow
def test_out_folder_with_other_files_is_refused_then_kept_with_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    proc = run_cli("--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--workers", "1")
    assert proc.returncode == 2 and "--overwrite" in proc.stderr and proc.stderr.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    proc = run_cli("--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--workers", "1", "--overwrite")
    assert proc.returncode == 0, proc.stderr
    assert (out / "notes.txt").read_text() == "mine" and (out / "README.md").exists()


@pytest.mark.slow
def test_a_readme_we_did_not_write_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "README.md").write_text("their readme")
    proc = run_cli("--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--overwrite")
    assert proc.returncode == 2 and "did not write (README.md)" in proc.stderr
    assert (out / "README.md").read_text() == "their readme"


@pytest.mark.slow
def test_a_different_build_in_out_needs_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    base = ["--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--workers", "1"]
    assert run_cli(*base).returncode == 0
    proc = run_cli(*base, "--seed", "7")
    assert proc.returncode == 2 and "a different build" in proc.stderr
    proc = run_cli(*base, "--seed", "7", "--overwrite")
    assert proc.returncode == 0, proc.stderr
    assert {r["seed"] for r in read_rows(out).values()} == set(range(7, 11))


@pytest.mark.slow
def test_shards_of_another_schema_version_are_not_resumed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    base = ["--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--workers", "1"]
    assert run_cli(*base).returncode == 0
    state = out / writing.WORK_DIR / writing.ARGS_FILE
    identity = json.loads(state.read_text())
    assert (identity["shards"]["schema"], identity["shards"]["warp"]) == (schema.SCHEMA_VERSION, wp.config.version)
    identity["shards"]["schema"] = "0.1"  # as an older release of this tool would have left it
    state.write_text(json.dumps(identity))
    proc = run_cli(*base)
    assert proc.returncode == 2 and "another schema or Warp version" in proc.stderr
    assert run_cli(*base, "--overwrite").returncode == 0
    assert json.loads(state.read_text())["shards"]["schema"] == schema.SCHEMA_VERSION


@pytest.mark.slow
def test_a_work_folder_we_did_not_make_is_never_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / ".build").mkdir(parents=True)
    (out / ".build" / "theirs.txt").write_text("keep")
    proc = run_cli("--out", str(out), "--target-mb", "0.01", "--seeds-per-shard", "4", "--overwrite")
    assert proc.returncode == 2 and "did not write (.build)" in proc.stderr
    assert (out / ".build" / "theirs.txt").read_text() == "keep"
