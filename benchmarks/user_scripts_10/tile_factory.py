import numpy as np
import warp as wp

BLOCK = 32


def make_tile_gemm(tm: int, tn: int, tk: int):
    @wp.kernel
    def tile_gemm(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), c: wp.array2d(dtype=float)):
        i, j = wp.tid()
        acc = wp.tile_zeros(shape=(tm, tn), dtype=float)
        count = int(a.shape[1] / tk)
        for k in range(count):
            ta = wp.tile_load(a, shape=(tm, tk), offset=(i * tm, k * tk))
            tb = wp.tile_load(b, shape=(tk, tn), offset=(k * tk, j * tn))
            wp.tile_matmul(ta, tb, acc)
        wp.tile_store(c, acc, offset=(i * tm, j * tn))

    return tile_gemm


def make_row_softmax(width: int):
    @wp.kernel
    def row_softmax(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
        row = wp.tid()
        t = wp.tile_load(x[row], shape=width)
        m = wp.tile_max(t)
        e = wp.tile_map(wp.exp, wp.tile_map(wp.sub, t, wp.tile_broadcast(m, shape=(width,))))
        s = wp.tile_sum(e)
        wp.tile_store(y[row], wp.tile_map(wp.div, e, wp.tile_broadcast(s, shape=(width,))))

    return row_softmax


M = N = K = 16
a = wp.array(np.ones((M, K), dtype=np.float32))
b = wp.array(np.ones((K, N), dtype=np.float32))
c = wp.zeros((M, N), dtype=float)
wp.launch_tiled(make_tile_gemm(8, 8, 8), dim=(M // 8, N // 8), inputs=[a, b, c], block_dim=BLOCK)
y = wp.zeros((M, N), dtype=float)
wp.launch_tiled(make_row_softmax(N), dim=M, inputs=[c, y], block_dim=BLOCK)
print(c.numpy()[0, 0], y.numpy()[0, 0])
