"""Scale: a build killed mid-way resumes to the same rows; output to an fsspec URL; bad input."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.helpers import ROOT, assert_publishable, build, remote_data_tables, run_cli
from warp_cuda_ir import rows, writing
from warp_cuda_ir.engines import get_executor, temp_env
from warp_cuda_ir.errors import OutputFolderError
from warp_cuda_ir.feed import ShardFeed, shard_engine
from warp_cuda_ir.record import BuildRecord
from warp_cuda_ir.shards import BuildSpec, ShardCache
from warp_cuda_ir.synthesis import KernelProgram

# ~20 shards of 8 seeds: enough that the kill lands while shards are still being generated.
KILL_SPEC = BuildSpec(seed=500, seeds_per_shard=8)
KILL_TARGET_MB = 4.0  # about 8 shards of 8 rows: the kill lands after 2-6 of them


def data_tables(out: Path) -> dict[str, pa.Table]:
    """Every Parquet file of a build by name: equal dicts mean the same files with the same rows."""
    return {p.relative_to(out).as_posix(): pq.read_table(p) for p in writing.all_data_files(out)}


def assert_same_data(a: dict[str, pa.Table], b: dict[str, pa.Table]) -> None:
    assert a.keys() == b.keys() and a
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.mark.slow
def test_a_killed_build_resumes_to_the_rows_of_an_uninterrupted_one(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    args = ["--real", "none", "--out", str(out), "--target-mb", str(KILL_TARGET_MB), "--seed", str(KILL_SPEC.seed)]
    args += ["--seeds-per-shard", str(KILL_SPEC.seeds_per_shard), "--workers", "2", "--no-validate"]
    shards = out / writing.WORK_DIR / "shards"
    kill_after = random.Random().randint(2, 6)  # a different moment each run; any moment must work
    # The killed build's temporary folder is the test's: a SIGKILL leaves its workers' folder behind, which
    # would otherwise gather in the machine's /tmp, one per run.
    (tmp_path / "tmp").mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "build.py"), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill takes the pool workers too
        env={**os.environ, **temp_env(tmp_path / "tmp")},
    )
    try:
        deadline = time.monotonic() + 240
        while len(list(shards.glob("shard-*[0-9].parquet"))) < kill_after:
            assert proc.poll() is None, "the build ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not (out / writing.CARD).exists(), "killed after it finished: the test proves nothing"
    finished = sorted(p.name for p in shards.glob("shard-*[0-9].parquet"))

    # What a kill can leave at worse moments: a half-written shard and half-prepared builder output.
    bogus = pa.table({"junk": [1, 2, 3]})
    pq.write_table(bogus, shards / f".shard-{len(finished):05d}.parquet.999.tmp")
    for stale in ("prepared", "prepared.incomplete"):
        (out / writing.WORK_DIR / stale).mkdir(exist_ok=True)
        pq.write_table(bogus, out / writing.WORK_DIR / stale / "warp_cuda_ir-train-00009-of-00010.parquet")
    mtimes = {name: (shards / name).stat().st_mtime_ns for name in finished}

    proc2 = run_cli(*args)
    assert proc2.returncode == 0, proc2.stderr
    assert "(resumed)" in proc2.stdout
    assert {name: (shards / name).stat().st_mtime_ns for name in finished} == mtimes, "finished shards redone"
    assert not list(shards.glob(".*.tmp"))

    uninterrupted = build(tmp_path / "whole", KILL_SPEC, KILL_TARGET_MB, workers=1)
    assert_same_data(data_tables(out), data_tables(uninterrupted.out))
    resumed, whole = BuildRecord.load(out), BuildRecord.load(uninterrupted.out)
    assert resumed is not None and whole is not None and resumed.files == whole.files
    assert_publishable(out)


TINY_SPEC = BuildSpec(seed=3, seeds_per_shard=4)


def test_each_shard_is_handed_to_the_builder_before_the_next_is_generated(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Seed 9 repeats seed 4's program, one shard later: the feed must drop it by the time shard 1 is handed out.
    real = rows.synthesize

    def seed_9_repeats_seed_4(seed: int, categories: tuple[str, ...]) -> KernelProgram:
        return real(4 if seed == 9 else seed, categories)

    monkeypatch.setattr(rows, "synthesize", seed_9_repeats_seed_4)  # one worker runs in this process
    events: list[tuple[str, int]] = []
    feed = ShardFeed(
        TINY_SPEC,
        str(tmp_path),
        shard_engine(get_executor("local", 1)),
        workers=1,
        num_shards=3,
        on_shard=lambda s: events.append(("made", s.index)),
    )
    for index in feed:
        events.append(("handed", index))
        assert (9 in feed.dropped) == (index >= 1)
    assert events == [("made", 0), ("handed", 0), ("made", 1), ("handed", 1), ("made", 2), ("handed", 2)]
    assert list(feed) == [0, 1, 2] and feed.num_shards == 3, "later passes replay the same shards"
    assert feed.dropped == {9} and 9 in ShardCache(tmp_path).read(1, ["seed"]).column("seed").to_pylist()


def test_a_failure_during_generation_reaches_the_caller_as_itself(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def explode(seed: int, categories: tuple[str, ...]) -> KernelProgram:
        raise RuntimeError(f"generator bug at seed {seed}")

    monkeypatch.setattr(rows, "synthesize", explode)
    with pytest.raises(RuntimeError, match="generator bug at seed 3"):  # not datasets' DatasetGenerationError
        build(tmp_path / "out", TINY_SPEC, 0.01, workers=1)
    assert not (tmp_path / "out" / writing.CARD).exists() and not (tmp_path / "out" / writing.DATA_DIR).exists()


def test_generation_workers_never_import_datasets() -> None:
    # `datasets` takes about a second to import: every pool worker would pay it at start-up. A shard
    # worker imports the executor and the module of the function it runs (the feed's).
    code = (
        "import sys, warp_cuda_ir.engines.local, warp_cuda_ir.feed; "
        "print(sorted(m for m in ('datasets', 'pandas') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.strip() == "[]"


@pytest.mark.slow
def test_output_to_an_fsspec_url_is_built_in_staging_then_copied(tmp_path: Path) -> None:
    url = "memory://warp_cuda_ir_test/tiny"
    local = build(tmp_path / "local", TINY_SPEC, 0.01, workers=1)
    staging = tmp_path / "staging"
    result = build(url, TINY_SPEC, 0.01, workers=1, staging=staging)
    assert result.out == url and not staging.exists(), "staging is removed once copied"
    fs = fsspec.filesystem("memory")
    assert_same_data(remote_data_tables(url), data_tables(local.out))
    assert fs.exists(f"{url}/{writing.CARD}") and fs.exists(f"{url}/{writing.MANIFEST}")

    with pytest.raises(OutputFolderError, match="a different build"):
        build(url, BuildSpec(seed=4, seeds_per_shard=4), 0.01, workers=1, staging=staging)
    assert not staging.exists(), "refused before anything was staged"
    fs.pipe_file(f"{url}/notes.txt", b"mine")
    with pytest.raises(OutputFolderError, match=r"did not write \(notes.txt\)"):
        build(url, TINY_SPEC, 0.01, workers=1, staging=staging, overwrite=True)
    assert fs.cat_file(f"{url}/notes.txt") == b"mine"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "-3"], "must be a positive integer"),
        (["--out", "nope://bucket/x"], "cannot write to nope://bucket/x: Protocol not known"),
        (["--out", "/proc/warp_cuda_ir/x"], "cannot create --out"),
        (["--ray-address", "127.0.0.1:1"], "--ray-address needs --engine ray"),
    ],
)
def test_bad_scale_arguments_fail_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    staging = tmp_path / "staging"
    proc = run_cli("--out", str(tmp_path / "out"), "--staging", str(staging), "--target-mb", "0.01", *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]  # argparse's own refusals print the usage above it
    assert message in last and "error: " in last
    assert not (tmp_path / "out").exists() and not staging.exists()
