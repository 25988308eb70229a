import functools

import numpy as np
import warp as wp


@functools.lru_cache(maxsize=None)
def get_axpy(dtype):
    @wp.kernel
    def axpy_typed(a: dtype, x: wp.array(dtype=dtype), y: wp.array(dtype=dtype)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]

    return axpy_typed


@functools.cache
def get_clamp(lo: float, hi: float):
    @wp.kernel
    def clamp_between(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.clamp(x[i], lo, hi)

    return clamp_between


def main():
    for dtype in (wp.float32, wp.float64):
        x = wp.array(np.arange(4), dtype=dtype)
        y = wp.zeros(4, dtype=dtype)
        wp.launch(get_axpy(dtype), dim=4, inputs=[dtype(2.0), x, y])
        print(y.numpy())
    z = wp.array(np.linspace(-2, 2, 5), dtype=float)
    wp.launch(get_clamp(-1.0, 1.0), dim=5, inputs=[z])
    print(z.numpy())


if __name__ == "__main__":
    main()
