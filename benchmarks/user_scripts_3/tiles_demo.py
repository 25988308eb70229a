import numpy as np
import warp as wp

TILE = 8
BLOCK = 16


@wp.kernel
def tile_row_sums(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=TILE)
    s = wp.tile_sum(t)
    wp.tile_store(out, s, offset=i)


@wp.kernel
def tile_gemm(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE, TILE), dtype=float)
    for k in range(A.shape[1] // TILE):
        ta = wp.tile_load(A, shape=(TILE, TILE), offset=(i * TILE, k * TILE))
        tb = wp.tile_load(B, shape=(TILE, TILE), offset=(k * TILE, j * TILE))
        wp.tile_matmul(ta, tb, acc)
    wp.tile_store(C, acc, offset=(i * TILE, j * TILE))


a = wp.array(np.ones((4, TILE), dtype=np.float32), device="cpu")
out = wp.zeros(4, dtype=float, device="cpu")
wp.launch_tiled(tile_row_sums, dim=[4], inputs=[a, out], block_dim=BLOCK, device="cpu")
print(out.numpy())
A = wp.array(np.ones((16, 16), dtype=np.float32), device="cpu")
B = wp.array(np.ones((16, 16), dtype=np.float32), device="cpu")
C = wp.zeros((16, 16), dtype=float, device="cpu")
wp.launch_tiled(tile_gemm, dim=[2, 2], inputs=[A, B, C], block_dim=BLOCK, device="cpu")
print(C.numpy()[0, 0])
