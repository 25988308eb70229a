import numpy as np
import warp as wp

TILE = 32
BLOCK = 32


@wp.kernel
def tile_prefix(a: wp.array(dtype=float), incl: wp.array(dtype=float), excl: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=TILE, offset=i * TILE)
    wp.tile_store(incl, wp.tile_scan_inclusive(t), offset=i * TILE)
    wp.tile_store(excl, wp.tile_scan_exclusive(t), offset=i * TILE)


@wp.kernel
def tile_argmax_rows(a: wp.array2d(dtype=float), idx: wp.array(dtype=int)):
    row = wp.tid()
    t = wp.tile_load(a[row], shape=TILE)
    m = wp.tile_argmax(t)
    idx[row] = m[0]


@wp.kernel
def tile_sort_keys(keys: wp.array(dtype=float), vals: wp.array(dtype=int)):
    k = wp.tile_load(keys, shape=TILE)
    v = wp.tile_load(vals, shape=TILE)
    wp.tile_sort(k, v)
    wp.tile_store(keys, k)
    wp.tile_store(vals, v)


rng = np.random.default_rng(0)
a = wp.array(rng.random(2 * TILE).astype(np.float32))
incl = wp.zeros_like(a)
excl = wp.zeros_like(a)
wp.launch_tiled(tile_prefix, dim=[2], inputs=[a, incl, excl], block_dim=BLOCK)
m = wp.array(rng.random((3, TILE)).astype(np.float32))
idx = wp.zeros(3, dtype=int)
wp.launch_tiled(tile_argmax_rows, dim=[3], inputs=[m, idx], block_dim=BLOCK)
keys = wp.array(rng.random(TILE).astype(np.float32))
vals = wp.array(np.arange(TILE, dtype=np.int32))
wp.launch_tiled(tile_sort_keys, dim=[1], inputs=[keys, vals], block_dim=BLOCK)
print(incl.numpy()[TILE - 1], idx.numpy(), keys.numpy()[:3])
