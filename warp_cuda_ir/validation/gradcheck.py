"""Gradient check: the adjoint from `wp.Tape` against central finite differences.

The loss is a seeded weighted sum of the float outputs; its gradient with respect to sampled
elements of the float inputs comes once from the tape and once from (L(x+h) - L(x-h)) / 2h.
The check runs in float64 when the kernel still compiles with every float type widened
(float -> float64, vec3 -> vec3d, literals wrapped), because finite differences in float32
are only good to ~1e-3; otherwise it runs in float32 with a tolerance to match.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, warp_session
from warp_cuda_ir.errors import one_line
from warp_cuda_ir.warp_session import captured_stderr

SAMPLES_PER_INPUT = 4
# (step, tolerance on |adjoint - fd| / max(1, |fd|)) per precision.
SETTINGS = {"float64": (1e-6, 1e-5), "float32": (1e-3, 2e-2)}

_WIDER = {
    "float32": "float64",
    "float16": "float64",
    **{f"vec{n}": f"vec{n}d" for n in (2, 3, 4)},
    **{f"mat{n}{n}": f"mat{n}{n}d" for n in (2, 3, 4)},
    "quat": "quatd",
    "transform": "transformd",
    "spatial_vector": "spatial_vectord",
    "spatial_matrix": "spatial_matrixd",
}
_FLOAT_KINDS = (np.float16, np.float32, np.float64)


@dataclass
class GradCheck:
    status: str  # "ok" | "mismatch" | "error" | "skipped"
    max_error: float | None
    dtype: str | None
    detail: str | None


class _Widen(ast.NodeTransformer):
    """float32 types -> float64 ones, float literals -> wp.float64(literal)."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return _wp_attr("float64") if node.id == "float" else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in _WIDER:
            return _wp_attr(_WIDER[node.attr])
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, float):
            return ast.Call(_wp_attr("float64"), [node], [])
        return node


def _wp_attr(name: str) -> ast.Attribute:
    return ast.Attribute(ast.Name("wp", ast.Load()), name, ast.Load())


def widen_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with its source and launch record moved to float64."""
    tree = _Widen().visit(ast.parse(row["python_source"]))
    source = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    arguments = [
        dict(a, dtype=_WIDER.get("float32" if a["dtype"] == "float" else a["dtype"], a["dtype"]))
        for a in row["arguments"]
    ]
    return dict(row, python_source=source, arguments=arguments)


def _is_float(array: Any) -> bool:
    return wp.dtype_to_numpy(getattr(array.dtype, "_wp_scalar_type_", array.dtype)) in _FLOAT_KINDS


def check(row: Mapping[str, Any]) -> GradCheck:
    """Gradient check of the row's kernel on the CPU, float64 if possible."""
    if not row.get("cuda_backward") and not row.get("cpu_backward"):
        return GradCheck("skipped", None, None, "kernel has no adjoint (enable_backward=False)")
    try:
        # Clang prints its errors for a source that does not widen; they are expected, not news.
        with captured_stderr():
            return _check(widen_row(row), "float64")
    except Exception:
        pass  # the kernel does not compile or launch in float64 (e.g. int casts): float32 it is
    try:
        return _check(row, "float32")
    except Exception as e:
        return GradCheck("error", None, "float32", f"{type(e).__name__}: {one_line(e)}")


def _check(row: Mapping[str, Any], precision: str) -> GradCheck:
    step, tolerance = SETTINGS[precision]
    roles = {a["name"]: a["role"] for a in row["arguments"]}
    with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
        taped = launch.prepare(row, kernel, namespace, "cpu", requires_grad=True)
        arrays = taped.arrays()
        ins = [n for n, a in arrays.items() if roles[n] == "in" and _is_float(a)]
        outs = [n for n, a in arrays.items() if roles[n] in ("out", "inout") and _is_float(a)]
        if not ins or not outs:
            return GradCheck("skipped", None, precision, "no float input and float output arrays to differentiate")
        rng = np.random.default_rng([int(row.get("seed") or 0), 1_000_003])  # real rows: no seed
        weights = {n: rng.uniform(0.5, 1.5, arrays[n].numpy().shape) for n in outs}

        tape = wp.Tape()
        with tape:
            launch.start(taped, "cpu")
        tape.backward(
            grads={
                arrays[n]: wp.array(weights[n], dtype=arrays[n].dtype, shape=arrays[n].shape, device="cpu")
                for n in outs
            }
        )
        adjoint = {n: arrays[n].grad.numpy().copy() for n in ins}

        def loss(name: str, index: tuple[int, ...], delta: float) -> tuple[float, float]:
            """(loss, the input value actually used) with one input element moved by `delta`."""
            fresh = launch.prepare(row, kernel, namespace, "cpu")
            view = fresh.arrays()[name].numpy()  # CPU arrays: numpy() is a view
            view[index] += delta
            moved = float(view[index])  # after rounding to the array's precision
            after = launch.run(fresh, "cpu")
            return float(sum(np.sum(after[n].astype(np.float64) * weights[n]) for n in outs)), moved

        worst, where = 0.0, ""
        for name in ins:
            values = arrays[name].numpy()
            for flat in rng.choice(values.size, min(SAMPLES_PER_INPUT, values.size), replace=False):
                index = np.unravel_index(int(flat), values.shape)
                h = step * max(1.0, abs(float(values[index])))
                (up, x_up), (down, x_down) = loss(name, index, h), loss(name, index, -h)
                fd = (up - down) / (x_up - x_down)
                error = abs(float(adjoint[name][index]) - fd) / max(1.0, abs(fd))
                if not np.isfinite(error) or error > worst:
                    worst, where = error, f"{name}{list(index)}: adjoint {float(adjoint[name][index]):.6g}, fd {fd:.6g}"
    if not np.isfinite(worst) or worst > tolerance:
        return GradCheck("mismatch", worst, precision, where)
    return GradCheck("ok", worst, precision, None)
