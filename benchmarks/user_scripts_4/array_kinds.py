"""Different array flavours as kernel parameters."""
import numpy as np
import warp as wp

wp.config.quiet = True


@wp.kernel
def gather_indexed(src: wp.indexedarray(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = src[i] * 2.0


@wp.kernel
def matvec_rows(A: wp.array2d(dtype=wp.float32), x: wp.array1d(dtype=wp.float32), y: wp.array1d(dtype=wp.float32)):
    row = wp.tid()
    acc = float(0.0)
    for k in range(A.shape[1]):
        acc += A[row, k] * x[k]
    y[row] = acc


@wp.kernel
def batch_norm4d(t: wp.array4d(dtype=float), mean: float, inv_std: float):
    b, c, h, w = wp.tid()
    t[b, c, h, w] = (t[b, c, h, w] - mean) * inv_std


@wp.kernel
def fabric_offset(points: wp.fabricarray(dtype=wp.vec3), offset: wp.vec3):
    # only usable inside Omniverse (Fabric); kept for reference
    i = wp.tid()
    points[i] = points[i] + offset


@wp.kernel
def indexed_2d(grid: wp.indexedarray2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = grid[i, j] + 1.0


def run():
    dev = "cpu"
    base = wp.array(np.arange(10, dtype=np.float32), device=dev)
    idx = wp.array([1, 3, 5, 7], dtype=wp.int32, device=dev)
    view = wp.indexedarray(base, [idx])
    out = wp.zeros(4, dtype=float, device=dev)
    wp.launch(gather_indexed, dim=4, inputs=[view, out], device=dev)

    A = wp.array(np.eye(4, dtype=np.float32), device=dev)
    x = wp.array(np.ones(4, dtype=np.float32), device=dev)
    y = wp.zeros(4, dtype=wp.float32, device=dev)
    wp.launch(matvec_rows, dim=4, inputs=[A, x, y], device=dev)

    t = wp.array(np.random.rand(2, 3, 4, 4).astype(np.float32), device=dev)
    wp.launch(batch_norm4d, dim=t.shape, inputs=[t, 0.5, 2.0], device=dev)

    g = wp.array(np.ones((4, 4), dtype=np.float32), device=dev)
    rows = wp.array([0, 2], dtype=wp.int32, device=dev)
    gi = wp.indexedarray(g, [rows, None])
    o2 = wp.zeros((2, 4), dtype=float, device=dev)
    wp.launch(indexed_2d, dim=(2, 4), inputs=[gi, o2], device=dev)
    print(out.numpy(), y.numpy(), o2.numpy().sum())


run()
