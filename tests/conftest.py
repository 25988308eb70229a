"""Shared fixtures: one small real build, reused by the tests that only read it."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing in the suite may reach the Hub
os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
# load_dataset caches local folders by path, and pytest reuses tmp paths between runs:
# each session gets its own datasets cache so it never reads an earlier run's rows.
os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="warp_cuda_ir_hf_")

from warp_cuda_ir.build import BuildResult, run_build  # noqa: E402
from warp_cuda_ir.generation import BuildSpec  # noqa: E402

# 2 shards of 80 seeds: enough rows that every split is non-empty (checked by test_build).
SMALL_SPEC = BuildSpec(seed=0, seeds_per_shard=80)
SMALL_TARGET_MB = 0.6


@pytest.fixture(scope="session")
def small_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    out = tmp_path_factory.mktemp("build") / "warp_cuda_ir"
    return run_build(out, SMALL_SPEC, SMALL_TARGET_MB, workers=2)
