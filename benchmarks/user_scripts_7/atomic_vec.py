import numpy as np
import warp as wp


@wp.kernel
def scatter_forces(edges: wp.array(dtype=wp.vec2i), x: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3)):
    e = wp.tid()
    a = edges[e][0]
    b = edges[e][1]
    d = x[b] - x[a]
    wp.atomic_add(f, a, d)
    wp.atomic_sub(f, b, d)


@wp.kernel
def grid_stats(cells: wp.array(dtype=wp.vec2i), counts: wp.array2d(dtype=int), peak: wp.array2d(dtype=wp.float64),
               w: wp.array(dtype=wp.float64)):
    i = wp.tid()
    c = cells[i]
    old = wp.atomic_add(counts, c[0], c[1], 1)
    wp.atomic_max(peak, c[0], c[1], w[i] + wp.float64(old))
    counts[c[0], c[1]] += 0


rng = np.random.default_rng(2)
edges = wp.array(np.array([[0, 1], [1, 2], [2, 3], [3, 0]], dtype=np.int32), dtype=wp.vec2i)
x = wp.array(rng.random((4, 3)).astype(np.float32), dtype=wp.vec3)
f = wp.zeros(4, dtype=wp.vec3)
wp.launch(scatter_forces, dim=4, inputs=[edges, x, f])
cells = wp.array(rng.integers(0, 4, (32, 2)).astype(np.int32), dtype=wp.vec2i)
counts = wp.zeros((4, 4), dtype=int)
peak = wp.zeros((4, 4), dtype=wp.float64)
w = wp.array(rng.random(32), dtype=wp.float64)
wp.launch(grid_stats, dim=32, inputs=[cells, counts, peak, w])
print(f.numpy().sum(axis=0), counts.numpy().sum())
