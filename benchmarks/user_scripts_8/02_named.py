"""Kernels and functions registered under names of our own (Warp's `name=` option)."""

import numpy as np
import warp as wp


@wp.func(name="my_lerp")
def lerp_f(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


@wp.func(inline=True)
def sq(x: float) -> float:
    return x * x


@wp.kernel(name="fused_axpy")
def axpy_named(alpha: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = alpha * x[i] + y[i]


@wp.kernel(name="blend_v2", enable_backward=False)
def blend_inline(a: wp.array(dtype=float), b: wp.array(dtype=float), t: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = sq(lerp_f(a[i], b[i], t))


n = 16
a = wp.array(np.linspace(0, 1, n, dtype=np.float32))
b = wp.array(np.linspace(1, 2, n, dtype=np.float32))
out = wp.zeros(n, dtype=float)
wp.launch(axpy_named, dim=n, inputs=[2.0, a, b])
wp.launch(blend_inline, dim=n, inputs=[a, b, 0.25, out])
print(axpy_named.key, blend_inline.key, out.numpy()[:4])
