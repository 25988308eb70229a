"""Kernel builders shared by the scripts of this folder."""

import warp as wp


def make_norm(p: int):
    @wp.kernel
    def norm_helper(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        a = wp.abs(v[i][0])
        b = wp.abs(v[i][1])
        c = wp.abs(v[i][2])
        if p == 1:
            out[i] = a + b + c
        else:
            out[i] = wp.max(a, wp.max(b, c))

    return norm_helper


def make_shrink(t: float):
    @wp.kernel
    def shrink_helper(x: wp.array(dtype=float)):
        i = wp.tid()
        v = x[i]
        x[i] = wp.sign(v) * wp.max(wp.abs(v) - t, 0.0)

    return shrink_helper
