"""Shared fixtures: one small real build, reused by the tests that only read it."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing in the suite may reach the Hub
os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
# load_dataset caches local folders by path, and pytest reuses tmp paths between runs:
# each session gets its own datasets cache so it never reads an earlier run's rows.
os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="warp_cuda_ir_hf_")
# The machine cache likewise: tests never read or write the user's ~/.cache/warp_cuda_ir.
os.environ["WARP_CUDA_IR_CACHE"] = tempfile.mkdtemp(prefix="warp_cuda_ir_cache_")

from tests.helpers import SMALL_SPEC, SMALL_TARGET_MB, build
from warp_cuda_ir.build import BuildResult

_SESSION_FOLDERS = (os.environ["HF_DATASETS_CACHE"], os.environ["WARP_CUDA_IR_CACHE"])


@pytest.fixture(scope="session")
def small_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    out = tmp_path_factory.mktemp("build") / "warp_cuda_ir"
    return build(out, SMALL_SPEC, SMALL_TARGET_MB, workers=2)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's own caches go with it (each run made two more folders in the system's temp folder)."""
    for folder in _SESSION_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)
