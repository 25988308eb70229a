"""The machine cache: where it lives, bad entries and folders, concurrent writers."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.executor_items import write_cache_entry
from warp_cuda_ir.cache import CACHE_ENV, Cache, default_root, key_of
from warp_cuda_ir.engines import get_executor


def test_root_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_root() == tmp_path / "xdg" / "warp_cuda_ir"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "moved"))
    assert default_root() == tmp_path / "moved"
    assert Cache.from_options(tmp_path / "flag").root == tmp_path / "flag"
    assert not Cache.from_options(tmp_path / "flag", no_cache=True).enabled


def test_an_entry_is_read_back_under_its_key_only(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    cache.put("harvest", key_of("pkg", "1.0"), {"records": [1, 2]})
    assert Cache(tmp_path).get("harvest", key_of("pkg", "1.0")) == {"records": [1, 2]}
    assert cache.get("harvest", key_of("pkg", "1.1")) is None  # another version: another key
    assert cache.get("capture", key_of("pkg", "1.0")) is None


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty"])
def test_a_damaged_entry_is_recomputed_with_one_warning(tmp_path: Path, damage: str) -> None:
    warned: list[str] = []
    cache = Cache(tmp_path, warned.append)
    key = key_of("x")
    cache.put("replays", key, {"verdict": "equal", "detail": ""})
    path = cache.path("replays", key)
    assert path is not None
    data = path.read_bytes()
    path.write_bytes({"truncate": data[:-3], "flip": data[:-1] + bytes([data[-1] ^ 1]), "empty": b""}[damage])
    assert cache.get("replays", key) is None and cache.get("replays", key) is None
    assert len(warned) == 1 and "truncated or corrupted: recomputing it" in warned[0]
    cache.put("replays", key, {"verdict": "equal", "detail": ""})
    assert cache.get("replays", key) == {"verdict": "equal", "detail": ""}


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_unwritable_cache_warns_once_and_goes_on(tmp_path: Path) -> None:
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        _check_unwritable(Cache(tmp_path / "cache"))
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_a_cache_that_is_a_file_warns_once_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("not a folder")  # fails as an unwritable or full folder does, even as root
    warned: list[str] = []
    _check_unwritable(Cache(tmp_path / "cache", warned.append), warned)


def test_a_cache_under_a_file_is_turned_off_before_any_worker_reads_it(tmp_path: Path) -> None:
    """`WARP_CUDA_IR_CACHE` under a file: the build's own copy is off from the start, and a worker's copy
    (which reads before it writes) says so once, not once per entry (128 lines on a 128-row pass)."""
    (tmp_path / "afile").write_text("")
    warned: list[str] = []
    root = tmp_path / "afile" / "cache"
    opened = Cache.from_options(root)
    assert not opened.enabled
    worker = Cache(root, warned.append)
    assert [worker.get("validation", key_of(n)) for n in range(5)] == [None] * 5
    assert not worker.enabled and len(warned) == 1 and "going on without caching" in warned[0]


def _check_unwritable(cache: Cache, warned: list[str] | None = None) -> None:
    cache.put("harvest", "k1", 1)
    cache.put("harvest", "k2", 2)
    assert cache.get("harvest", "k1") is None and not cache.enabled
    assert cache.folder("warp-kernels") is None
    if warned is not None:
        assert len(warned) == 1 and "going on without caching" in warned[0]


def test_concurrent_writers_of_one_key_leave_a_valid_entry(tmp_path: Path) -> None:
    with get_executor("local", 2) as executor:
        outcomes = list(executor.map(write_cache_entry, [(str(tmp_path), n) for n in range(8)]))
    assert all(o.status == "ok" for o in outcomes)
    assert Cache(tmp_path).get("capture", "shared") == list(range(200_000))
    assert [p.name for p in (tmp_path / "capture").rglob("*") if p.is_file()] == ["shared"]  # no temp files left


@pytest.mark.slow
def test_a_second_build_into_another_folder_reuses_the_harvest(tmp_path: Path) -> None:
    from warp_cuda_ir.build import run_build
    from warp_cuda_ir.record import BuildOptions
    from warp_cuda_ir.shards import BuildSpec

    kernels = Path(__file__).parent / "data" / "harvest" / "kernels"
    harvested: list[list[tuple[str, int, int]]] = []
    rows = []
    for out in ("first", "second"):
        harvested.append([])
        options = BuildOptions(
            out=tmp_path / out,
            spec=BuildSpec(seed=0, seeds_per_shard=8),
            target_mb=0.01,
            workers=2,
            real=(str(kernels),),
            cache_dir=tmp_path / "cache",
        )
        result = run_build(options, on_harvest=lambda *progress: harvested[-1].append(progress))
        rows.append(result.real.rows if result.real else 0)
    assert harvested[0] and not harvested[1], "the second build harvested again"
    assert rows[0] == rows[1] > 0
    assert (tmp_path / "first" / "README.md").read_bytes().count(b"real") > 0
    first = sorted(p.relative_to(tmp_path / "first") for p in (tmp_path / "first" / "data").rglob("*.parquet"))
    second = sorted(p.relative_to(tmp_path / "second") for p in (tmp_path / "second" / "data").rglob("*.parquet"))
    assert first == second
    assert all((tmp_path / "first" / p).read_bytes() == (tmp_path / "second" / p).read_bytes() for p in first), (
        "same inputs and cache: same rows"
    )
