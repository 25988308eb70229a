"""Globals made by globals()[name] = ... in a loop and by vars().update, read by kernels as plain names."""

import numpy as np
import warp as wp

for _i, _w in enumerate((0.2, 0.6, 0.2)):
    globals()[f"W{_i}"] = _w

vars().update({"SCALE": 3.0, "LIMIT": wp.constant(10.0)})


@wp.kernel
def three_tap(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    y[i] = W0 * x[wp.max(i - 1, 0)] + W1 * x[i] + W2 * x[wp.min(i + 1, n - 1)]  # noqa: F821


@wp.kernel
def scale_limit(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.min(x[i] * SCALE, LIMIT)  # noqa: F821


x = wp.array(np.arange(6, dtype=np.float32))
y = wp.zeros(6, dtype=float)
wp.launch(three_tap, dim=6, inputs=[x, y])
wp.launch(scale_limit, dim=6, inputs=[y])
print(y.numpy())
