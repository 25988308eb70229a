"""Gauss-Legendre points from scipy.special and constants from scipy.constants, unrolled with wp.static."""

import numpy as np
import warp as wp
from scipy import constants
from scipy.special import roots_legendre

GAUSS_X, GAUSS_W = roots_legendre(3)
G0 = constants.g
K_B = constants.Boltzmann


@wp.kernel
def integrate_segments(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    half = 0.5 * (b[i] - a[i])
    mid = 0.5 * (b[i] + a[i])
    acc = float(0.0)
    for q in range(wp.static(len(GAUSS_X))):
        s = mid + half * wp.static(float(GAUSS_X[q]))
        acc += wp.static(float(GAUSS_W[q])) * s * s
    out[i] = acc * half


@wp.kernel
def barometric(h: wp.array(dtype=float), p: wp.array(dtype=float)):
    i = wp.tid()
    m = 4.8e-26
    T = 288.0
    p[i] = wp.exp(-m * wp.static(G0) * h[i] / (wp.static(K_B) * T))


a = wp.zeros(3, dtype=float)
b = wp.array(np.array([1, 2, 3], dtype=np.float32))
out = wp.zeros(3, dtype=float)
wp.launch(integrate_segments, dim=3, inputs=[a, b, out])
h = wp.array(np.array([0, 1000, 5000], dtype=np.float32))
p = wp.zeros(3, dtype=float)
wp.launch(barometric, dim=3, inputs=[h, p])
print(out.numpy(), p.numpy())
