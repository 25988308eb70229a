import numpy as np
import warp as wp


def make_bias():
    bias = 1.0

    @wp.kernel
    def add_bias(a: wp.array(dtype=float)):
        a[wp.tid()] += bias

    # recalibrated after the kernel was written; Warp reads the cell when it builds
    bias = 0.25
    return add_bias


def make_gains():
    kernels = []
    for g in (1.0, 2.0, 3.0):

        @wp.kernel
        def add_gain(a: wp.array(dtype=float)):
            a[wp.tid()] *= g

        kernels.append(add_gain)
    return kernels


a = wp.array(np.ones(4, dtype=np.float32))
wp.launch(make_bias(), dim=4, inputs=[a])
for k in make_gains():
    wp.launch(k, dim=4, inputs=[a])
print(a.numpy())
