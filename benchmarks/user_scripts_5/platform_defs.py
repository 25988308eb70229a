import sys

import numpy as np
import warp as wp

WARP_VERSION = tuple(int(p) for p in wp.__version__.split(".")[:2])

if sys.platform == "win32":

    @wp.kernel
    def fast_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[0] += x[i]  # races, but fine on my laptop

else:

    @wp.kernel
    def fast_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        wp.atomic_add(out, 0, x[i])


if WARP_VERSION >= (1, 5):

    @wp.kernel
    def normalize_rows(m: wp.array2d(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for j in range(m.shape[1]):
            s += m[i, j] * m[i, j]
        inv = 1.0 / wp.sqrt(s)
        for j in range(m.shape[1]):
            m[i, j] = m[i, j] * inv

if wp.__version__.startswith("0."):

    @wp.kernel
    def legacy_fill(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = 1.0


x = wp.array(np.arange(10, dtype=np.float32))
out = wp.zeros(1, dtype=float)
wp.launch(fast_sum, dim=10, inputs=[x, out])
m = wp.array(np.random.rand(4, 3).astype(np.float32))
wp.launch(normalize_rows, dim=4, inputs=[m])
print(out.numpy(), np.linalg.norm(m.numpy(), axis=1))
