"""Factories called with **dict and *tuple, keyword-only parameters, kwargs.get defaults."""

import numpy as np
import warp as wp


def make_spring(*, stiffness, damping=0.1):
    @wp.kernel
    def spring(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -stiffness * x[i] - damping * v[i]

    return spring


def make_window(lo, hi, **kwargs):
    fill = kwargs.get("fill", 0.0)

    @wp.kernel
    def window(x: wp.array(dtype=float)):
        i = wp.tid()
        if x[i] < lo or x[i] > hi:
            x[i] = fill

    return window


SPRING = {"stiffness": 25.0, "damping": 0.3}
BOUNDS = (0.2, 0.8)

spring = make_spring(**SPRING)
window = make_window(*BOUNDS, fill=-1.0)

x = wp.array(np.linspace(0, 1, 8, dtype=np.float32))
v = wp.zeros(8, dtype=float)
f = wp.zeros(8, dtype=float)
wp.launch(spring, dim=8, inputs=[x, v, f])
wp.launch(window, dim=8, inputs=[x])
print(f.numpy()[:3], x.numpy())
