import numpy as np
import warp as wp

TILE = wp.constant(16)
BLOCK_DIM = 32


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.kernel
def tile_relu_sum(x: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    row = wp.tid()
    t = wp.tile_load(x[row], shape=TILE)
    r = wp.tile_map(relu, t)
    s = wp.tile_reduce(wp.add, r)
    wp.tile_store(out, s, offset=row)


@wp.kernel
def tile_outer(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array2d(dtype=float)):
    i, j = wp.tid()
    ta = wp.tile_load(a, shape=TILE, offset=i * TILE)
    tb = wp.tile_load(b, shape=TILE, offset=j * TILE)
    acc = wp.tile_zeros(shape=(TILE, TILE), dtype=float)
    wp.tile_matmul(wp.tile_reshape(ta, shape=(TILE, 1)), wp.tile_reshape(tb, shape=(1, TILE)), acc)
    wp.tile_store(c, acc, offset=(i * TILE, j * TILE))


@wp.kernel
def tile_iota(out: wp.array(dtype=int)):
    t = wp.tile_arange(TILE, dtype=int)
    t2 = wp.tile_map(wp.mul, t, t)
    wp.tile_store(out, t2)


if __name__ == "__main__":
    dev = "cpu"
    x = wp.array(np.random.randn(4, 16).astype(np.float32), device=dev)
    out = wp.zeros(4, dtype=float, device=dev)
    wp.launch_tiled(tile_relu_sum, dim=[4], inputs=[x, out], block_dim=BLOCK_DIM, device=dev)
    a = wp.array(np.ones(32, dtype=np.float32), device=dev)
    c = wp.zeros((32, 32), dtype=float, device=dev)
    wp.launch_tiled(tile_outer, dim=[2, 2], inputs=[a, a, c], block_dim=BLOCK_DIM, device=dev)
    io = wp.zeros(16, dtype=int, device=dev)
    wp.launch_tiled(tile_iota, dim=[1], inputs=[io], block_dim=BLOCK_DIM, device=dev)
    print(out.numpy().round(2), c.numpy().sum(), io.numpy()[:4])
