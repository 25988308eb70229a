"""Factories closing over a class (its attributes read in the kernel) and over a module object."""

import math

import numpy as np
import warp as wp


class Water:
    DENSITY = 1000.0
    VISCOSITY = 1.0e-3


class Air:
    DENSITY = 1.2
    VISCOSITY = 1.8e-5


def make_reynolds(fluid):
    @wp.kernel
    def reynolds(speed: wp.array(dtype=float), length: float, out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = fluid.DENSITY * speed[i] * length / fluid.VISCOSITY

    return reynolds


def make_phase(lib):
    @wp.kernel
    def phase(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.mod(x[i], lib.tau)

    return phase


speed = wp.array(np.array([0.1, 1.0], dtype=np.float32))
out = wp.zeros(2, dtype=float)
for fl in (Water, Air):
    wp.launch(make_reynolds(fl), dim=2, inputs=[speed, 0.5, out])
x = wp.array(np.array([7.0, -1.0], dtype=np.float32))
wp.launch(make_phase(math), dim=2, inputs=[x])
print(out.numpy(), x.numpy())
