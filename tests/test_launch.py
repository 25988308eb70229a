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
