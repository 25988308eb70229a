"""Factories picked by name with getattr(module, f"make_{kind}"), and a nested comprehension with a filter."""

import sys

import numpy as np
import warp as wp


def make_relu(slope):
    @wp.kernel
    def relu_k(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.where(x[i] > 0.0, x[i], slope * x[i])

    return relu_k


def make_band(lo, hi):
    @wp.kernel
    def band(x: wp.array(dtype=float), m: wp.array(dtype=int)):
        i = wp.tid()
        m[i] = wp.where(x[i] >= lo and x[i] < hi, 1, 0)

    return band


KINDS = {"relu": (0.1,)}
EDGES = [0.0, 0.5, 1.0]

this = sys.modules[__name__]
ACTS = {kind: getattr(this, f"make_{kind}")(*params) for kind, params in KINDS.items()}
BANDS = [make_band(lo, hi) for lo in EDGES for hi in EDGES if lo < hi]

x = wp.array(np.linspace(-1, 1, 8, dtype=np.float32))
wp.launch(ACTS["relu"], dim=8, inputs=[x])
m = wp.zeros(8, dtype=int)
for k in BANDS:
    wp.launch(k, dim=8, inputs=[x, m])
print(x.numpy(), m.numpy())
