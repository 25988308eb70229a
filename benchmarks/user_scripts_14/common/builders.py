import warp as wp


def make_damp(c):
    @wp.kernel
    def damp_common(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = v[i] * c

    return damp_common


def make_clamp(lo, hi):
    @wp.kernel
    def clamp_common(v: wp.array(dtype=float)):
        i = wp.tid()
        v[i] = wp.clamp(v[i], lo, hi)

    return clamp_common
