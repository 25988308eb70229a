"""A range object and a bytes lookup table as globals, a tuple of tuples, read with wp.static."""

import numpy as np
import warp as wp

OFFSETS = range(-2, 3)
GAMMA_LUT = bytes([0, 1, 4, 9, 16, 25, 36, 49])
PAIRS = ((0, 1), (1, 2), (2, 0))


@wp.kernel
def wide_sum(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    acc = float(0.0)
    for k in range(wp.static(len(OFFSETS))):
        acc += x[wp.clamp(i + wp.static(OFFSETS[k]), 0, n - 1)]
    y[i] = acc


@wp.kernel
def lut_edges(codes: wp.array(dtype=int), tri: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    c = codes[i] % 8
    v = int(0)
    for k in range(wp.static(len(GAMMA_LUT))):
        if c == k:
            v = wp.static(GAMMA_LUT[k])
    e = float(0.0)
    for p in range(3):
        e += wp.abs(tri[i][wp.static(PAIRS[p][0])] - tri[i][wp.static(PAIRS[p][1])])
    out[i] = float(v) + e


x = wp.array(np.ones(8, dtype=np.float32))
y = wp.zeros(8, dtype=float)
wp.launch(wide_sum, dim=8, inputs=[x, y])
codes = wp.array(np.arange(4, dtype=np.int32))
tri = wp.array(np.arange(12, dtype=np.float32).reshape(4, 3), dtype=wp.vec3)
out = wp.zeros(4, dtype=float)
wp.launch(lut_edges, dim=4, inputs=[codes, tri, out])
print(y.numpy(), out.numpy())
