import numpy as np
import warp as wp

N = 4
BLOCK = 32


@wp.kernel
def chol_solve(A: wp.array2d(dtype=wp.float64), b: wp.array1d(dtype=wp.float64), x: wp.array1d(dtype=wp.float64)):
    a = wp.tile_load(A, shape=(N, N))
    rhs = wp.tile_load(b, shape=N)
    L = wp.tile_cholesky(a)
    sol = wp.tile_cholesky_solve(L, rhs)
    wp.tile_store(x, sol)


@wp.kernel
def gram_full(A: wp.array2d(dtype=float), G: wp.array2d(dtype=float)):
    a = wp.tile_load(A, shape=(N, N))
    g = wp.tile_matmul(a, wp.tile_transpose(a))
    reg = wp.tile_full(shape=(N, N), value=0.0, dtype=float)
    wp.tile_assign(reg, g, offset=(0, 0))
    wp.tile_store(G, wp.tile_diag_add(reg, wp.tile_full(shape=N, value=1.0e-3, dtype=float)))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    M = rng.random((N, N))
    spd = M @ M.T + N * np.eye(N)
    A = wp.array(spd, dtype=wp.float64)
    b = wp.array(np.ones(N), dtype=wp.float64)
    x = wp.zeros(N, dtype=wp.float64)
    wp.launch_tiled(chol_solve, dim=[1], inputs=[A, b, x], block_dim=BLOCK)
    G = wp.zeros((N, N), dtype=float)
    wp.launch_tiled(gram_full, dim=[1], inputs=[wp.array(M, dtype=float), G], block_dim=BLOCK)
    print(x.numpy(), G.numpy()[0])
