import math

import numpy as np
import warp as wp

BIG = math.inf
LOWEST = -float("inf")


@wp.kernel
def row_min(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    best = BIG
    for j in range(m.shape[1]):
        best = wp.min(best, m[i, j])
    out[i] = best


@wp.kernel
def clip_neg_inf(a: wp.array(dtype=float), floor: float):
    i = wp.tid()
    if a[i] == LOWEST or a[i] < -wp.inf:
        a[i] = floor


m = wp.array(np.random.default_rng(1).random((4, 5)).astype(np.float32))
out = wp.zeros(4, dtype=float)
wp.launch(row_min, dim=4, inputs=[m, out])
a = wp.array(np.array([1.0, -np.inf, 2.0], dtype=np.float32))
wp.launch(clip_neg_inf, dim=3, inputs=[a, -100.0])
print(out.numpy(), a.numpy())
