"""The Ray engine on a local Ray instance: the same rows as the local engine, bad addresses."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import SMALL_SPEC, SMALL_TARGET_MB, build, read_rows, remote_data_tables, run_cli
from warp_cuda_ir.build import BuildResult

pytestmark = pytest.mark.slow
ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install '.[ray]'")
from warp_cuda_ir.engines import ray as ray_engine  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray_engine.connect(None, num_cpus=2)  # what `--engine ray` without an address does
    yield
    ray.shutdown()


def test_ray_engine_writes_the_local_engines_rows_to_a_url(
    local_ray: None, small_build: BuildResult, tmp_path: Path
) -> None:
    url = "memory://warp_cuda_ir_test/ray"
    result = build(url, SMALL_SPEC, SMALL_TARGET_MB, workers=2, engine="ray", staging=tmp_path / "staging")
    assert result.num_shards == small_build.num_shards and result.rows_per_split == small_build.rows_per_split
    copied = [r for table in remote_data_tables(url).values() for r in table.to_pylist()]
    assert {r["id"]: r for r in copied} == read_rows(small_build.out)


def test_a_ray_address_that_does_not_answer_fails_in_one_line(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = run_cli("--out", str(tmp_path / "out"), "--engine", "ray", "--ray-address", "127.0.0.1:1")
    assert time.monotonic() - started < 60  # generous: the bound is ray.CONNECT_TIMEOUT_S plus start-up
    assert proc.returncode == 2 and "error: no Ray cluster answers at 127.0.0.1:1" in proc.stderr
    assert proc.stderr.count("\n") == 1 and not (tmp_path / "out").exists()


def test_the_validation_pass_on_ray_writes_the_local_engines_files(local_ray: None, tmp_path: Path) -> None:
    """`scripts/validate.py --engine ray` on a local Ray instance: the same Parquet bytes as the local engine."""
    import hashlib
    import shutil

    from warp_cuda_ir.shards import BuildSpec
    from warp_cuda_ir.validation.pipeline import validate_dataset
    from warp_cuda_ir.validation.runner import PassOptions

    built = tmp_path / "built"
    build(built, BuildSpec(seed=7000, seeds_per_shard=6), 0.01, workers=2)
    digests = {}
    for engine in ("local", "ray"):
        out = tmp_path / engine
        shutil.copytree(built, out)
        options = PassOptions(workers=2, chunk_size=3, use_gpu=False, standalone=False, engine=engine, no_cache=True)
        result = validate_dataset(out, options)
        assert result.validated_now == result.rows > 0
        files = sorted((out / "data").rglob("*.parquet"))
        digests[engine] = {p.relative_to(out): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    assert digests["ray"] == digests["local"]


def test_ray_executor_blames_each_bad_item_alone(local_ray: None) -> None:
    from tests.executor_items import behave
    from warp_cuda_ir.engines import get_executor

    items = [("ok", 1), ("hang", 0), ("raise", 7), ("ok", 3), ("exit", 0)]
    with get_executor("ray", 2) as executor:
        list(executor.map(behave, [("ok", 0)] * 2))  # start the workers: a start-up counts against the limit
        got = {o.index: o for o in executor.map(behave, items, time_limit=20)}
    assert [got[i].status for i in range(len(items))] == ["ok", "timeout", "error", "ok", "crashed"]
    assert [got[0].value, got[3].value] == [1, 3]
    assert got[1].detail == "cut at the 20 s limit"
    assert got[2].detail == "ValueError: bad item 7 second line"
