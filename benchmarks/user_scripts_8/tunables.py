"""Defaults the experiments override."""

import warp as wp

GAIN = 2.0
OFFSET = 0.0


@wp.kernel
def tunable_scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * GAIN + OFFSET
