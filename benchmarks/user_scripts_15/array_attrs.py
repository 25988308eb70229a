import numpy as np
import warp as wp


@wp.kernel
def row_means_shape(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    cols = a.shape[1]
    s = float(0.0)
    for j in range(cols):
        s += a[i, j]
    out[i] = s / float(cols)


@wp.kernel
def wrap_len(src: wp.array(dtype=float), dst: wp.array(dtype=float), shift: int):
    i = wp.tid()
    n = len(src)
    j = wp.where(i + shift < n, i + shift, i + shift - n)
    dst[i] = src[j]


if __name__ == "__main__":
    a = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), dtype=float)
    out = wp.zeros(3, dtype=float)
    wp.launch(row_means_shape, dim=3, inputs=[a, out])
    src = wp.array(np.arange(5, dtype=np.float32), dtype=float)
    dst = wp.zeros(5, dtype=float)
    wp.launch(wrap_len, dim=5, inputs=[src, dst, 2])
    print(out.numpy(), dst.numpy())
