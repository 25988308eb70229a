"""A factory taking a numpy dtype: wp.dtype_from_numpy, and one taking a Warp vector type's length."""

import numpy as np
import warp as wp


def make_sum(np_dtype):
    wtype = wp.dtype_from_numpy(np_dtype)

    @wp.kernel
    def row_sum(a: wp.array2d(dtype=wtype), out: wp.array(dtype=wtype)):
        i = wp.tid()
        acc = wtype(0)
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc

    return row_sum


def make_norm(n):
    vec_t = wp.types.vector(length=n, dtype=wp.float32)

    @wp.kernel
    def vec_norm(v: wp.array(dtype=vec_t), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.length(v[i])

    return vec_norm


data = np.arange(12, dtype=np.float64).reshape(3, 4)
k = make_sum(data.dtype)
out = wp.zeros(3, dtype=wp.float64)
wp.launch(k, dim=3, inputs=[wp.array(data, dtype=wp.float64), out])

k6 = make_norm(6)
v = wp.array(np.ones((2, 6), dtype=np.float32), dtype=wp.types.vector(length=6, dtype=wp.float32))
o = wp.zeros(2, dtype=float)
wp.launch(k6, dim=2, inputs=[v, o])
print(out.numpy(), o.numpy())
