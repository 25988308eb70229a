# per-thread values into tiles and back
import numpy as np
import warp as wp

BLOCK = wp.constant(16)


@wp.kernel
def block_sums(a: wp.array(dtype=float), sums: wp.array(dtype=float)):
    i, lane = wp.tid()
    v = a[i * BLOCK + lane]
    t = wp.tile(v)
    s = wp.tile_sum(t)
    if lane == 0:
        sums[i] = wp.tile_extract(s, 0)


@wp.kernel
def centered(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, lane = wp.tid()
    v = a[i * BLOCK + lane]
    t = wp.tile(v)
    mean = wp.tile_extract(wp.tile_sum(t), 0) / float(BLOCK)
    out[i * BLOCK + lane] = wp.untile(t) - mean


a = wp.array(np.arange(4 * 16, dtype=np.float32))
sums = wp.zeros(4, dtype=float)
wp.launch(block_sums, dim=[4, 16], inputs=[a, sums], block_dim=16)
out = wp.zeros_like(a)
wp.launch(centered, dim=[4, 16], inputs=[a, out], block_dim=16)
print(sums.numpy(), out.numpy()[:3])
