"""Triangular tile solves, tile_diag_add, tile_sum along an axis, tile_squeeze."""

import numpy as np
import warp as wp

N = 4
BLOCK = 32


@wp.kernel
def lower_upper_solve(L: wp.array2d(dtype=wp.float64), b: wp.array1d(dtype=wp.float64), x: wp.array1d(dtype=wp.float64)):
    Lt = wp.tile_load(L, shape=(N, N))
    bt = wp.tile_load(b, shape=N)
    y = wp.tile_lower_solve(Lt, bt)
    U = wp.tile_transpose(Lt)
    xt = wp.tile_upper_solve(U, y)
    wp.tile_store(x, xt)


@wp.kernel
def regularized_row_sums(A: wp.array2d(dtype=float), d: wp.array1d(dtype=float), out: wp.array1d(dtype=float)):
    At = wp.tile_load(A, shape=(N, N))
    dt = wp.tile_load(d, shape=N)
    R = wp.tile_diag_add(At, dt)
    rows = wp.tile_sum(R, axis=1)
    wp.tile_store(out, rows)


@wp.kernel
def column_of_sums(A: wp.array2d(dtype=float), out: wp.array1d(dtype=float)):
    At = wp.tile_load(A, shape=(1, N))
    s = wp.tile_squeeze(At)
    wp.tile_store(out, wp.tile_scan_max_inclusive(s))


L = np.tril(np.ones((N, N))) + np.eye(N)
Lw = wp.array(L, dtype=wp.float64)
b = wp.array(np.ones(N), dtype=wp.float64)
x = wp.zeros(N, dtype=wp.float64)
wp.launch_tiled(lower_upper_solve, dim=[1], inputs=[Lw, b, x], block_dim=BLOCK)
A = wp.array(np.arange(N * N, dtype=np.float32).reshape(N, N))
d = wp.array(np.full(N, 10.0, dtype=np.float32))
out = wp.zeros(N, dtype=float)
wp.launch_tiled(regularized_row_sums, dim=[1], inputs=[A, d, out], block_dim=BLOCK)
out2 = wp.zeros(N, dtype=float)
wp.launch_tiled(column_of_sums, dim=[1], inputs=[A, out2], block_dim=BLOCK)
print(x.numpy(), out.numpy(), out2.numpy())
