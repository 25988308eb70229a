"""Taylor coefficients computed with sympy at import, kept as sympy numbers, read with wp.static(float(...))."""

import numpy as np
import sympy as sp
import warp as wp

t = sp.symbols("t")
SERIES = sp.series(sp.exp(-t) * sp.cos(t), t, 0, 5).removeO()
COEFFS = [SERIES.coeff(t, k) for k in range(5)]  # sympy Rationals and Integers
DECAY = sp.Rational(3, 4)
SQRT2 = sp.sqrt(2)


@wp.kernel
def damped_cos_taylor(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i]
    acc = float(0.0)
    p = float(1.0)
    for k in range(5):
        acc += wp.static(float(COEFFS[k])) * p
        p = p * s
    y[i] = acc


@wp.kernel
def decay_sqrt2(y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = y[i] * wp.static(float(DECAY)) + wp.static(float(SQRT2.evalf()))


x = wp.array(np.linspace(0, 0.5, 6, dtype=np.float32))
y = wp.zeros(6, dtype=float)
wp.launch(damped_cos_taylor, dim=6, inputs=[x, y])
wp.launch(decay_sqrt2, dim=6, inputs=[y])
print(y.numpy())
