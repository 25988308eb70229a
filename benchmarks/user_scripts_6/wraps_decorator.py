# a decorator of the user's own that compiles with wp.kernel and returns a launcher (functools.wraps)
import functools

import numpy as np
import warp as wp


def gpu_kernel(fn=None, *, enable_backward=True):
    def wrap(f):
        k = wp.kernel(f, enable_backward=enable_backward)

        @functools.wraps(f)
        def launcher(*args, dim):
            wp.launch(k, dim=dim, inputs=list(args))
            return args[-1]

        launcher.kernel = k
        return launcher

    return wrap(fn) if fn is not None else wrap


@gpu_kernel
def vadd(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = a[i] + b[i]


@gpu_kernel(enable_backward=False)
def vmul(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = a[i] * b[i]


a = wp.array(np.arange(4, dtype=np.float32))
b = wp.array(np.ones(4, dtype=np.float32))
c = wp.zeros(4, dtype=float)
print(vadd(a, b, c, dim=4).numpy(), vmul(a, a, c, dim=4).numpy())
