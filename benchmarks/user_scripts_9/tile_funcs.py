"""wp.func helpers taking and returning tiles, tile_map with a built-in and with two tiles."""

from typing import Any

import numpy as np
import warp as wp

TILE = 16


@wp.func
def normalize_tile(t: Any):
    total = wp.tile_sum(t)
    inv = 1.0 / (wp.tile_extract(total, 0) + 1.0e-6)
    return t * inv


@wp.func
def blend(a: float, b: float):
    return 0.75 * a + 0.25 * b


@wp.kernel
def tile_normalize_rows(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    row = wp.tid()
    t = wp.tile_load(x[row], shape=TILE)
    wp.tile_store(y[row], normalize_tile(t))


@wp.kernel
def tile_sine_blend(x: wp.array1d(dtype=float), z: wp.array1d(dtype=float), y: wp.array1d(dtype=float)):
    a = wp.tile_load(x, shape=TILE)
    b = wp.tile_load(z, shape=TILE)
    s = wp.tile_map(wp.sin, a)
    wp.tile_store(y, wp.tile_map(blend, s, b))


x = wp.array(np.ones((3, TILE), dtype=np.float32))
y = wp.zeros((3, TILE), dtype=float)
wp.launch_tiled(tile_normalize_rows, dim=[3], inputs=[x, y], block_dim=32)
a = wp.array(np.linspace(0, 1, TILE, dtype=np.float32))
z = wp.array(np.ones(TILE, dtype=np.float32))
out = wp.zeros(TILE, dtype=float)
wp.launch_tiled(tile_sine_blend, dim=[1], inputs=[a, z, out], block_dim=32)
print(y.numpy()[0, :3], out.numpy()[:3])
