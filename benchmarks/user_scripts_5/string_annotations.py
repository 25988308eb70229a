from __future__ import annotations

import numpy as np
import warp as wp

Grid = wp.array(dtype=float, ndim=2)
Field3 = wp.array(dtype=wp.vec3, ndim=3)


@wp.kernel
def laplace_2d(u: wp.array(dtype=float, ndim=2), out: Grid):
    i, j = wp.tid()
    ni = u.shape[0]
    nj = u.shape[1]
    if i == 0 or j == 0 or i == ni - 1 or j == nj - 1:
        out[i, j] = 0.0
        return
    out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]


@wp.kernel
def curl_magnitude(f: Field3, out: wp.array(dtype=float, ndim=3)) -> None:
    i, j, k = wp.tid()
    out[i, j, k] = wp.length(f[i, j, k])


u = wp.array(np.random.rand(16, 16).astype(np.float32))
lap = wp.zeros((16, 16), dtype=float)
wp.launch(laplace_2d, dim=(16, 16), inputs=[u, lap])
f = wp.ones((4, 4, 4), dtype=wp.vec3)
mag = wp.zeros((4, 4, 4), dtype=float)
wp.launch(curl_magnitude, dim=(4, 4, 4), inputs=[f, mag])
print(lap.numpy().sum(), mag.numpy().max())
