import warp as wp


@wp.kernel
def divergence(vx: wp.array3d(dtype=float), vy: wp.array3d(dtype=float), vz: wp.array3d(dtype=float), div: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    nx, ny, nz = vx.shape[0], vx.shape[1], vx.shape[2]
    if i == 0 or j == 0 or k == 0 or i == nx - 1 or j == ny - 1 or k == nz - 1:
        return
    div[i, j, k] = 0.5 * (vx[i + 1, j, k] - vx[i - 1, j, k] + vy[i, j + 1, k] - vy[i, j - 1, k] + vz[i, j, k + 1] - vz[i, j, k - 1])


@wp.kernel
def reduce_max(a: wp.array3d(dtype=float), out: wp.array(dtype=float)):
    i, j, k = wp.tid()
    wp.atomic_max(out, 0, wp.abs(a[i, j, k]))


shape = (6, 6, 6)
vx = wp.ones(shape, dtype=float, device="cpu")
vy = wp.zeros(shape, dtype=float, device="cpu")
vz = wp.zeros(shape, dtype=float, device="cpu")
div = wp.zeros(shape, dtype=float, device="cpu")
wp.launch(divergence, dim=shape, inputs=[vx, vy, vz, div], device="cpu")
m = wp.zeros(1, dtype=float, device="cpu")
wp.launch(reduce_max, dim=shape, inputs=[div, m], device="cpu")
print(m.numpy())
