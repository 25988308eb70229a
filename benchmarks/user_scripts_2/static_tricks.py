from __future__ import annotations

import warp as wp

N_TERMS = 6
COEFFS = [1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125]

Vec3 = wp.vec3
FloatArray = wp.array(dtype=float)


@wp.func
def op_add(a: float, b: float) -> float:
    return a + b


@wp.func
def op_mul(a: float, b: float) -> float:
    return a * b


OPS = [op_add, op_mul]


@wp.kernel
def poly_eval(x: FloatArray, y: FloatArray):
    i = wp.tid()
    s = float(0.0)
    p = float(1.0)
    for k in range(wp.static(N_TERMS)):
        s += wp.static(COEFFS[k]) * p
        p *= x[i]
    y[i] = s


@wp.kernel
def apply_ops(a: FloatArray, b: FloatArray, out: wp.array2d(dtype=float)):
    i = wp.tid()
    for k in range(wp.static(len(OPS))):
        out[k, i] = wp.static(OPS[k])(a[i], b[i])


@wp.kernel()
def center_of(points: wp.array(dtype=Vec3), out: wp.array(dtype=Vec3)) -> None:
    i = wp.tid()
    wp.atomic_add(out, 0, points[i] * (1.0 / float(points.shape[0])))
