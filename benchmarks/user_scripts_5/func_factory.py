# a factory that makes a wp.func and a kernel using it, keyed by name
import numpy as np
import warp as wp


def make_filter(name, width):
    @wp.func
    def tap(x: wp.array(dtype=float), i: int, k: int) -> float:
        j = wp.clamp(i + k, 0, x.shape[0] - 1)
        return x[j]

    @wp.kernel
    def box_filter(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(-width, width + 1):
            s += tap(x, i, k)
        y[i] = s / float(2 * width + 1)

    box_filter.key = f"box_filter_{name}"
    return box_filter


FILTERS = {name: make_filter(name, w) for name, w in [("narrow", 1), ("wide", 3)]}

x = wp.array(np.sin(np.linspace(0, 6, 40)).astype(np.float32))
for name, k in FILTERS.items():
    y = wp.zeros_like(x)
    wp.launch(k, dim=40, inputs=[x, y])
    print(name, y.numpy()[:3])
