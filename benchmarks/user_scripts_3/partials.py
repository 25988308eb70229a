import functools

import warp as wp


def make_power_kernel(exponent: int, offset: float):
    @wp.kernel
    def power_offset(a: wp.array(dtype=float)):
        i = wp.tid()
        v = a[i]
        r = float(1.0)
        for _ in range(exponent):
            r = r * v
        a[i] = r + offset

    return power_offset


square = functools.partial(make_power_kernel, 2)
cube = functools.partial(make_power_kernel, exponent=3)
quartic_plus = lambda off: make_power_kernel(4, off)  # noqa: E731

kernels = [square(0.0), cube(offset=1.0), quartic_plus(-1.0)]
for k in kernels:
    a = wp.full(4, 2.0, dtype=float, device="cpu")
    wp.launch(k, dim=4, inputs=[a], device="cpu")
    print(a.numpy())
