# a report launched from an atexit handler, its kernel defined inside the handler
import atexit

import numpy as np
import warp as wp

data = wp.array(np.array([1.0, np.nan, 3.0, 4.0], dtype=np.float32))


@wp.kernel
def final_sum(a: wp.array(dtype=float), s: wp.array(dtype=float)):
    v = a[wp.tid()]
    if not wp.isnan(v):
        wp.atomic_add(s, 0, v)


@atexit.register
def report():
    @wp.kernel
    def count_nan(a: wp.array(dtype=float), c: wp.array(dtype=int)):
        if wp.isnan(a[wp.tid()]):
            wp.atomic_add(c, 0, 1)

    c = wp.zeros(1, dtype=int)
    wp.launch(count_nan, dim=data.shape[0], inputs=[data, c])
    print("nan count:", c.numpy()[0])


s = wp.zeros(1, dtype=float)
wp.launch(final_sum, dim=4, inputs=[data, s])
print("sum:", s.numpy()[0])
