import numpy as np
import warp as wp

TILE = 8
BLOCK = 32


@wp.kernel
def spd_solve(A: wp.array2d(dtype=wp.float64), b: wp.array1d(dtype=wp.float64), x: wp.array1d(dtype=wp.float64)):
    a = wp.tile_load(A, shape=(TILE, TILE))
    l = wp.tile_cholesky(a)
    rhs = wp.tile_load(b, shape=TILE)
    wp.tile_store(x, wp.tile_cholesky_solve(l, rhs))


@wp.kernel
def half_tiles(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    t = wp.tile_load(src, shape=(2, TILE), offset=(i * 2, 0))
    top = wp.tile_view(t, offset=(0, 0), shape=(1, TILE))
    filled = wp.tile_full(shape=(2, TILE), value=0.5, dtype=float)
    wp.tile_assign(filled, top, offset=(1, 0))
    wp.tile_store(dst, wp.tile_astype(filled, wp.float16), offset=(i * 2, 0))


A = np.eye(TILE) * 4.0 + 1.0
b = np.arange(TILE, dtype=np.float64)
Aw = wp.array2d(A, dtype=wp.float64)
bw = wp.array1d(b, dtype=wp.float64)
xw = wp.zeros(TILE, dtype=wp.float64)
wp.launch_tiled(spd_solve, dim=[1], inputs=[Aw, bw, xw], block_dim=BLOCK)
print(np.allclose(xw.numpy(), np.linalg.solve(A, b)))

src = wp.array(np.arange(4 * TILE, dtype=np.float32).reshape(4, TILE))
dst = wp.zeros((4, TILE), dtype=wp.float16)
wp.launch_tiled(half_tiles, dim=[2], inputs=[src, dst], block_dim=BLOCK)
print(dst.numpy())
