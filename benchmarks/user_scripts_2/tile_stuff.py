import numpy as np
import warp as wp

TILE = 32
TILE_M = wp.constant(16)
TILE_N = wp.constant(16)
BLOCK_DIM = 64


@wp.kernel
def tile_row_sum(x: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x[i], shape=TILE)
    s = wp.tile_sum(t)
    wp.tile_store(out, s, offset=i)


@wp.kernel
def tile_scale(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), s: float):
    i, j = wp.tid()
    t = wp.tile_load(a, shape=(TILE_M, TILE_N), offset=(i * TILE_M, j * TILE_N))
    t2 = t * s
    wp.tile_store(b, t2, offset=(i * TILE_M, j * TILE_N))


@wp.kernel
def tile_transpose(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = wp.tile_load(a, shape=(TILE_M, TILE_N), offset=(i * TILE_M, j * TILE_N))
    wp.tile_store(b, wp.tile_transpose(t), offset=(j * TILE_N, i * TILE_M))


if __name__ == "__main__":
    x = wp.array(np.random.rand(8, TILE).astype(np.float32))
    out = wp.zeros(8, dtype=float)
    wp.launch_tiled(tile_row_sum, dim=[8], inputs=[x, out], block_dim=BLOCK_DIM)
    a = wp.array(np.random.rand(64, 64).astype(np.float32))
    b = wp.zeros_like(a)
    wp.launch_tiled(tile_scale, dim=[4, 4], inputs=[a, b, 2.0], block_dim=BLOCK_DIM)
    wp.launch_tiled(tile_transpose, dim=[4, 4], inputs=[a, b], block_dim=BLOCK_DIM)
    print(out.numpy())
