import numpy as np
import warp as wp


@wp.kernel
def batch_channel_mean(x: wp.array4d(dtype=float), out: wp.array2d(dtype=float)):
    b, c, h, w = wp.tid()
    inv = 1.0 / float(x.shape[2] * x.shape[3])
    wp.atomic_add(out, b, c, x[b, c, h, w] * inv)


@wp.kernel
def row_views(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    row = m[i]
    s = float(0.0)
    for j in range(row.shape[0] - 1, -1, -1):
        s = s * 0.5 + row[j]
    out[i] = s


x = wp.array(np.ones((2, 3, 4, 4), dtype=np.float32), dtype=float)
out = wp.zeros((2, 3), dtype=float)
wp.launch(batch_channel_mean, dim=x.shape, inputs=[x, out])
m = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), dtype=float)
r = wp.zeros(3, dtype=float)
wp.launch(row_views, dim=3, inputs=[m, r])
print(out.numpy(), r.numpy())
