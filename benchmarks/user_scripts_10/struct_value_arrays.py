import numpy as np
import warp as wp


@wp.struct
class Grid:
    origin: wp.vec2
    cell: float
    counts: wp.array2d(dtype=int)


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec2)
    weight: wp.array(dtype=float)
    grid: Grid


@wp.func
def cell_of(g: Grid, p: wp.vec2):
    q = (p - g.origin) / g.cell
    return int(q[0]), int(q[1])


@wp.kernel
def splat_counts(cloud: Cloud):
    i = wp.tid()
    cx, cy = cell_of(cloud.grid, cloud.pos[i])
    if cx >= 0 and cy >= 0 and cx < cloud.grid.counts.shape[0] and cy < cloud.grid.counts.shape[1]:
        wp.atomic_add(cloud.grid.counts, cx, cy, 1)


@wp.kernel
def total_weight(clouds: wp.array(dtype=Cloud), out: wp.array(dtype=float)):
    c = wp.tid()
    s = float(0.0)
    for k in range(clouds[c].weight.shape[0]):
        s += clouds[c].weight[k]
    out[c] = s


def make_cloud(n: int) -> Cloud:
    g = Grid()
    g.origin = wp.vec2(0.0, 0.0)
    g.cell = 0.25
    g.counts = wp.zeros((4, 4), dtype=int)
    c = Cloud()
    c.pos = wp.array(np.random.default_rng(1).random((n, 2)), dtype=wp.vec2)
    c.weight = wp.ones(n, dtype=float)
    c.grid = g
    return c


cloud = make_cloud(16)
wp.launch(splat_counts, dim=16, inputs=[cloud])
other = make_cloud(8)
clouds = wp.array([cloud, other], dtype=Cloud)
out = wp.zeros(2, dtype=float)
wp.launch(total_weight, dim=2, inputs=[clouds, out])
print(cloud.grid.counts.numpy().sum(), out.numpy())
