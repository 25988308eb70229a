import numpy as np
import warp as wp

TILE = 8
ROWS = 4


@wp.kernel
def tile_dot_rows(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    row = wp.tid()
    ta = wp.tile_load(a[row], shape=TILE)
    tb = wp.tile_load(b[row], shape=TILE)
    d = wp.tile_dot(ta, tb)
    wp.tile_store(out, d, offset=row)


@wp.kernel
def tile_axpy_blend(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), c: wp.array2d(dtype=float), idx: wp.array(dtype=int)):
    ta = wp.tile_load(a, shape=(TILE, TILE))
    tb = wp.tile_load(b, shape=(TILE, TILE))
    wp.tile_axpy(wp.float32(0.5), ta, tb)
    tt = wp.tile_transpose(tb)
    wp.tile_store(c, tt)
    flat = wp.tile_load(a[0], shape=TILE)
    wp.tile_store(idx, wp.tile_argmin(flat))


def main():
    rng = np.random.default_rng(0)
    a = wp.array(rng.random((ROWS, TILE)).astype(np.float32), dtype=float)
    b = wp.array(rng.random((ROWS, TILE)).astype(np.float32), dtype=float)
    out = wp.zeros(ROWS, dtype=float)
    wp.launch_tiled(tile_dot_rows, dim=[ROWS], inputs=[a, b, out], block_dim=32, device="cpu")
    sq_a = wp.array(rng.random((TILE, TILE)).astype(np.float32), dtype=float)
    sq_b = wp.array(rng.random((TILE, TILE)).astype(np.float32), dtype=float)
    c = wp.zeros((TILE, TILE), dtype=float)
    idx = wp.zeros(1, dtype=int)
    wp.launch_tiled(tile_axpy_blend, dim=[1], inputs=[sq_a, sq_b, c, idx], block_dim=32, device="cpu")
    print(out.numpy(), idx.numpy())


if __name__ == "__main__":
    main()
