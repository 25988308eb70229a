"""Shared fixtures: one small real build, reused by the tests that only read it."""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def small_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    out = tmp_path_factory.mktemp("build") / "warp_cuda_ir"
    return build(out, SMALL_SPEC, SMALL_TARGET_MB, workers=2)
