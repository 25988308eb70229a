import math
import sys

import numpy as np
import warp as wp

MISSING = float("nan")
TINY32 = float(np.finfo(np.float32).tiny)


@wp.kernel
def safe_recip_eps(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i]
    if wp.abs(x) < wp.static(sys.float_info.epsilon):
        out[i] = 0.0
    else:
        out[i] = 1.0 / wp.max(x, TINY32)


@wp.kernel
def fill_missing(a: wp.array(dtype=float), mask: wp.array(dtype=int)):
    i = wp.tid()
    if mask[i] == 0:
        a[i] = MISSING
    if wp.isnan(a[i]):
        mask[i] = -1


if __name__ == "__main__":
    a = wp.array([0.0, 0.5, 2.0, math.pi], dtype=float)
    out = wp.zeros_like(a)
    wp.launch(safe_recip_eps, dim=4, inputs=[a, out])
    mask = wp.array([1, 0, 1, 0], dtype=int)
    wp.launch(fill_missing, dim=4, inputs=[a, mask])
    print(out.numpy(), a.numpy(), mask.numpy())
