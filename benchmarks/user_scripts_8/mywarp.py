"""Shorthands the scripts in this folder use."""

import warp as wp

kernel = wp.kernel
func = wp.func
nograd = wp.kernel(enable_backward=False)

EPS = wp.constant(1.0e-6)


@func
def safe_inv(x: float) -> float:
    return 1.0 / (x + EPS)
