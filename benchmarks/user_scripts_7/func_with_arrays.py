from typing import Any

import numpy as np
import warp as wp


@wp.func
def gather_mean(a: wp.array(dtype=Any), idx: wp.array(dtype=int), start: int, count: int):
    s = a.dtype(0.0)
    for k in range(count):
        s += a[idx[start + k]]
    return s / a.dtype(float(count))


@wp.func
def deposit(grid: wp.array2d(dtype=float), p: wp.vec2, w: float):
    i = int(p[0])
    j = int(p[1])
    wp.atomic_add(grid, i, j, w)


@wp.func
def one_like(x: Any):
    return type(x)(1.0)


@wp.kernel
def neighbor_means(a: wp.array(dtype=Any), idx: wp.array(dtype=int), out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = gather_mean(a, idx, i * 2, 2) + one_like(a[i])


@wp.kernel
def splat(pts: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float)):
    i = wp.tid()
    print(i)
    deposit(grid, pts[i], 1.0)


a = wp.array(np.arange(6, dtype=np.float64), dtype=wp.float64)
idx = wp.array(np.array([0, 1, 2, 3, 4, 5], dtype=np.int32))
out = wp.zeros(3, dtype=wp.float64)
wp.launch(neighbor_means, dim=3, inputs=[a, idx, out])
pts = wp.array(np.array([[0.5, 0.5], [1.5, 0.2]], dtype=np.float32), dtype=wp.vec2)
grid = wp.zeros((2, 2), dtype=float)
wp.launch(splat, dim=2, inputs=[pts, grid])
wp.synchronize()
print(out.numpy(), grid.numpy())
