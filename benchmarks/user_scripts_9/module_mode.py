"""wp.set_module_options with mode="debug" and block_dim for this file only, tiles sized by it."""

import numpy as np
import warp as wp

wp.set_module_options({"mode": "debug", "block_dim": 16})

TILE = 16


@wp.kernel
def checked_scale(x: wp.array(dtype=float), s: float):
    i = wp.tid()
    assert s > 0.0
    x[i] = x[i] * s


@wp.kernel
def tile_total(x: wp.array1d(dtype=float), out: wp.array1d(dtype=float)):
    t = wp.tile_load(x, shape=TILE)
    wp.tile_store(out, wp.tile_sum(t))


x = wp.array(np.arange(TILE, dtype=np.float32))
wp.launch(checked_scale, dim=TILE, inputs=[x, 2.0])
out = wp.zeros(1, dtype=float)
wp.launch_tiled(tile_total, dim=[1], inputs=[x, out], block_dim=16)
print(out.numpy())
