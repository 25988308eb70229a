import numpy as np
import warp as wp

from mytypes import Box, IntGrid, Vec2Array, mat2d, real, vec

float_arr = wp.array(dtype=float)
Scalar = float


@wp.kernel
def clamp_to_box(points: wp.array(dtype=vec), box: Box):
    i = wp.tid()
    p = points[i]
    points[i] = vec(
        wp.clamp(p[0], box.lo[0], box.hi[0]),
        wp.clamp(p[1], box.lo[1], box.hi[1]),
        wp.clamp(p[2], box.lo[2], box.hi[2]),
    )


@wp.kernel
def rotate2(pts: Vec2Array, angle: Scalar, out: Vec2Array):
    i = wp.tid()
    c = wp.cos(angle)
    s = wp.sin(angle)
    m = wp.mat22(c, -s, s, c)
    out[i] = m * pts[i]


@wp.kernel
def label_cells(grid: IntGrid, weights: float_arr, threshold: Scalar):
    i, j = wp.tid()
    w = weights[i] * weights[j]
    if w > threshold:
        grid[i, j] = 1
    else:
        grid[i, j] = 0


@wp.kernel
def det_batch(ms: wp.array(dtype=mat2d), out: wp.array(dtype=real)):
    i = wp.tid()
    out[i] = wp.determinant(ms[i])


wp.set_device("cpu")
pts = wp.array(np.random.randn(10, 3), dtype=vec)
box = Box()
box.lo = vec(-0.5, -0.5, -0.5)
box.hi = vec(0.5, 0.5, 0.5)
wp.launch(clamp_to_box, dim=10, inputs=[pts, box])
p2 = wp.array(np.random.randn(10, 2).astype(np.float32), dtype=wp.vec2)
o2 = wp.zeros_like(p2)
wp.launch(rotate2, dim=10, inputs=[p2, 0.3, o2])
g = wp.zeros((4, 4), dtype=wp.int32)
wts = wp.array(np.linspace(0, 1, 4, dtype=np.float32))
wp.launch(label_cells, dim=(4, 4), inputs=[g, wts, 0.2])
ms = wp.array(np.tile(np.eye(2), (3, 1, 1)), dtype=mat2d)
dets = wp.zeros(3, dtype=real)
wp.launch(det_batch, dim=3, inputs=[ms, dets])
print(np.abs(pts.numpy()).max(), g.numpy().sum(), dets.numpy())
