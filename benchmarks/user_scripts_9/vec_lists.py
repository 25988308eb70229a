"""Lists of wp.vec3 and a dict keyed by tuples, read with wp.static inside unrolled loops."""

import numpy as np
import warp as wp

DIRS = [wp.vec3(1.0, 0.0, 0.0), wp.vec3(0.0, 1.0, 0.0), wp.vec3(0.0, 0.0, 1.0), wp.vec3(-1.0, 0.0, 0.0)]
STENCIL = {(-1, 0): 0.25, (1, 0): 0.25, (0, -1): 0.25, (0, 1): 0.25}
OFFSETS = list(STENCIL.keys())


@wp.kernel
def max_projection(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    best = float(-1.0e9)
    for k in range(wp.static(len(DIRS))):
        best = wp.max(best, wp.dot(p[i], wp.static(DIRS[k])))
    out[i] = best


@wp.kernel
def stencil_apply(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    i, j = wp.tid()
    n = a.shape[0]
    m = a.shape[1]
    acc = float(0.0)
    for k in range(wp.static(len(OFFSETS))):
        di = wp.static(OFFSETS[k][0])
        dj = wp.static(OFFSETS[k][1])
        ii = wp.clamp(i + di, 0, n - 1)
        jj = wp.clamp(j + dj, 0, m - 1)
        acc += wp.static(STENCIL[OFFSETS[k]]) * a[ii, jj]
    b[i, j] = acc


p = wp.array(np.random.default_rng(1).normal(size=(8, 3)).astype(np.float32), dtype=wp.vec3)
out = wp.zeros(8, dtype=float)
wp.launch(max_projection, dim=8, inputs=[p, out])
a = wp.array(np.eye(6, dtype=np.float32))
b = wp.zeros((6, 6), dtype=float)
wp.launch(stencil_apply, dim=(6, 6), inputs=[a, b])
print(out.numpy()[:3], b.numpy()[0])
