import argparse

import numpy as np

import warp as wp


def make_row_norms(tile_m: int, tile_n: int):
    @wp.kernel
    def tile_row_norms(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
        i = wp.tid()
        t = wp.tile_load(a, shape=(tile_m, tile_n), offset=(i * tile_m, 0))
        sq = wp.tile_map(wp.mul, t, t)
        s = wp.tile_sum(sq, axis=1)
        wp.tile_store(out, wp.tile_reshape(s, shape=(tile_m, 1)), offset=(i * tile_m, 0))

    return tile_row_norms


TILE = wp.constant(8)


@wp.kernel
def tile_minmax(a: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=TILE, offset=i * TILE)
    wp.tile_atomic_add(lo, wp.tile_min(t), offset=0)
    wp.tile_atomic_add(hi, wp.tile_max(t), offset=0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tile-m", type=int, default=4)
    p.add_argument("--tile-n", type=int, default=8)
    args = p.parse_args()
    a = wp.array(np.ones((8, args.tile_n), dtype=np.float32), dtype=float)
    out = wp.zeros((8, 1), dtype=float)
    wp.launch_tiled(make_row_norms(args.tile_m, args.tile_n), dim=8 // args.tile_m, inputs=[a, out], block_dim=32)
    x = wp.array(np.arange(16, dtype=np.float32), dtype=float)
    lo = wp.zeros(1, dtype=float)
    hi = wp.zeros(1, dtype=float)
    wp.launch_tiled(tile_minmax, dim=2, inputs=[x, lo, hi], block_dim=32)
    print(out.numpy().ravel(), lo.numpy(), hi.numpy())


if __name__ == "__main__":
    main()
