import warp as wp

from .common import *  # noqa: F403


@wp.func
def spring_force(xa: wp.vec3, xb: wp.vec3, rest: float, ks: float):
    d = xb - xa
    l = wp.length(d)
    return safe_normalize(d) * (l - rest) * ks  # noqa: F405


@wp.func
def drag_force(v: wp.vec3, kd: float):
    return -v * kd


@wp.kernel
def clear_forces(f: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    f[tid] = wp.vec3(0.0, 0.0, 0.0)
