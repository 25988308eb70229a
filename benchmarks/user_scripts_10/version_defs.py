import sys

import warp as wp

if sys.version_info >= (3, 9):

    @wp.kernel
    def modern_square(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * a[i]

else:

    @wp.kernel
    def modern_square(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] ** 2.0


if wp.config.mode == "release":

    @wp.kernel
    def checked_div(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] / b[i]

else:

    @wp.kernel
    def checked_div(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        if b[i] != 0.0:
            a[i] = a[i] / b[i]


a = wp.full(3, 3.0, dtype=float)
b = wp.full(3, 2.0, dtype=float)
wp.launch(modern_square, dim=3, inputs=[a])
wp.launch(checked_div, dim=3, inputs=[a, b])
print(a.numpy())
