"""Kernel factories another script star-imports."""
import warp as wp

__all__ = ["make_lut", "make_gamma", "lut_size"]

lut_size = 4


def make_lut(values):
    n = len(values)

    @wp.kernel
    def lut_lookup(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
        i = wp.tid()
        k = wp.clamp(idx[i], 0, n - 1)
        v = float(0.0)
        for j in range(wp.static(n)):
            if j == k:
                v = wp.static(values[j])
        out[i] = v

    return lut_lookup


def make_gamma(gamma: float):
    @wp.kernel
    def gamma_curve(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.pow(wp.max(a[i], 0.0), gamma)

    return gamma_curve
