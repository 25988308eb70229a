import functools

import numpy as np
import warp as wp

ENABLE_GRAD = False
nograd_kernel = functools.partial(wp.kernel, enable_backward=False)


@nograd_kernel
def fill_iota(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = i


@wp.kernel(enable_backward=ENABLE_GRAD)
def reverse_copy(src: wp.array(dtype=int), dst: wp.array(dtype=int)):
    i = wp.tid()
    dst[src.shape[0] - 1 - i] = src[i]


a = wp.zeros(6, dtype=int)
b = wp.zeros(6, dtype=int)
wp.launch(fill_iota, dim=6, inputs=[a])
wp.launch(reverse_copy, dim=6, inputs=[a, b])
print(b.numpy())
