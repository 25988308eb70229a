# tiles: tile_max/min, tile_broadcast, tile_ones, tile_atomic_add, per-column reductions
import numpy as np
import warp as wp

TILE_M = wp.constant(4)
TILE_N = wp.constant(8)


@wp.kernel
def tile_col_max(a: wp.array2d(dtype=float), out: wp.array(dtype=float), low: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(TILE_M, TILE_N), offset=(i * TILE_M, 0))
    wp.tile_atomic_add(out, wp.tile_max(t), offset=(0,))
    wp.tile_atomic_add(low, wp.tile_min(t), offset=(0,))


@wp.kernel
def tile_bias_add(a: wp.array2d(dtype=float), bias: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(TILE_M, TILE_N), offset=(i * TILE_M, 0))
    b = wp.tile_load(bias, shape=(TILE_N,))
    bb = wp.tile_broadcast(b, shape=(TILE_M, TILE_N))
    ones = wp.tile_ones(shape=(TILE_M, TILE_N), dtype=float)
    wp.tile_store(out, t + bb + ones, offset=(i * TILE_M, 0))


a = wp.array(np.arange(64, dtype=np.float32).reshape(8, 8))
out = wp.zeros(1, dtype=float)
low = wp.zeros(1, dtype=float)
wp.launch_tiled(tile_col_max, dim=[2], inputs=[a, out, low], block_dim=16)
bias = wp.array(np.ones(8, dtype=np.float32))
res = wp.zeros((8, 8), dtype=float)
wp.launch_tiled(tile_bias_add, dim=[2], inputs=[a, bias, res], block_dim=16)
print(out.numpy(), low.numpy(), res.numpy()[0, :3])
