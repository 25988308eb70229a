"""Shared helpers for my warp experiments."""

import warp as wp

from mathutils import EPS, safe_normalize, smoothstep


@wp.struct
class Particle:
    pos: wp.vec3
    vel: wp.vec3
    mass: float


@wp.struct
class SimParams:
    gravity: wp.vec3
    dt: float
    damping: float


@wp.func
def helper_func(x: float, y: float):
    return x * y + EPS


@wp.func
def falloff(r: float, h: float):
    return 1.0 - smoothstep(0.0, h, r)


@wp.func
def direction(a: wp.vec3, b: wp.vec3):
    return safe_normalize(b - a)


def make_grid(n):
    import numpy as np

    xs = np.linspace(0.0, 1.0, n)
    return np.stack(np.meshgrid(xs, xs, xs), axis=-1).reshape(-1, 3).astype(np.float32)


@wp.kernel
def fill_kernel(a: wp.array(dtype=float), value: float):
    i = wp.tid()
    a[i] = value
