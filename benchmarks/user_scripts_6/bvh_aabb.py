# wp.Bvh overlap queries and HashGrid's sorted point ids
import numpy as np
import warp as wp


@wp.kernel
def overlap_pairs(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3), uppers: wp.array(dtype=wp.vec3),
                  hits: wp.array(dtype=int)):
    i = wp.tid()
    q = wp.bvh_query_aabb(bvh, lowers[i], uppers[i])
    j = int(0)
    while wp.bvh_query_next(q, j):
        if j != i:
            hits[i] += 1


@wp.kernel
def sorted_neighbors(grid: wp.uint64, pts: wp.array(dtype=wp.vec3), radius: float, count: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = pts[i]
    n = int(0)
    for j in wp.hash_grid_query(grid, p, radius):
        if wp.length(pts[j] - p) <= radius:
            n += 1
    count[i] = n


with wp.ScopedDevice("cpu"):
    rng = np.random.default_rng(1)
    c = rng.random((32, 3)).astype(np.float32)
    lowers = wp.array(c - 0.05, dtype=wp.vec3)
    uppers = wp.array(c + 0.05, dtype=wp.vec3)
    bvh = wp.Bvh(lowers, uppers)
    hits = wp.zeros(32, dtype=int)
    wp.launch(overlap_pairs, dim=32, inputs=[bvh.id, lowers, uppers, hits])
    pts = wp.array(c, dtype=wp.vec3)
    grid = wp.HashGrid(8, 8, 8)
    grid.build(pts, 0.2)
    count = wp.zeros(32, dtype=int)
    wp.launch(sorted_neighbors, dim=32, inputs=[grid.id, pts, 0.2, count])
    print(hits.numpy().sum(), count.numpy().sum())
