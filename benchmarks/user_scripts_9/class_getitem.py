"""Kernels made per dtype by __class_getitem__ (Field[wp.vec3]) and cached on the class."""

import numpy as np
import warp as wp


class Field:
    _kernels = {}

    def __class_getitem__(cls, dtype):
        if dtype not in cls._kernels:

            @wp.kernel
            def axpy_field(a: float, x: wp.array(dtype=dtype), y: wp.array(dtype=dtype)):
                i = wp.tid()
                y[i] = a * x[i] + y[i]

            cls._kernels[dtype] = axpy_field
        return cls._kernels[dtype]


def make_recursive_halving(levels):
    """Multigrid-like: one kernel per level, built by recursion."""
    if levels == 0:
        return []
    stride = 2 ** (levels - 1)

    @wp.kernel
    def restrict_level(fine: wp.array(dtype=float), coarse: wp.array(dtype=float)):
        i = wp.tid()
        coarse[i] = 0.5 * (fine[2 * i] + fine[2 * i + 1]) * float(stride)

    return make_recursive_halving(levels - 1) + [restrict_level]


x3 = wp.array(np.ones((4, 3), dtype=np.float32), dtype=wp.vec3)
y3 = wp.zeros(4, dtype=wp.vec3)
wp.launch(Field[wp.vec3], dim=4, inputs=[2.0, x3, y3])
x1 = wp.array(np.ones(4, dtype=np.float32))
y1 = wp.zeros(4, dtype=float)
wp.launch(Field[float], dim=4, inputs=[3.0, x1, y1])

fine = wp.array(np.arange(8, dtype=np.float32))
for k in make_recursive_halving(2):
    coarse = wp.zeros(fine.shape[0] // 2, dtype=float)
    wp.launch(k, dim=coarse.shape[0], inputs=[fine, coarse])
    fine = coarse
print(y3.numpy()[0], y1.numpy(), fine.numpy())
