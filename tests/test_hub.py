"""Publishing, tested at our seam: a recording Hub client receives exactly one commit.

There is no Hub server here (HF_HUB_OFFLINE=1); the real `HfApi` is only reached in the
subprocess tests, where offline mode stands in for a network failure.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, DatasetCard
from huggingface_hub.errors import HfHubHTTPError

from tests.helpers import ROOT, copy_build, run_script
from warp_cuda_ir import card, hub, readback, schema, writing
from warp_cuda_ir.build import BuildResult
from warp_cuda_ir.record import BuildRecord


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


push_to_hub = load_script("push_to_hub")

REPO = "alice/warp_cuda_ir"
SECRET = "hf_NotARealTokenButSecret123"


class RecordingHub:
    """Records calls as `HfApi` would receive them; `fail` makes `create_commit` raise it."""

    def __init__(self, remote: Iterable[str] = (), fail: BaseException | None = None) -> None:
        self.remote = list(remote)
        self.fail = fail
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.commits: list[list[CommitOperationAdd | CommitOperationDelete]] = []

    def create_repo(self, repo_id: str, **kwargs: Any) -> str:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        return f"https://huggingface.co/datasets/{repo_id}"

    def create_branch(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_branch", {"repo_id": repo_id, **kwargs}))

    def list_repo_files(self, repo_id: str, **kwargs: Any) -> list[str]:
        self.calls.append(("list_repo_files", {"repo_id": repo_id, **kwargs}))
        return self.remote

    def create_commit(self, repo_id: str, operations: Iterable[Any], **kwargs: Any) -> SimpleNamespace:
        self.calls.append(("create_commit", {"repo_id": repo_id, **kwargs}))
        if self.fail:
            raise self.fail
        self.commits.append(list(operations))
        return SimpleNamespace(commit_url=f"https://huggingface.co/datasets/{repo_id}/commit/abc123")


class RefusingHub(RecordingHub):
    """For the dry run: any call at all is a failure."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("create_repo", "create_branch", "list_repo_files", "create_commit"):
            raise AssertionError(f"dry run called {name}")
        return super().__getattribute__(name)


def dataset_files(out: Path) -> list[str]:
    record = BuildRecord.load(out)
    assert record is not None
    return sorted(record.owned())


def materialize(operations: list[Any], folder: Path) -> Path:
    """What the repo holds after the commit, as a local folder."""
    for op in operations:
        assert isinstance(op, CommitOperationAdd)
        target = folder / op.path_in_repo
        target.parent.mkdir(parents=True, exist_ok=True)
        source = op.path_or_fileobj
        target.write_bytes(source if isinstance(source, bytes) else Path(source).read_bytes())
    return folder


def test_push_sends_the_dataset_files_in_one_commit(
    small_build: BuildResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Shards of an earlier push (the layout before 1.3, and a differently sharded one) are deleted.
    stale = ["data/synthetic/train-00001-of-00002.parquet", "data/train-00000-of-00002.parquet"]
    kept = [".gitattributes", "notes.md", "data/extra.csv"]
    api = RecordingHub(remote=[*stale, *kept, "data/synthetic/test-00000-of-00001.parquet"])

    assert push_to_hub.main([str(small_build.out), "--repo", REPO], api=api) == 0

    assert [name for name, _ in api.calls] == ["create_repo", "list_repo_files", "create_commit"]
    assert api.calls[0][1] == {"repo_id": REPO, "repo_type": "dataset", "private": False, "exist_ok": True}
    assert api.calls[2][1]["repo_type"] == "dataset" and api.calls[2][1]["revision"] is None
    assert len(api.commits) == 1
    (operations,) = api.commits
    added = [op for op in operations if isinstance(op, CommitOperationAdd)]
    deleted = [op.path_in_repo for op in operations if isinstance(op, CommitOperationDelete)]
    assert sorted(op.path_in_repo for op in added) == dataset_files(small_build.out)
    assert sorted(deleted) == stale  # old shards the configs would read; nothing else is touched
    assert not any(p.endswith(".py") or p.startswith(writing.WORK_DIR) for p in (op.path_in_repo for op in added))

    out = capsys.readouterr().out
    assert "loads with every config" in out and f"{REPO}/commit/abc123" in out


def test_pushed_repo_loads_with_every_config(small_build: BuildResult, tmp_path: Path) -> None:
    api = RecordingHub()
    hub.push(hub.plan(small_build.out, REPO), api)
    repo = materialize(api.commits[0], tmp_path / "repo")
    uploaded = DatasetCard.load(repo / "README.md")
    on_disk = DatasetCard.load(small_build.out / "README.md")
    assert uploaded.data.to_dict() == on_disk.data.to_dict()  # only the load examples change
    assert f'load_dataset("{REPO}", "cuda_forward")' in uploaded.text
    for config in [c for c in schema.CONFIGS if c.source != "real"]:  # the small build has no real rows
        ds = datasets.load_dataset(str(repo), config.name, cache_dir=str(tmp_path / "cache"))
        assert {s: ds[s].num_rows for s in ds} == small_build.rows_per_split
        assert ds["train"].column_names == list(config.columns)


def test_options_reach_the_hub_client(small_build: BuildResult) -> None:
    api = RecordingHub()
    upload = hub.plan(small_build.out, REPO)
    hub.push(upload, api, private=True, revision="v1", commit_message="first release")
    calls = dict(api.calls)
    assert calls["create_repo"]["private"] is True
    assert calls["create_branch"] == {"repo_id": REPO, "branch": "v1", "repo_type": "dataset", "exist_ok": True}
    assert calls["list_repo_files"]["revision"] == "v1"
    assert calls["create_commit"]["revision"] == "v1"
    assert calls["create_commit"]["commit_message"] == "first release"


def test_dry_run_lists_exactly_the_upload_and_changes_nothing(
    small_build: BuildResult, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p: p.stat().st_mtime_ns for p in small_build.out.rglob("*")}
    argv = [str(small_build.out), "--repo", REPO, "--dry-run"]
    assert push_to_hub.main(argv, api=RefusingHub()) == 0
    listed = [
        line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ") and "bytes" in line
    ]
    assert listed == dataset_files(small_build.out)
    assert {p: p.stat().st_mtime_ns for p in small_build.out.rglob("*")} == before


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (ConnectionError("Connection reset by peer"), "no partial commit was made"),
        (HfHubHTTPError.__bases__[0]("read timed out"), "run the same command again to retry"),
        (
            HfHubHTTPError(
                f"401 bad token {SECRET}", response=SimpleNamespace(status_code=401, headers={}, request=None)
            ),
            "(401)",
        ),
        (HfHubHTTPError("403", response=SimpleNamespace(status_code=403, headers={}, request=None)), "no write access"),
    ],
)
def test_failure_during_the_commit_is_one_line(small_build: BuildResult, error: Exception, message: str) -> None:
    upload = hub.plan(small_build.out, REPO)
    with pytest.raises(hub.PublishError) as raised:
        hub.push(upload, RecordingHub(fail=error), token=SECRET)
    text = str(raised.value)
    assert message in text and "\n" not in text and SECRET not in text


def test_remote_dataset_script_is_refused(small_build: BuildResult) -> None:
    api = RecordingHub(remote=["warp_cuda_ir.py", "README.md"])
    with pytest.raises(hub.PublishError, match="dataset script at its root"):
        hub.push(hub.plan(small_build.out, REPO), api)
    assert api.commits == []


def test_folder_whose_card_does_not_match_is_refused(small_build: BuildResult, tmp_path: Path) -> None:
    out = copy_build(small_build, tmp_path)
    train = out / "data" / "synthetic" / "train-00000-of-00001.parquet"
    pq.write_table(pq.read_table(train).slice(5), train)  # rows removed after the card was rendered
    n = small_build.rows_per_split["train"]
    with pytest.raises(
        hub.PublishError, match=rf"does not match the files: .*\(train: card {n:,} rows, files {n - 5:,}\)"
    ):
        hub.plan(out, REPO)
    out = copy_build(small_build, tmp_path / "again")
    (out / "data" / "synthetic" / "train-99999-of-99999.parquet").write_bytes(b"not ours")
    with pytest.raises(hub.PublishError, match="was not written by the build"):
        hub.plan(out, REPO)


def clean_env(tmp_path: Path, token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")}
    env.update(HF_HOME=str(tmp_path / "hf_home"), HF_HUB_OFFLINE="1")  # no saved login; no network
    if token:
        env["HF_TOKEN"] = token
    return env


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "token", "message"),
    [
        (["--repo", "alice/bad name"], SECRET, "invalid repo id 'alice/bad name'"),
        (["--repo", "warp_cuda_ir"], SECRET, "expected ORG/NAME"),
        (["--repo", REPO], None, "no Hugging Face token"),
        (
            ["--repo", REPO],
            SECRET,
            "no partial commit was made (the upload is a single commit)",
        ),  # offline = network down
    ],
)
def test_bad_input_fails_in_one_line_without_leaking_the_token(
    small_build: BuildResult, tmp_path: Path, args: list[str], token: str | None, message: str
) -> None:
    result = run_script("push_to_hub", str(small_build.out), *args, env=clean_env(tmp_path, token))
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.stderr
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.slow
def test_not_a_build_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    result = run_script(
        "push_to_hub", str(tmp_path / "folder"), "--repo", REPO, "--dry-run", env=clean_env(tmp_path, None)
    )
    assert result.returncode != 0 and result.stderr.startswith("error: ") and "not a finished build" in result.stderr


@pytest.mark.slow
def test_build_refuses_a_bad_push_target_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_script("build", "--out", str(out), "--push-to-hub", "alice/", env=clean_env(tmp_path, SECRET))
    assert result.returncode != 0 and result.stderr.startswith("error: invalid repo id")
    result = run_script("build", "--out", str(out), "--push-to-hub", REPO, env=clean_env(tmp_path, None))
    assert result.returncode != 0 and "no Hugging Face token" in result.stderr
    assert not out.exists()


@pytest.mark.slow
def test_dry_run_with_a_token_never_shows_it(small_build: BuildResult, tmp_path: Path) -> None:
    result = run_script(
        "push_to_hub", str(small_build.out), "--repo", REPO, "--dry-run", env=clean_env(tmp_path, SECRET)
    )
    assert result.returncode == 0 and "nothing was changed" in result.stdout
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.slow
def test_build_then_push_reports_a_failed_push_after_a_complete_build(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["--out", str(out), "--target-mb", "0.001", "--seeds-per-shard", "10", "--workers", "1"]
    result = run_script("build", *args, "--push-to-hub", REPO, env=clean_env(tmp_path, SECRET))
    assert result.returncode != 0, result.stdout
    assert "loads with every config" in result.stdout  # the push checked the fresh build first
    (error,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "no partial commit was made" in error and f"the build itself is complete in {out}" in error
    assert SECRET not in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert (out / "README.md").exists()


def test_a_publish_reads_each_data_file_once(small_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[Path] = []
    reads: list[Path] = []

    class CountingParquet:
        """pyarrow.parquet as the read-back sees it, counting the data files it opens."""

        def __getattr__(self, name: str) -> Any:
            return getattr(pq, name)

        def ParquetFile(self, path: Path, *args: Any, **kwargs: Any) -> pq.ParquetFile:
            opened.append(Path(path))
            return pq.ParquetFile(path, *args, **kwargs)

    real_read_back = readback.read_back

    def counting_read_back(folder: Path) -> readback.Readback:
        reads.append(folder)
        return real_read_back(folder)

    monkeypatch.setattr(readback, "pq", CountingParquet())
    for module in (hub, card):
        monkeypatch.setattr(module, "read_back", counting_read_back)
    hub.publish(small_build.out, REPO, dry_run=True, say=lambda _: None)
    assert reads == [small_build.out]
    assert sorted(opened) == sorted(writing.all_data_files(small_build.out))  # each data file once
    # The rest of our publishing code never opens a Parquet file itself (load_dataset's own reads aside).
    assert not hasattr(hub, "pq") and not hasattr(card, "pq")
