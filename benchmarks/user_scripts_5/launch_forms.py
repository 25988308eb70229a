import numpy as np
import warp as wp

TILE = 8


@wp.kernel
def outer_product(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = a[i] * b[j]


@wp.kernel
def tile_double(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x[i], shape=TILE)
    wp.tile_store(y[i], t * 2.0)


@wp.kernel
def fill_index(out: wp.array3d(dtype=wp.int32)):
    i, j, k = wp.tid()
    out[i, j, k] = i * 100 + j * 10 + k


def main():
    a = wp.array(np.arange(4, dtype=np.float32))
    b = wp.array(np.arange(5, dtype=np.float32))
    out = wp.zeros((4, 5), dtype=float)
    wp.launch(kernel=outer_product, dim=(4, 5), inputs=(a, b), outputs=(out,), block_dim=64)

    x = wp.array(np.ones((3, TILE), dtype=np.float32))
    y = wp.zeros_like(x)
    wp.launch_tiled(tile_double, dim=[3], inputs=[x, y], block_dim=32)

    grid = wp.zeros((2, 3, 4), dtype=wp.int32)
    cmd = wp.launch(fill_index, dim=grid.shape, inputs=[grid], record_cmd=True)
    cmd.launch()
    print(out.numpy().sum(), y.numpy().sum(), grid.numpy()[1, 2, 3])


if __name__ == "__main__":
    main()
