"""A small package of simulation helpers; its kernels live in __init__ itself."""

import warp as wp

from .shapes import sphere_sdf


@wp.kernel
def simkit_zero(a: wp.array(dtype=float)):
    a[wp.tid()] = 0.0


@wp.kernel
def simkit_sdf(p: wp.array(dtype=wp.vec3), r: float, d: wp.array(dtype=float)):
    i = wp.tid()
    d[i] = sphere_sdf(p[i], r)
