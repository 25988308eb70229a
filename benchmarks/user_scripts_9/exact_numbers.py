"""fractions.Fraction, decimal.Decimal and complex globals turned into floats inside wp.static."""

import cmath
from decimal import Decimal
from fractions import Fraction

import numpy as np
import warp as wp

THIRD = Fraction(1, 3)
SIMPSON = [Fraction(1, 6), Fraction(4, 6), Fraction(1, 6)]
RATE = Decimal("0.125")
ROOT = cmath.exp(2j * cmath.pi / 8)


@wp.kernel
def simpson_panels(f: wp.array(dtype=float), h: float, out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(3):
        acc += wp.static(float(SIMPSON[k])) * f[2 * i + k]
    out[i] = acc * 2.0 * h + wp.static(float(THIRD)) * 0.0


@wp.kernel
def rotate_complex(re: wp.array(dtype=float), im: wp.array(dtype=float)):
    i = wp.tid()
    a = re[i]
    b = im[i]
    c = wp.static(ROOT.real)
    s = wp.static(ROOT.imag)
    re[i] = (a * c - b * s) * wp.static(float(1 + RATE))
    im[i] = a * s + b * c


f = wp.array(np.linspace(0, 1, 9, dtype=np.float32) ** 2)
out = wp.zeros(4, dtype=float)
wp.launch(simpson_panels, dim=4, inputs=[f, 0.125, out])
re = wp.array(np.ones(4, dtype=np.float32))
im = wp.zeros(4, dtype=float)
wp.launch(rotate_complex, dim=4, inputs=[re, im])
print(out.numpy().sum(), re.numpy(), im.numpy())
