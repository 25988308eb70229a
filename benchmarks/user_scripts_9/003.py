"""wp.static calling Python helpers of the script, math and numpy."""

import math

import numpy as np
import warp as wp


def binom(n: int, k: int) -> float:
    """Plain Python, evaluated while Warp builds the kernel."""
    return float(math.factorial(n) // (math.factorial(k) * math.factorial(n - k)))


def knots(n):
    return [i / (n - 1) for i in range(n)]


DEGREE = 4


@wp.kernel
def bernstein4(t: wp.array(dtype=float), ctrl: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = t[i]
    acc = float(0.0)
    for k in range(wp.static(DEGREE + 1)):
        acc += wp.static(binom(DEGREE, k)) * wp.pow(s, float(k)) * wp.pow(1.0 - s, float(DEGREE - k)) * ctrl[k]
    out[i] = acc + wp.static(knots(3)[1]) * 0.0


@wp.kernel
def root_scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * wp.static(float(np.sqrt(2.0))) + wp.static(float(math.comb(5, 2))) * 0.01


t = wp.array(np.linspace(0, 1, 10, dtype=np.float32))
ctrl = wp.array(np.array([0, 1, 3, 1, 0], dtype=np.float32))
out = wp.zeros(10, dtype=float)
wp.launch(bernstein4, dim=10, inputs=[t, ctrl, out])
wp.launch(root_scale, dim=10, inputs=[out])
print(out.numpy())
