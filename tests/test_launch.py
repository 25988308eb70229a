"""Launch records: seeded inputs rebuild identically, and the kernel really runs on Warp's CPU."""

from __future__ import annotations

import json

import numpy as np
import pytest

from warp_cuda_ir import launch

SOURCE = """import warp as wp

@wp.struct
class Params:
    scale: float
    offset: wp.vec3

@wp.kernel
def move(x: wp.array(dtype=wp.vec3), n: wp.array(dtype=wp.int32), out: wp.array(dtype=float), p: Params, k: float):
    i = wp.tid()
    y = x[i] * p.scale + p.offset
    out[i] = wp.length(y) * k + float(n[i])
"""


def make_row(seed: int = 7, n: int = 32) -> dict:
    def arg(name: str, kind: str, dtype: str, shape: list[int], role: str, init: dict) -> dict:
        return {"name": name, "kind": kind, "dtype": dtype, "shape": shape, "role": role, "init": json.dumps(init)}

    return {
        "seed": seed,
        "kernel_name": "move",
        "python_source": SOURCE,
        "launch_dim": [n],
        "arguments": [
            arg("x", "array", "vec3", [n], "in", {"dist": "uniform", "low": -1, "high": 1}),
            arg("n", "array", "int32", [n], "in", {"dist": "randint", "low": 0, "high": 5}),
            arg("out", "array", "float32", [n], "out", {"dist": "zeros"}),
            arg(
                "p", "struct", "Params", [], "in", {"fields": {"scale": {"value": 2.0}, "offset": {"value": [1, 0, 0]}}}
            ),
            arg("k", "scalar", "float32", [], "in", {"value": 0.5}),
        ],
    }


def test_kernel_runs_and_matches_numpy() -> None:
    row = make_row()
    outputs = launch.run_row(row)
    x, n = outputs["x"], outputs["n"]
    assert x.shape == (32, 3) and n.dtype == np.int32 and 0 <= n.min() and n.max() < 5
    expected = np.linalg.norm(x * 2.0 + np.array([1, 0, 0]), axis=1) * 0.5 + n
    np.testing.assert_allclose(outputs["out"], expected, rtol=1e-5)


def test_inputs_depend_only_on_the_seed() -> None:
    a, b, c = launch.run_row(make_row(7)), launch.run_row(make_row(7)), launch.run_row(make_row(8))
    np.testing.assert_array_equal(a["x"], b["x"])
    assert not np.array_equal(a["x"], c["x"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dtype": "vec9z"}, "unknown dtype 'vec9z'"),
        ({"init": json.dumps({"dist": "cauchy"})}, "unknown distribution 'cauchy'"),
        ({"kind": "texture"}, "unknown argument kind 'texture'"),
    ],
)
def test_bad_launch_records_are_reported(change: dict, message: str) -> None:
    row = make_row()
    row["arguments"][0] = {**row["arguments"][0], **change}
    with pytest.raises(launch.LaunchError, match=message):
        launch.run_row(row)


TILE_SOURCE = """import warp as wp

@wp.kernel
def centre(x: wp.array(dtype=float), out: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=16, offset=i * 16)
    c = t - wp.tile_broadcast(wp.tile_max(t), shape=(16,))
    wp.tile_store(out, c, offset=i * 16)
    wp.tile_atomic_add(total, wp.tile_sum(c), offset=0)
"""


def test_tile_row_is_launched_tiled_once_per_tile() -> None:
    """`launch_tiled`: launch_dim counts tiles; each tile's block adds into `total` once (CPU: 1-thread blocks)."""
    arg = {"kind": "array", "dtype": "float32"}
    row = {
        "seed": 3,
        "kernel_name": "centre",
        "python_source": TILE_SOURCE,
        "launch_dim": [4],
        "block_dim": 64,
        "launch_tiled": True,
        "arguments": [
            {**arg, "name": "x", "shape": [64], "role": "in", "init": json.dumps({"dist": "uniform"})},
            {**arg, "name": "out", "shape": [64], "role": "out", "init": json.dumps({"dist": "zeros"})},
            {**arg, "name": "total", "shape": [1], "role": "inout", "init": json.dumps({"dist": "zeros"})},
        ],
    }
    outputs = launch.run_row(row)
    tiles = outputs["x"].reshape(4, 16)
    expected = tiles - tiles.max(axis=1, keepdims=True)
    np.testing.assert_allclose(outputs["out"], expected.ravel(), rtol=1e-6)
    np.testing.assert_allclose(outputs["total"], [expected.sum()], rtol=1e-5)
    assert launch.block_dim(row, "cpu") == 1 and launch.block_dim({"launch_dim": [4]}, "cpu") == 1
