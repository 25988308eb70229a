"""tile_load_indexed gathers, tile_scatter_add into a shared tile, tile_randf."""

import numpy as np
import warp as wp

TILE = 8
BINS = 4


@wp.kernel
def gather_rows(data: wp.array2d(dtype=float), idx: wp.array1d(dtype=int), out: wp.array2d(dtype=float)):
    it = wp.tile_load(idx, shape=TILE)
    g = wp.tile_load_indexed(data, indices=it, shape=(TILE, 2), axis=0)
    wp.tile_store(out, g)


@wp.kernel
def noisy_histogram(keys: wp.array1d(dtype=int), seed: int, out: wp.array1d(dtype=float)):
    hist = wp.tile_zeros(shape=BINS, dtype=float, storage="shared")
    i = wp.tid()
    k = keys[i]
    wp.tile_scatter_add(hist, k % BINS, 1.0, True)
    noise = wp.tile_randf(BINS, wp.uint32(seed))
    wp.tile_store(out, hist + noise * 0.0)


data = wp.array(np.arange(32, dtype=np.float32).reshape(16, 2))
idx = wp.array(np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32))
out = wp.zeros((TILE, 2), dtype=float)
wp.launch_tiled(gather_rows, dim=[1], inputs=[data, idx, out], block_dim=TILE)
keys = wp.array(np.arange(TILE, dtype=np.int32))
h = wp.zeros(BINS, dtype=float)
wp.launch_tiled(noisy_histogram, dim=[1], inputs=[keys, 7, h], block_dim=TILE)
print(out.numpy()[:2], h.numpy())
