"""Kernels kept behind TYPE_CHECKING-style switches, as seen in half-refactored code."""

from typing import TYPE_CHECKING

import warp as wp

if TYPE_CHECKING:
    import numpy.typing as npt  # noqa: F401

USE_DOUBLE = False

if USE_DOUBLE:

    @wp.kernel
    def accumulate(a: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
        wp.atomic_add(out, 0, a[wp.tid()])

else:

    @wp.kernel
    def accumulate(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
        wp.atomic_add(out, 0, a[wp.tid()])


a = wp.ones(10, dtype=wp.float32, device="cpu")
out = wp.zeros(1, dtype=wp.float32, device="cpu")
wp.launch(accumulate, dim=10, inputs=[a, out], device="cpu")
print(out.numpy())
